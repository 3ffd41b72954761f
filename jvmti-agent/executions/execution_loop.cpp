#include "jvmti-agent/executions/execution_loop.h"

#include <unistd.h>

#include <deque>
#include <utility>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/carried_threads.h"
#include "jvmti-agent/executions/kept_thread_zero.h"
#include "jvmti-agent/executions/one_core.h"
#include "jvmti-agent/hooks/output_oracle.h"
#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

namespace {

using Clock = std::chrono::steady_clock;
uint64_t g_first_seed = 0;   // every driver call starts here (each test method, say)
uint64_t g_first_steps = 0;  // steps= as given

// Executions that are over. A Runtime is deleted once every thread of it is gone and it has
// been retired for a while: threads jsched does not control read the current Runtime without a
// lock (LockSupport.unpark and clock reads in JDK code), and the while is far beyond those
// calls. An execution whose threads are not all gone (one blocked outside jsched's view, say)
// is never deleted.
std::mutex g_retired_mu;
std::deque<std::pair<Runtime*, Clock::time_point>> g_retired;

}  // namespace

void retire(Runtime* rt) {
  std::lock_guard<std::mutex> g(g_retired_mu);
  auto now = Clock::now();
  g_retired.emplace_back(rt, now);
  while (!g_retired.empty() && now - g_retired.front().second > std::chrono::milliseconds(200)) {
    Runtime* old = g_retired.front().first;
    g_retired.pop_front();
    if (old->all_gone()) delete old;
  }
}

DriverHelper& driver_helper() {
  static DriverHelper h;
  return h;
}

void trim_driver_frames(JNIEnv* env, jthrowable e) {
  const DriverHelper& h = driver_helper();
  if (h.cls == nullptr || h.trim == nullptr || e == nullptr) return;
  env->CallStaticVoidMethod(h.cls, h.trim, e);
  env->ExceptionClear();
}

std::mutex& driver_mutex() {
  static std::mutex m;
  return m;
}

void remember_first_options(uint64_t seed, uint64_t steps) {
  g_first_seed = seed;
  g_first_steps = steps;
}

uint64_t initial_seed() {
  return g_first_seed;
}

uint64_t initial_steps() {
  return g_first_steps;
}

// The pending exception as text (cleared).
std::string take_exception(JNIEnv* env) {
  jthrowable e = env->ExceptionOccurred();
  env->ExceptionClear();
  return java_to_string(env, e);
}

Runtime* run_execution(JNIEnv* env, jobject thread, uint64_t i,
                       std::unique_ptr<sched::Strategy> strategy, RunOutcome& outcome,
                       jobject job) {
  AgentState& s = state();
  // A test runner may have replaced System.out since the last execution: this one's lines too.
  if (!watch_output(env)) {
    log_line("error: cannot watch the program's output (bug-output=)");
    _exit(2);
  }
  // A shared executor's worker that a plain run of the test woke parks again first.
  await_plain_carried(std::chrono::milliseconds(200));
  auto* rt = new Runtime(s, s.jvmti, std::move(strategy));
  OneCore::Visit on_its_core(rt->core());
  rt->start_execution(env, static_cast<jthread>(thread), i);
  set_runtime(rt);
  if (job != nullptr) {
    kept_thread_zero::hand(env, job);
  } else {
    env->CallVoidMethod(thread, refs().Thread_start);
  }
  if (env->ExceptionCheck()) {
    log_line("error: cannot start thread 0 of iteration " + std::to_string(i) + ": " +
             take_exception(env));
    _exit(2);
  }
  outcome = rt->end();
  set_runtime(nullptr);
  rt->end_threads(env);
  return rt;
}

}  // namespace jsched::agent
