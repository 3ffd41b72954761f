// Process-wide state of the agent, created in Agent_OnLoad.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "jvmti-agent/executions/profile_recorder.h"
#include "jvmti-agent/executions/variable_tracker.h"
#include "jvmti-agent/hooks/statements.h"
#include "jvmti-agent/instrumentation/class_cache.h"
#include "jvmti-agent/instrumentation/class_filter.h"
#include "jvmti-agent/instrumentation/class_outcomes.h"
#include "jvmti-agent/instrumentation/field_filter.h"
#include "jvmti-agent/instrumentation/instrumented_classes.h"
#include "jvmti-agent/instrumentation/shared_accesses.h"
#include "jvmti-agent/instrumentation/site_registry.h"
#include "jvmti-agent/model/outside_threads.h"
#include "jvmti-agent/model/virtual_clock.h"
#include "jvmti-agent/options.h"
#include "rewriter/config.h"
#include "scheduler/core/strategy.h"
#include "scheduler/hapset/hapset.h"
#include "scheduler/pct/variable_plan.h"
#include "scheduler/replay/schedule_log.h"
#include "scheduler/strategy_registry.h"
#include "scheduler/tsca/tsca_plan.h"
#include "scheduler/tsca/tsca_planner.h"
#include "scheduler/tsca/tsca_strategy.h"

namespace jsched::agent {

struct AgentState {
  Options options;
  ClassFilter filter;
  SiteRegistry sites;
  rw::RewriteConfig rewrite;
  JavaVM* vm = nullptr;
  jvmtiEnv* jvmti = nullptr;
  // JDK mode: JDK classes are instrumented, the hooks live in java.lang.Thread (added as it
  // loads) and classes are seen from the very first one.
  bool jdk_mode = false;
  // A strategy controls the run (everything but strategy=none).
  bool controlled = false;
  // Field and array accesses are scheduling points (they may be instrumented for profiling
  // or tracking only).
  bool access_points = false;
  sched::VariablePlan plan;  // plan=, when given (pct, pctvb)
  // tsca: the plan's schedule, and what is known and covered (the plan's, else nothing).
  std::vector<sched::ThreadId> tsca_schedule;
  std::unique_ptr<sched::TscaPlanner> tsca_planner;
  sched::TscaStrategy* tsca = nullptr;       // the run's strategy under tsca
  sched::ReplayStrategy* replay = nullptr;   // the run's strategy under replay
  std::unique_ptr<ProfileRecorder> profile;  // profile=
  std::unique_ptr<VariableTracker> tracker;  // PCTVB
  FieldFilter field_filter;                  // accesses=volatile
  // The run's accesses (accesses=shared without a plan that says what is shared: all).
  rw::Accesses accesses = rw::Accesses::Volatile;
  std::unique_ptr<SharedAccesses> shared;  // accesses=shared
  // A race-check profile run (profile= under accesses=shared with a plan that records sharing):
  // the plan's shared accesses are followed by the race detector, and are no points.
  bool race_check = false;
  VariableTracker::ChangePoint change_point;  // PCTVB: lowers a thread's priority
  jvmtiEnv* tag_env = nullptr;                // tags for variables (profile, tracking)
  // Threads the program started from outside every execution (outside_threads.h).
  OutsideThreads outside;
  // Set once the hooks' class exists and classes may be rewritten to call it.
  std::atomic<bool> hooks_ready{false};
  std::atomic<bool> live{false};      // VM init is done: Java code may run from class loading
  jobject platform_loader = nullptr;  // global ref, known from VM start on
  // HaPSet coverage: the pairs passing executions of this JVM (and the plan) have
  // shown; `statements` names scheduling points (null with hapset=off or strategy=none).
  sched::HapsetLearner hapset;
  std::unique_ptr<Statements> statements;

  // Several executions in this JVM (jvmti-agent/executions/executions.h): iterations of main, whose
  // class the launcher loads is `main_class` (internal name; diverted when the system loader
  // defines it), or test methods.
  std::string main_class;
  bool tests = false;
  // Test methods run as executions: none at the JVM's end means its tests (if any ran) belong to
  // a framework jsched does not divert and were not checked, which the user must be told.
  std::atomic<uint64_t> tests_run{0};
  // The virtual time of a step (kStepTimeNs), but for the check that a failure after a timeout
  // the steps reached still comes with far cheaper steps (test_executions.cpp).
  int64_t step_time_ns = kStepTimeNs;
  jobject system_loader = nullptr;  // global ref, from VM init on
  // Iterations of main share the launcher's copy of the program (the system class loader's),
  // its main class diverted with its body kept (main_diversion.h: divert_shared_main).
  bool shared_main = false;
  std::unique_ptr<ClassCache> cache;
  // A fresh strategy for the seed in `options`.
  std::function<std::unique_ptr<sched::Strategy>()> new_strategy;
  // A test's finding is being minimized (jvmti-agent/executions/test_minimizer.h): the candidate
  // executions say nothing on stderr.
  bool minimizing = false;

  std::atomic<uint64_t> classes_rewritten{0}, classes_failed{0}, warnings{0};
  // CPU time the class-loading threads spent rewriting (verbose: where a heavy program's start
  // goes).
  std::atomic<uint64_t> rewrite_cpu_ns{0};
  ClassOutcomes classes;
  InstrumentedClasses instrumented;  // accesses=shared: what a final reference can reach

  AgentState(Options o, ClassFilter f) : options(std::move(o)), filter(std::move(f)) {}
};

// Whether this JVM runs several executions (iterations of main, or test methods).
inline bool several_executions(const AgentState& s) {
  return s.controlled && (s.tests || !s.main_class.empty());
}

AgentState& state();

// What a strategy's factory (scheduler/strategy_registry.h) gets for options `o` and a plan.
sched::StrategyArgs strategy_args(const Options& o, const sched::VariablePlan& plan);
// ... for the current options and plan.
sched::StrategyArgs registered_args(const AgentState& s);
// Under a registered strategy that delegates (portfolio): the agent options of the strategy
// that runs this seed ("strategy=pct,depth=2,steps=40"); "" otherwise.
std::string member_options(const AgentState& s);
void set_state(std::unique_ptr<AgentState> s);

// One line on stderr, prefixed "jsched: " (after the lines log_line_soon holds).
void log_line(const std::string& s);
// The same, written with others in one go within 100 ms, at the next log_line, or at
// flush_log_lines: the one-line mention of a finding of a kind printed before, thousands of
// times in a run whose executions all find the same bug, costs no write each.
void log_line_soon(const std::string& s);
void flush_log_lines();

}  // namespace jsched::agent
