// Findings of one kind, among the many executions of one JVM (iterations=N,explore): the first
// is printed in full (its detail, its replay line), each later one as one line naming the
// first. A run where most executions find the same bug would otherwise spend its time, and
// its user's screen, on the same stack thousands of times; the reports (report=) keep every
// detail.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace jsched::agent {

class FindingKinds {
 public:
  // The kind of a finding: its outcome and its detail's first line with the numbers that vary
  // from one execution to the next (counts, thread numbers) masked; line numbers (after ':')
  // stay, so one assertion differs from another.
  static std::string kind(const std::string& outcome, const std::string& detail);
  // The iteration of the first finding of `kind` before this one, or none (this one is then
  // the first: it is remembered as `iteration`).
  std::optional<uint64_t> first_of(const std::string& kind, uint64_t iteration);
  // Whether a finding of `kind` came before.
  bool seen(const std::string& kind);

 private:
  std::mutex mu_;
  std::unordered_map<std::string, uint64_t> first_;
};

}  // namespace jsched::agent
