// JUnit 5's @Timeout in its default (same-thread) mode: SameThreadTimeoutInvocation.proceed
// schedules the interrupt of the test's thread on one ScheduledExecutorService that JUnit keeps
// for the whole run, runs the test, then cancels the interrupt. Under jsched that executor's
// worker is no thread of any execution: it waits in real time while the test's virtual time
// flies, so a test that takes too long in virtual time was never interrupted and passed where
// a plain JVM fails it. The `schedule` call becomes JSchedShim.scheduleTestTimeout(executor,
// task, delay, unit), which in an execution schedules the interrupt on an executor of the
// execution's own (a controlled worker, a delay on the virtual clock).
#pragma once

#include <string_view>

#include "classfile/bytes.h"

namespace jsched::rw {

inline constexpr std::string_view kJupiterSameThreadTimeout =
    "org/junit/jupiter/engine/extension/SameThreadTimeoutInvocation";

// The class with its `schedule` calls diverted. Throws std::exception when it has none (a JUnit
// version jsched does not know).
cf::Buffer divert_jupiter_timeout(cf::Bytes class_bytes);

}  // namespace jsched::rw
