// The executions of one driver call (the iterations of main, or of one test): each execution a
// Runtime of its own with seed, seed+1, ..., its thread 0 run to its end, the first finding kept,
// progress on long loops. One driver call at a time in the JVM (driver_mutex).
#pragma once

#include <jni.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"
#include "scheduler/core/strategy.h"

namespace jsched::agent {

// java.lang.JSchedMain (thread 0's runnables) and its static helpers (executions.cpp).
struct DriverHelper {
  jclass cls = nullptr;
  jmethodID fresh_loader = nullptr, main_job = nullptr, keepable = nullptr, thread_for = nullptr,
            close = nullptr;
  jmethodID junit4 = nullptr, junit3 = nullptr, jupiter = nullptr, thread = nullptr,
            aborted = nullptr;
  jmethodID run_plainly = nullptr, trim = nullptr;
};
DriverHelper& driver_helper();

// Before `e`, uncaught in the current thread, is read or handed to a handler: thread 0's
// throwable loses the driver's frames below main or the test (JSchedMain.trimIfDriven).
void trim_driver_frames(JNIEnv* env, jthrowable e);

// One execution at a time in the JVM: test methods run in parallel by the test runner take turns.
std::mutex& driver_mutex();

// The seed and PCT steps as given: every driver call starts from them (each test method, say).
void remember_first_options(uint64_t seed, uint64_t steps);

// The pending exception as text (cleared).
std::string take_exception(JNIEnv* env);

// Runs thread 0 `thread` as execution `i` under `strategy`, to its end; the caller retires the
// Runtime. `thread` is not started, or, with a `job`, a kept thread 0 (kept_thread_zero.h)
// that starts the job.
Runtime* run_execution(JNIEnv* env, jobject thread, uint64_t i,
                       std::unique_ptr<sched::Strategy> strategy, RunOutcome& outcome,
                       jobject job = nullptr);

// An execution that is over: deleted once its threads are gone and it has been retired a while.
void retire(Runtime* rt);

uint64_t initial_seed();
uint64_t initial_steps();

// The executions of one driver call: seeds, what they found, progress on long loops.
class ExecutionLoop {
  using Clock = std::chrono::steady_clock;

 public:
  explicit ExecutionLoop(std::string what) : what_(std::move(what)), start_(Clock::now()) {
    base_ = initial_seed();
    const Options& o = state().options;
    count_ = o.iterations;
    learn_steps_ = o.strategy == Strategy::Pct && initial_steps() == 0 && o.plan.empty();
    state().options.steps = initial_steps();  // each loop learns anew (each test method, say)
  }

  uint64_t count() const { return count_; }
  void limit(uint64_t n) { count_ = std::min(count_, n); }

  // Whether run() should wait for each execution's threads to be gone (a reused class loader:
  // a thread left running would use the next execution's statics).
  void await_threads(bool on) { await_threads_ = on; }
  bool threads_gone() const { return threads_gone_; }

  // Runs execution i with thread 0 `thread` (not started, or kept with a `job`: run_execution);
  // false when the loop should stop.
  bool run(JNIEnv* env, jobject thread, uint64_t i, jobject job = nullptr) {
    AgentState& s = state();
    s.options.seed = base_ + i;
    // PCT without steps= or a plan learns k from the executions before (docs/agent.md): the most
    // steps one took. The execution's replay command says the k it ran with.
    if (learn_steps_ && max_steps_ > 0) s.options.steps = max_steps_;
    RunOutcome o = RunOutcome::Ok;
    Runtime* rt = run_execution(env, thread, i, s.new_strategy(), o, job);
    max_steps_ = std::max(max_steps_, rt->ctl().steps());
    // Those it ended unwind through their finally blocks: a moment. Those the JVM holds in a
    // class initialization that waits for them in turn never do. The driver waits on the
    // execution's CPU: woken elsewhere, it would start the next execution there, and move its
    // kept thread 0 across.
    {
      OneCore::Visit on_its_core(rt->core());
      threads_gone_ =
          !await_threads_ || (!(o == RunOutcome::Deadlock && rt->stuck_in_jvm_initialization()) &&
                              rt->await_threads_ended(std::chrono::milliseconds(200)));
    }
    ++done_;
    if (o != RunOutcome::Ok) {
      ++found_;
      if (!first_) {
        first_ = o;
        first_iteration_ = i;
        first_seed_ = rt->seed();
        first_steps_ = s.options.steps;
        first_made_ = rt->ctl().steps();
        // Of the thread that failed: another thread's timeouts (a pool's keep-alive, an
        // evictor's wait) say nothing of where the failure came from.
        const sched::ThreadId failed = rt->bug_thread();
        if (failed != sched::kNoThread) {
          rt->ctl().inspect([&](sched::Model& m) {
            first_step_timeout_ns_ = m.step_timeout_ns(failed);
            first_step_sleep_ns_ = m.step_sleep_ns(failed);
          });
        } else {
          first_step_timeout_ns_ = first_step_sleep_ns_ = 0;
        }
        first_uncaught_ = rt->bug_signature();
        first_detail_ = rt->detail();
        first_replay_ = rt->agent_option();
      }
    }
    retire(rt);
    progress();
    // A test method's executions within their budget (test-budget=).
    if (o == RunOutcome::Ok && s.tests && s.options.test_budget_ms > 0 &&
        Clock::now() - start_ > std::chrono::milliseconds(s.options.test_budget_ms)) {
      out_of_budget_ = i + 1 < count_;
      return false;
    }
    // An error (jsched's own failure, or classes it could not instrument) ends the loop: no
    // later execution can be trusted either.
    return o == RunOutcome::Ok ||
           (s.options.explore && o != RunOutcome::Error && o != RunOutcome::Timeout);
  }

  // "200 iterations in 0.4 s (500 per second), seeds 1..200: no finding"
  std::string summary() const {
    double secs = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string line = what_ + std::to_string(done_) +
                       (out_of_budget_ ? " of " + std::to_string(count_) : std::string()) +
                       (done_ == 1 ? " iteration" : " iterations") + " in " + fixed(secs) + " s (" +
                       fixed(secs > 0 ? done_ / secs : 0) + " per second), seeds " +
                       std::to_string(base_) + ".." +
                       std::to_string(base_ + (done_ ? done_ - 1 : 0)) + ": ";
    if (!first_)
      return line + "no finding" +
             (out_of_budget_
                  ? " (test-budget " + std::to_string(state().options.test_budget_ms) + " ms spent)"
                  : std::string());
    if (*first_ == RunOutcome::Error)
      return line + "an error of jsched's in iteration " + std::to_string(first_iteration_) +
             " (seed " + std::to_string(first_seed_) + "), no verdict";
    if (*first_ == RunOutcome::Timeout)
      return line + "iteration " + std::to_string(first_iteration_) + " (seed " +
             std::to_string(first_seed_) + ") ran out of time still making steps, no verdict";
    return line + std::to_string(found_) + (found_ == 1 ? " finding" : " findings") +
           ", the first a " + outcome_name(*first_) + " in iteration " +
           std::to_string(first_iteration_) + " (seed " + std::to_string(first_seed_) + ")";
  }

  std::optional<RunOutcome> first() const { return first_; }
  uint64_t first_iteration() const { return first_iteration_; }
  uint64_t first_seed() const { return first_seed_; }
  uint64_t first_steps() const { return first_steps_; }  // the PCT k it ran with
  uint64_t first_made() const { return first_made_; }    // the steps it made
  // The longest timeout of its failed thread that steps reached (sched::Model::step_timeout_ns),
  // or 0.
  int64_t first_step_timeout_ns() const { return first_step_timeout_ns_; }
  // The same for its sleeps (sched::Model::step_sleep_ns).
  int64_t first_step_sleep_ns() const { return first_step_sleep_ns_; }
  // The uncaught throwable that was its bug (plain_uncaught.h), or empty.
  const std::string& first_uncaught() const { return first_uncaught_; }
  // Its finding was none after all (plain_uncaught.h): the executions after it go on.
  void forget_first() {
    first_.reset();
    --found_;
  }
  const std::string& first_detail() const { return first_detail_; }
  const std::string& first_replay() const { return first_replay_; }

 private:
  static std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f" : "%.0f", v);
    return buf;
  }

  void progress() {
    auto now = Clock::now();
    if (now - last_progress_ < std::chrono::seconds(10)) return;
    if (last_progress_ == Clock::time_point{}) {  // the first ten seconds are quiet
      last_progress_ = start_;
      if (now - start_ < std::chrono::seconds(10)) return;
    }
    last_progress_ = now;
    log_line(what_ + std::to_string(done_) + " of " + std::to_string(count_) + " iterations, " +
             std::to_string(found_) + (found_ == 1 ? " finding" : " findings"));
  }

  std::string what_;
  uint64_t base_ = 0, count_ = 1, done_ = 0, found_ = 0, max_steps_ = 0;
  bool learn_steps_ = false, await_threads_ = false, threads_gone_ = true;
  bool out_of_budget_ = false;  // test-budget= ended the loop before count_
  Clock::time_point start_, last_progress_{};
  std::optional<RunOutcome> first_;
  uint64_t first_iteration_ = 0, first_seed_ = 0, first_steps_ = 0, first_made_ = 0;
  int64_t first_step_timeout_ns_ = 0, first_step_sleep_ns_ = 0;
  std::string first_detail_, first_replay_, first_uncaught_;
};

}  // namespace jsched::agent
