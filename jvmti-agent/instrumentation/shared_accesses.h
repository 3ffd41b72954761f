// accesses=shared: the plain field and array accesses the profile runs saw touch a variable of
// more than one thread become scheduling points, on top of the volatile ones. A race on a plain
// field needs a thread switch at one of its accesses, and the fields no second thread touches
// (most of a program's: builders, locals' objects, per-thread state) cost nothing.
// A variable is a static field or an allocation site (scheduler/pct/variable_plan.h). The
// check is per object, not ordered by locks or starts: a field written before a thread starts
// and read after counts too. One point too many costs time; one too few could hide a bug.
// A shared variable whose accesses the profile's race-check runs followed, and found every pair
// of two threads ordered by synchronization (a buffer one thread fills and hands to another
// through a lock or a queue, an object guarded by one lock), gets no points: a thread switch at
// one of its accesses could reorder it against nothing another thread does between the
// synchronization points around it, which are points already. One that raced there keeps them.
// Its reads that load an object stay points, as a final reference's do (below): what they reach
// may be code without points (a synchronized map's), whose races the checks could not see.
// Reads of final fields are instrumented too when they load a reference (see decide); the
// access hook makes no point of one once what it reaches is known to be instrumented whole
// (instrumented_classes.h).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rewriter/config.h"
#include "scheduler/pct/variable_plan.h"

namespace jsched::agent {

class SharedAccesses : public rw::AccessFilter {
 public:
  // Whether field `name` as class `owner` sees it is final (its reads then cannot race).
  using IsFinal = std::function<bool(const std::string& owner, const std::string& name)>;

  // `plan` must have recorded sharing (plan.sharing). Accesses it does not name go to `other`.
  SharedAccesses(const sched::VariablePlan& plan, const rw::AccessFilter& other, IsFinal is_final);

  rw::AccessDecision decide(const rw::SiteInfo& site) const override;

  // How many variables' accesses are points (reports, tests).
  size_t shared_variables() const { return raced_.statics.size() + raced_.objects.size(); }
  // A read of an object that is a point only as the way into what it reaches (a variable only
  // handed over): no longer one once that is found instrumented whole (instrumented_classes.h).
  bool reaches_only(const rw::SiteInfo& s) const;

 private:
  struct Variables {
    void add(const sched::PlanVariable& v);
    bool touch(const rw::SiteInfo& s) const;
    std::set<std::pair<std::string, std::string>> statics;  // (owner, field)
    std::vector<sched::PlanVariable> objects;               // allocation sites
    std::set<std::string> sites;  // "<class> <method> <desc> <bci>" of their `at` lines
  };

  const rw::AccessFilter& other_;
  IsFinal is_final_;
  Variables raced_;   // shared, and raced in a race check or never checked
  Variables handed_;  // shared, only ever handed over in the race checks
};

}  // namespace jsched::agent
