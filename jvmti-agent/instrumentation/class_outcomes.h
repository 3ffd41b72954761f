// What became of the classes jsched was asked to instrument, process-wide: those it changed
// (a VerifyError naming one of them is jsched's doing, own_fault.h), those its safety net
// loaded as they were (rewriter/rewrite_check.h: a lost scheduling point, named in every
// report), and those it could not read at all (the run cannot be trusted: its verdict is an
// error unless on-unsupported=warn).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace jsched::agent {

class ClassOutcomes {
 public:
  void changed(std::string_view dotted);
  void refused(std::string_view dotted, const std::string& why);
  void unreadable(std::string_view dotted, const std::string& why);

  bool was_changed(std::string_view dotted) const;
  // "class a.B: why" lines, the first kListed of each kind; and how many there were.
  std::vector<std::string> refused_lines() const;
  uint64_t refused_count() const;
  std::vector<std::string> unreadable_lines() const;
  uint64_t unreadable_count() const;

  static constexpr size_t kListed = 20;

 private:
  mutable std::mutex mu_;
  std::unordered_set<std::string> changed_;
  std::vector<std::string> refused_, unreadable_;
  uint64_t refused_count_ = 0, unreadable_count_ = 0;
};

}  // namespace jsched::agent
