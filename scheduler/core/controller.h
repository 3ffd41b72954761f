// Runs real threads under the model, one at a time: the thread at a scheduling point asks the
// model for the next step, hands control straight to the chosen thread and parks on its own
// futex. JVM-independent: the agent calls it from hooks and JVMTI events.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "scheduler/core/model.h"
#include "scheduler/core/parker.h"
#include "scheduler/replay/schedule_log.h"

namespace jsched::sched {

class Controller {
 public:
  // Called, without the lock held, by the thread that finds no thread enabled while threads
  // that are not daemons are still alive. It is expected not to return (the run ends).
  using DeadlockHandler = std::function<void()>;
  // Called when the strategy cannot continue (a replay diverged); expected not to return.
  using ErrorHandler = std::function<void(const std::string&)>;
  // Called, without the lock held, by the thread whose end leaves no thread alive but daemons.
  using DoneHandler = std::function<void()>;

  // `record` (optional) receives every decision.
  Controller(std::unique_ptr<Strategy> strategy, ScheduleLog* record);

  void on_deadlock(DeadlockHandler h) { deadlock_ = std::move(h); }
  // A deadlock the model sees is then only suspected: a thread jsched does not see that has
  // just been started may wake a waiter first. It is reported at once if `certain()` (called
  // without the lock) says no such start is in flight, else when confirm_deadlock() finds it
  // still holds (the agent's watchdog, a moment later).
  void confirm_deadlocks_later(std::function<bool()> certain) {
    confirm_later_ = true;
    certain_ = std::move(certain);
  }
  bool deadlock_suspected();
  void confirm_deadlock();
  void on_error(ErrorHandler h) { error_ = std::move(h); }
  // With a done handler (several executions in one process), the execution is over when its
  // last thread that is not a daemon ends: the controller freezes then, so its daemons never
  // run again, as a JVM exit would stop them.
  void on_done(DoneHandler h) { done_ = std::move(h); }
  // A test's execution is over when thread 0 (the test, with its set-up and tear-down) ends:
  // threads it leaves behind end with it, as threads a test leaves do not fail it.
  void end_with_thread_zero(bool on) { end_with_zero_ = on; }
  // HaPSet statements: `where` names the calling thread's current statement (site and calling
  // context). The arriving thread calls it, before taking the lock, for operations that are
  // HaPSet events; the model feeds them to `learner`.
  // Set before any thread runs.
  using StatementFn = std::function<uint64_t()>;
  void learn_hapsets(HapsetLearner* learner, StatementFn where) {
    model_.learn_hapsets(learner);
    where_ = std::move(where);
  }

  // Spurious wake-ups with probability `p` per step (Model::set_spurious). Before any thread runs.
  void set_spurious(double p, uint64_t seed) { model_.set_spurious(p, seed); }
  // Calls `h` (without the lock, expected not to return) instead of taking step `steps` + 1: a
  // run that hangs stops at a step, and its replay stops at the same one.
  void stop_at(uint64_t steps, DoneHandler h) {
    std::lock_guard<std::mutex> g(mu_);
    stop_steps_ = steps;
    stop_ = std::move(h);
  }
  // Virtual time (Model::set_time). Before any thread runs.
  void set_time(int64_t step_ns, bool early) { model_.set_time(step_ns, early); }
  // The model's virtual time (ns since the execution began) as of the last step: the running
  // thread reads it without the lock.
  int64_t now() const { return now_.load(std::memory_order_relaxed); }
  // Threads outside the model that may still act (Model::set_outside). Before any thread runs.
  void set_outside(std::function<bool()> may_act) { model_.set_outside(std::move(may_act)); }
  // No thread runs (all wait, or are out of the model's sight), in an execution not over.
  bool idle();
  // Held for I/O (Model::held_for_io): whether it still is, after trying once more whether a
  // descriptor has become ready (a thread then runs).
  bool retry_io();
  // Outside threads have had their chance: time moves on to the next deadline, or a deadlock
  // is suspected if none may act any more (the watchdog, every moment the execution is idle).
  void release_outside();
  // How IoWait operations learn whether a descriptor is ready, and whether something is on its
  // way to it (Model::set_io_ready). Before any thread runs.
  void set_io_ready(Model::IoReady f, Model::IoReady in_flight = nullptr) {
    model_.set_io_ready(f, in_flight);
  }

  // The calling thread becomes thread 0 and runs.
  ThreadId attach_main();
  // Before the real Thread.start: the model gets the child (pending its first step).
  ThreadId spawn(ThreadId parent, bool daemon);
  // After the real start: records it, then a scheduling point for the parent.
  void started(ThreadId self, ThreadId child);
  // In the new thread, before it runs any code: waits for its first turn.
  void begin(ThreadId self);
  // A scheduling point before `op`; returns once `op` has been performed in the model.
  Outcome point(ThreadId self, const Op& op);
  // After a real monitor exit: the release, then a scheduling point.
  void release(ThreadId self, ObjectId monitor, int32_t site);
  // Object.wait: releases the monitor, waits until woken and the monitor is reacquired (timed:
  // or until virtual time `deadline`, Outcome::Timeout).
  Outcome wait(ThreadId self, ObjectId monitor, bool timed, int64_t deadline, int32_t site);
  // LockSupport.park: a scheduling point that returns once the thread has its permit, is
  // interrupted, or (timed) time runs out at `deadline` (Outcome::Timeout; see Model).
  Outcome park(ThreadId self, bool timed, int64_t deadline, int32_t site);
  // Blocking I/O on `fd` (a socket or an epoll set) for poll `events`: a scheduling point that
  // returns once the descriptor is ready, or (timed) with Outcome::Timeout at `deadline` when no
  // thread can run otherwise.
  Outcome io_wait(ThreadId self, int fd, uint32_t events, bool timed, int64_t deadline,
                  int32_t site);
  // LockSupport.unpark(target) by `self` (kNoThread: a thread jsched does not control; if no
  // controlled thread is running, the next one is chosen).
  void unpark(ThreadId self, ThreadId target);
  // The thread ends; control passes on and the thread is no longer scheduled.
  void end(ThreadId self);
  // The running thread blocks where the model cannot see: another thread may run. It comes
  // back at its next scheduling point.
  void detach(ThreadId self);
  // A detached thread is back (its hidden block is over): it waits for a turn. No-op for a
  // thread that is not detached.
  void rejoin(ThreadId self);
  // Detaches `t` if it is still running and no step has happened since `steps`.
  bool detach_if_stuck(ThreadId t, uint64_t steps);

  bool interrupted(ThreadId t, bool clear);
  // An interrupt the model did not see (from code jsched does not control).
  void mark_interrupted(ThreadId t);
  // Thread.suspend()/resume(): a suspended thread takes no step.
  void suspend(ThreadId t, bool on);

  // Ends the run: every parked thread wakes with Outcome::Aborted, and every later call
  // returns it at once (callers stop doing work).
  void abort();
  bool aborted();
  // Ends the execution for good: no thread is chosen any more, so every thread that reaches a
  // scheduling point stays parked there (the process goes on with another execution).
  void freeze();

  // Observation, for watchdogs and reports (under the lock).
  ThreadId running();
  uint64_t steps();
  // A plain access of thread `self` while it holds a monitor (accesses=shared): no scheduling
  // point, only seen by the race detector (true). Otherwise false: the caller makes it a point.
  bool observe_if_locked(ThreadId self, const Op& op);
  // An access of the running thread `self` that only the race detector sees (race-check
  // profile runs): no scheduling point.
  void observe(ThreadId self, const Op& op);
  // No thread but the first has been started. Until one is, a plain access has nothing to
  // interleave with and nothing to race with (every thread started later is ordered after it by
  // its start): the agent makes no point of it. Read without the lock: only the first thread
  // starts the second, and reads its own write.
  bool alone() const { return !spawned_.load(std::memory_order_relaxed); }
  template <class F>
  auto inspect(F&& f) {
    std::lock_guard<std::mutex> g(mu_);
    return f(model_);
  }
  // Runs f under the lock (to change the strategy's state between scheduling points).
  template <class F>
  void locked(F&& f) {
    std::lock_guard<std::mutex> g(mu_);
    f();
  }

 private:
  // The controller's lock. A thread chosen while it is held gets its permit at once and is woken
  // once the lock is released: woken earlier, on one core it would pre-empt the thread that
  // chose it only to wait for the lock (three context switches per handoff instead of one).
  class Lock {
   public:
    explicit Lock(Controller& c) : c_(c), lk_(c.mu_) {}
    ~Lock() { unlock(); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    void lock() { lk_.lock(); }
    void unlock() {
      if (!lk_.owns_lock()) return;
      Parker* next = std::exchange(c_.handoff_, nullptr);
      lk_.unlock();
      if (next) next->wake();
    }

   private:
    Controller& c_;
    std::unique_lock<std::mutex> lk_;
  };

  // Chooses the next thread and hands control to it (as `lk` is released). Returns true if
  // `self` continues.
  bool dispatch(Lock& lk, ThreadId self);
  // Parks `self` until it is chosen, then returns its outcome.
  Outcome park_until_chosen(Lock& lk, ThreadId self);
  Parker& parker(ThreadId t);
  bool user_threads_alive() const;     // any thread that is not a daemon and has not ended
  uint64_t where(const Op& op) const;  // 0 when not asked for

  // The model sees a deadlock: suspected, or reported now (with `lk` released meanwhile).
  void deadlock_seen(Lock& lk);
  // A suspected deadlock nothing has moved since: no thread chosen, the execution not over.
  bool still_suspected() const {
    return deadlock_suspected_ && running_ == kNoThread && !aborted_ && !frozen_;
  }

  bool confirm_later_ = false;
  std::function<bool()> certain_;
  bool deadlock_suspected_ = false;
  std::unique_ptr<Strategy> base_;
  std::unique_ptr<Strategy> recording_;
  Strategy* strategy_;
  std::mutex mu_;
  Model model_;
  std::deque<Parker> parkers_;  // by thread id; stable addresses
  std::deque<bool> daemon_;
  std::atomic<bool> spawned_{false};
  ThreadId running_ = kNoThread;
  Parker* handoff_ = nullptr;  // chosen, given its permit, to be woken when the lock is released
  // The last dispatch passed over this thread, its caller, for one of a few others that could go.
  ThreadId yield_for_ = kNoThread;
  static constexpr int kYieldsBeforeSleep = 16;
  bool aborted_ = false;
  bool frozen_ = false;
  DeadlockHandler deadlock_;
  ErrorHandler error_;
  DoneHandler done_;
  uint64_t stop_steps_ = 0;
  DoneHandler stop_;
  StatementFn where_;
  std::atomic<int64_t> now_{0};
  bool end_with_zero_ = false;
};

}  // namespace jsched::sched
