// Profile runs (agent option `profile=FILE`, docs/agent.md "Plan files"): count, per variable, the
// accesses of one execution, and write them as a plan (scheduler/pct/variable_plan.h) for the
// runner to merge. Variables are static fields and allocation sites; an object's allocation site is
// its tag in a JVMTI environment of its own, so object names (the main environment's tags) stay as
// they are.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "jvmti-agent/site_registry.h"
#include "jvmti-agent/spin_lock.h"
#include "scheduler/pct/variable_plan.h"

namespace jsched::agent {

class ProfileRecorder {
 public:
  explicit ProfileRecorder(jvmtiEnv* tags) : tags_(tags) {}

  // An access by a controlled thread: `o` is null for static fields.
  void access(JNIEnv* env, jobject o, const Site& site);
  // An object allocated at an instrumented site.
  void allocated(JNIEnv* env, jobject o, const Site& site);

  // The execution's profile, with its step and thread counts.
  // `thread_events`: the events each thread executed, by creation index.
  sched::VariablePlan profile(uint64_t steps, uint32_t threads,
                              std::vector<uint64_t> thread_events = {});

 private:
  size_t variable(const sched::PlanVariable& v);
  std::vector<std::string> superclasses(JNIEnv* env, jobject o);

  jvmtiEnv* tags_;
  SpinLock mu_;
  std::vector<sched::PlanVariable> vars_;
  std::map<std::string, size_t> index_;                   // by name
  std::unordered_map<const Site*, size_t> by_site_;       // cache
  std::vector<std::unordered_set<const Site*>> touched_;  // per variable: the accesses there
  const Site* last_site_ = nullptr;  // the last (site, variable) recorded there
  size_t last_var_ = 0;
};

}  // namespace jsched::agent
