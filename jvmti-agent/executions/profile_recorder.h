// Profile runs (agent option `profile=FILE`, docs/agent.md "Plan files"): count, per variable, the
// accesses of one execution, and write them as a plan (scheduler/pct/variable_plan.h) for the
// runner to merge. Variables are static fields and allocation sites.
// Application classes count in Java (java-shim: JSchedVariables, an identity table from objects to
// their allocation sites and a count per instruction and variable, read once at the end): as an
// AccessFilter this class turns every access that is no scheduling point into a Java-only
// counting hook. In JDK mode (no JSchedVariables) every access calls the agent, and an object's
// allocation site is its tag in a JVMTI environment of its own, so object names (the main
// environment's tags) stay as they are.
// A variable is `shared` (accesses=shared makes its accesses points) when two threads touched
// one of its objects (Java), the variable's objects at all (JDK mode), or its static field.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "jvmti-agent/instrumentation/site_registry.h"
#include "jvmti-agent/spin_lock.h"
#include "scheduler/pct/variable_plan.h"

namespace jsched::agent {

class ProfileRecorder : public rw::AccessFilter {
 public:
  explicit ProfileRecorder(jvmtiEnv* tags) : tags_(tags) {}

  // Counting in Java from now on: accesses `sites` says are no points get the counting hook,
  // but those `never_race` says cannot race (a final number's read, a static initializer's
  // access): no scheduling point and no race is ever made of them, and at every read of a
  // final field the hook was much of a profile run's cost.
  void count_in_java(const SiteRegistry* sites,
                     std::function<bool(const rw::SiteInfo&)> never_race = nullptr) {
    sites_ = sites;
    never_race_ = std::move(never_race);
  }
  rw::AccessDecision decide(const rw::SiteInfo& site) const override;

  // An access by controlled thread `t`: `o` is null for static fields (JDK mode).
  void access(JNIEnv* env, jobject o, const Site& site, uint32_t t);
  // An object allocated at an instrumented site.
  void allocated(JNIEnv* env, jobject o, const Site& site);
  // Adds what Java counted (JSchedVariables.counts()); false if it could not be read.
  bool add_java_counts(JNIEnv* env);
  // Adds which variables Java saw touched by more than one thread (JSchedVariables.sharing()).
  bool add_java_sharing(JNIEnv* env);

  // The execution's profile, with its step and thread counts.
  // `thread_events`: the events each thread executed, by creation index.
  sched::VariablePlan profile(uint64_t steps, uint32_t threads,
                              std::vector<uint64_t> thread_events = {});

 private:
  size_t variable(const sched::PlanVariable& v);
  std::vector<std::string> superclasses(JNIEnv* env, jobject o);

  void count(size_t var, const Site& site, uint64_t n);
  void touched_by(size_t var, uint64_t thread_bits);

  jvmtiEnv* tags_;
  const SiteRegistry* sites_ = nullptr;  // counting in Java
  std::function<bool(const rw::SiteInfo&)> never_race_;
  SpinLock mu_;
  std::vector<sched::PlanVariable> vars_;
  std::map<std::string, size_t> index_;                   // by name
  std::unordered_map<const Site*, size_t> by_site_;       // cache
  std::vector<std::unordered_set<const Site*>> touched_;  // per variable: the accesses there
  std::vector<uint64_t> threads_;    // per variable: the threads seen, a bit per thread (mod 64)
  const Site* last_site_ = nullptr;  // the last (site, variable) recorded there
  size_t last_var_ = 0;
};

}  // namespace jsched::agent
