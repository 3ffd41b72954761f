// Which classes get instrumented: application classes, plus those matching an `include`
// prefix (`*`: every class), minus those matching an `exclude` prefix (unless they match a
// `kept` one), and never jsched's own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rewriter/jdk_packages.h"

namespace jsched::agent {

class ClassFilter {
 public:
  // `kept`: prefixes `exclude` does not remove (the parts of a test framework that run inside a
  // test's executions, under a framework otherwise left plain).
  ClassFilter(const std::vector<std::string>& include, const std::vector<std::string>& exclude,
              const std::vector<std::string>& kept = {});

  // `internal_name` uses slashes; `jdk_class` is true for classes of the boot and platform
  // loaders (the JDK itself).
  bool instrument(std::string_view internal_name, bool jdk_class) const;

  // Whether any JDK class may be instrumented: then the agent must see java.base classes from
  // the very first one, and hooks must live inside java.base.
  bool reaches_jdk() const { return reaches_jdk_; }

 private:
  static bool matches(std::string_view name, const std::vector<std::string>& prefixes);
  std::vector<std::string> include_, exclude_, kept_;  // slash form
  bool all_ = false;
  bool reaches_jdk_ = false;
};

using rw::jdk_package;

}  // namespace jsched::agent
