#include "jvmti-agent/instrumentation/class_filter.h"

namespace jsched::agent {

ClassFilter::ClassFilter(const std::vector<std::string>& include,
                         const std::vector<std::string>& exclude,
                         const std::vector<std::string>& kept) {
  auto slashes = [](std::string s) {
    for (char& c : s) c = c == '.' ? '/' : c;
    return s;
  };
  for (const std::string& p : include) {
    if (p == "*") {
      all_ = true;
      reaches_jdk_ = true;
      continue;
    }
    std::string s = slashes(p);
    include_.push_back(s);
    // A prefix reaches the JDK if a JDK class name could start with it ("java." or "java.util."
    // do; "com." does too, through com/sun/).
    for (std::string_view j : rw::kJdkPackages) {
      if (j.substr(0, s.size()) == s || std::string_view(s).substr(0, j.size()) == j)
        reaches_jdk_ = true;
    }
  }
  for (const std::string& p : exclude) exclude_.push_back(slashes(p));
  for (const std::string& p : kept) kept_.push_back(slashes(p));
  // jsched's own classes, and the weak references its object table (JSchedVariables) uses.
  exclude_.push_back("java/lang/JSched");
  exclude_.push_back("java/lang/ref/");
  // The JDK's own bookkeeping of thread starts and ends, which the model keeps itself: the real
  // Thread.start that a start hook calls takes the group's monitor, and a thread ending at a
  // scheduling point inside it would hold it for ever (JDK 17: ThreadGroup.add, remove).
  exclude_.push_back("java/lang/ThreadGroup");
}

bool ClassFilter::matches(std::string_view name, const std::vector<std::string>& prefixes) {
  for (const std::string& p : prefixes) {
    if (name.substr(0, p.size()) == p) return true;
  }
  return false;
}

bool ClassFilter::instrument(std::string_view name, bool jdk_class) const {
  if (matches(name, exclude_) && !matches(name, kept_)) return false;
  if (all_) return true;
  if (matches(name, include_)) return true;
  // Application classes (anything the JDK's loaders did not define) are always in; `include`
  // adds to them.
  return !jdk_class && !jdk_package(name);
}

}  // namespace jsched::agent
