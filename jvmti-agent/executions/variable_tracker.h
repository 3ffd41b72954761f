// PCTVB runs (docs/strategies.md, pctvb; Bindal et al. §3, docs/references.md): the variables this
// run tracks and their change points. It tells the rewriter which instructions may touch a tracked
// variable (only those get a hook), sets up the Java side that counts accesses (java-shim:
// JSchedShim.tracked*), and handles what Java hands over: a change point, or the switch after one.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <functional>
#include <string>
#include <vector>

#include "rewriter/config.h"
#include "scheduler/core/op.h"
#include "scheduler/pct/pct_strategy.h"
#include "scheduler/pct/variable_plan.h"

namespace jsched::agent {

class VariableTracker : public rw::AccessFilter {
 public:
  // Applies change point i to thread t (under the controller's lock); a no-op in replay.
  using ChangePoint = std::function<void(sched::ThreadId t, uint32_t i)>;

  // Tracks the variables `pct` chose from `plan`.
  VariableTracker(const sched::VariablePlan& plan, const sched::PctStrategy& pct);

  rw::AccessDecision decide(const rw::SiteInfo& site) const override;
  // What decides an access that touches no tracked variable (which fields are points under
  // the run's `accesses`); without one, the rewriter's default.
  void set_untracked(const rw::AccessFilter* f) { untracked_ = f; }

  // Sets up the Java side: the counters in java.lang.JSchedVariables, the membership arrays in
  // class `owner` (the shim, or Thread in JDK mode).
  bool init_java(JNIEnv* env, jclass owner);

  struct Handover {
    bool switch_now = false;    // a change point happened before: schedule now
    bool change_point = false;  // this access is change point `index`
    uint32_t index = 0;
  };
  // Java found a change point or a pending switch at an access to `slot`. Advances the slot's
  // next change point before anything else can run.
  Handover handover(JNIEnv* env, int32_t slot);
  // After a change point: the thread switches at its next tracked access.
  void request_switch(JNIEnv* env);

  // The tracked variables' names, by slot (reports).
  std::vector<std::string> names() const;
  // The accesses Java counted so far, by slot (reports); empty if they cannot be read.
  std::vector<uint64_t> counts(JNIEnv* env) const;

 private:
  struct Slot {
    sched::PlanVariable var;
    bool exclusive = false;
    std::vector<std::pair<uint64_t, uint32_t>> points;  // (access number, change point), by access
  };
  int32_t mask_of(const std::function<bool(const Slot&)>& match) const;
  rw::AccessDecision decide_tracked(const rw::SiteInfo& site) const;  // Default: untracked

  std::vector<Slot> slots_;
  const rw::AccessFilter* untracked_ = nullptr;
  jclass counters_ = nullptr;  // java.lang.JSchedVariables (global reference)
  bool ask_ = false;  // more slots than a mask holds: masks are 0 (any), membership by table
};

}  // namespace jsched::agent
