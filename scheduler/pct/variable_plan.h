// The PCT/PCTVB plan (agent option `plan=`, docs/agent.md "Plan files"): what profile executions
// learned about a program, written by each profile run (agent option `profile=`), merged by the
// runner, and read by the planned runs.
//
// File format (text, one item per line, tokens separated by single spaces):
//   jsched-plan 1
//   runs <profile executions merged into this plan>
//   steps <most scheduling points seen in one execution>
//   threads <most threads seen in one execution>
//   thread-events <n> <e0> ... <e(n-1)>   (optional: the most scheduling steps touching something
//                                           shared that thread i took (ThreadState::choices), by
//                                           creation index; SURW's weights)
//   sharing                               (optional: the runs recorded which variables more than
//                                           one thread touched; accesses=shared)
//   static <max accesses> <owner class> <field>
//   new <max accesses> <class> <method> <method descriptor> <bci> <allocated type> <superclasses>
//   at <class> <method> <method descriptor> <bci>     (after a `new` line, zero or more)
//   shared                           (after a `static` or `new` line and its `at` lines: more
//                                     than one thread touched it, one object of it, in a run)
//   checked                          (after `shared`: a race-check run followed its accesses
//                                     with the race detector)
//   raced                            (after `shared`: two of them raced in such a run)
//   end
// Class names use '/' as in class files; <allocated type> is a class name or an array
// descriptor; <superclasses> lists the allocated class's superclasses below java/lang/Object,
// nearest first, joined by ',' ('-' when there are none). The `at` lines of an allocation site
// list the instructions (field or array accesses) that touched its objects in the profile
// runs: only those are instrumented when it is tracked. A `new` line without them leaves every
// access that could touch such an object instrumented.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace jsched::sched {

struct PlanVariable {
  enum Kind : uint8_t { Static, New } kind = Static;
  uint64_t max_accesses = 0;        // k_q
  std::string cls;                  // Static: the field's owner; New: the allocating class
  std::string member;               // Static: the field; New: the allocating method
  std::string method_desc;          // New only
  uint32_t bci = 0;                 // New only
  std::string type;                 // New only: the allocated class or array descriptor
  std::vector<std::string> supers;  // New only
  std::vector<std::string> sites;   // New only: "<class> <method> <desc> <bci>", sorted
  // Two threads touched it in one profile run: the field, or one object allocated here (the
  // threads' accesses may be ordered by a lock or a start; the plan does not say).
  bool shared = false;
  // A race-check profile run (docs/runner.md, "The profile phase") followed the accesses of
  // this shared variable with the race detector; `raced`: it saw two of them unordered.
  bool checked = false, raced = false;
  // Shared, but only ever handed from thread to thread through synchronization in the runs
  // that checked: accesses=shared makes no points of it (the synchronization has them).
  bool handed_over() const { return shared && checked && !raced; }

  // Stable name, as reports show it: "static pkg.C.f", "new pkg.C.m(desc)@bci [D".
  std::string name() const;
  // Stable identity across runs (a hash of the name), the PCTVB strategy's variable id.
  uint64_t id() const;
};

class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct VariablePlan {
  uint32_t runs = 0;
  uint64_t steps = 0;
  uint32_t threads = 0;
  std::vector<uint64_t> thread_events;  // by thread creation index (0: main)
  bool sharing = false;                 // variables' `shared` flags were recorded
  std::vector<PlanVariable> variables;

  // Adds another profile: maxima of every count, a variable shared if it was in either (Bindal et
  // al.'s bound needs an upper bound; docs/references.md).
  void merge(const VariablePlan& other);
  // Whether variable `i`'s allocated type comes from no other allocation site of the plan (so
  // an object's class alone says whether it belongs to the variable).
  bool exclusive_type(size_t i) const;
  // The index of the variable with this id, or -1.
  long find(uint64_t id) const;

  void write(const std::string& path) const;  // throws PlanError
  // Throws PlanError "FILE:LINE: reason".
  static VariablePlan read(const std::string& path);
};

}  // namespace jsched::sched
