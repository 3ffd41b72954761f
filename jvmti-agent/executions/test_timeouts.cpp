#include "jvmti-agent/executions/test_timeouts.h"

#include <regex>

#include "jvmti-agent/model/virtual_clock.h"

namespace jsched::agent {

std::optional<uint64_t> timeout_in(const std::string& detail) {
  static const std::regex after(
      "timed out after ([0-9]+) (nanoseconds|microseconds|milliseconds|ms|seconds|minutes|hours)");
  std::smatch m;
  if (!std::regex_search(detail, m, after)) return std::nullopt;
  const uint64_t n = std::stoull(m[1].str());
  const std::string unit = m[2].str();
  if (unit == "nanoseconds") return n / 1000;
  if (unit == "microseconds") return n;
  if (unit == "milliseconds" || unit == "ms") return n * 1000;
  if (unit == "seconds") return n * 1000000;
  if (unit == "minutes") return n * 60000000;
  return n * 3600000000ULL;
}

bool timed_out_by_steps(const std::string& detail, uint64_t steps) {
  const std::optional<uint64_t> t = timeout_in(detail);
  return t && steps * uint64_t(kStepTimeNs) / 1000 >= *t / 2;
}

}  // namespace jsched::agent
