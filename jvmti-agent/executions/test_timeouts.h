// A test's own timeout (JUnit 4's timeout=, JUnit 5's @Timeout and assertTimeoutPreemptively)
// runs on jsched's virtual clock, which counts every scheduling step as 1 µs
// (model/virtual_clock.h). Waits and sleeps take their own time there; but a test that makes
// millions of steps where a plain JVM needs milliseconds reaches its timeout on the step count
// alone: a failure from jsched's clock, not from the program. Such a timeout, when the test
// passes on a plain JVM, leaves the test not verified rather than failed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jsched::agent {

// The timeout, in µs, named by a failure's detail ("timed out after 200 milliseconds", "after
// 10 seconds", "execution timed out after 200 ms"), or nothing.
std::optional<uint64_t> timeout_in(const std::string& detail);

// Whether the execution's `steps` alone took at least half of that timeout on the virtual clock.
bool timed_out_by_steps(const std::string& detail, uint64_t steps);

}  // namespace jsched::agent
