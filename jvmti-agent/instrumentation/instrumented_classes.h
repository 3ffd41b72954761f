// The application classes the agent instrumented whole (every method rewritten under the run's
// rules), each with its superclass: whether an object a field refers to can only be touched by
// code that has the run's scheduling points.
// Under accesses=shared a read of a final reference is a point because through it a thread
// reaches an object whose code the agent does not see into (a HashMap, an array): two threads'
// get and put interleave there, and that read is the last point before them. An object whose
// class and every superclass below Object (or Enum) the agent instrumented has points of its own at
// its shared fields, and the read of the reference to it need not be one; nor need one to a String
// or a boxed number, which nothing can change.
#pragma once

#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace jsched::agent {

class InstrumentedClasses {
 public:
  // Class `name` (internal form) was instrumented whole; `super` is its superclass ("" for
  // none).
  void add(std::string_view name, std::string_view super);
  // Whether every object a field of descriptor `desc` holds is instrumented whole or cannot
  // change: a class type whose class and superclasses were added (or an interface that was:
  // only application classes, lambdas of theirs and proxies implement it), or java.lang's
  // String and boxes. Arrays and JDK types never are. A class not loaded yet is not (its
  // field can only be null): the caller asks again next time, and keeps a yes.
  bool covers(std::string_view desc) const;

 private:
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, std::string> super_;  // instrumented class -> superclass
};

}  // namespace jsched::agent
