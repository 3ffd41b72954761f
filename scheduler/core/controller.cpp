#include "scheduler/core/controller.h"

namespace jsched::sched {

namespace {
Strategy& pick(std::unique_ptr<Strategy>& base, std::unique_ptr<Strategy>& rec, ScheduleLog* log) {
  if (log) rec = std::make_unique<RecordingStrategy>(*base, *log);
  return log ? *rec : *base;
}
}  // namespace

Controller::Controller(std::unique_ptr<Strategy> strategy, ScheduleLog* record)
    : base_(std::move(strategy)), strategy_(&pick(base_, recording_, record)), model_(*strategy_) {}

Parker& Controller::parker(ThreadId t) {
  return parkers_.at(t);
}

ThreadId Controller::attach_main() {
  std::lock_guard<std::mutex> g(mu_);
  ThreadId t = model_.add_main();
  parkers_.emplace_back();
  daemon_.push_back(false);
  running_ = t;
  return t;
}

ThreadId Controller::spawn(ThreadId parent, bool daemon) {
  std::lock_guard<std::mutex> g(mu_);
  ThreadId t = model_.spawn(parent);
  spawned_.store(true, std::memory_order_relaxed);
  parkers_.emplace_back();
  daemon_.push_back(daemon);
  return t;
}

bool Controller::user_threads_alive() const {
  for (size_t t = 0; t < model_.thread_count(); ++t) {
    if (model_.thread(ThreadId(t)).status != ThreadState::Dead && !daemon_[t]) return true;
  }
  return false;
}

bool Controller::dispatch(Lock& lk, ThreadId self) {
  yield_for_ = kNoThread;
  if (aborted_) return false;
  if (frozen_) {
    running_ = kNoThread;
    return false;
  }
  if (stop_ && model_.steps() >= stop_steps_) {
    running_ = kNoThread;
    frozen_ = true;
    // A copy: the watchdog may call stop_at again while this one runs (it sees no more steps),
    // and replacing stop_ under a running call destroyed the handler it was running (a crash
    // of the program's JVM in a hang's replay).
    const DoneHandler stop = stop_;
    lk.unlock();
    stop();
    lk.lock();
    return false;
  }
  std::optional<ThreadId> next;
  try {
    next = model_.step();
  } catch (const std::exception& e) {
    lk.unlock();
    if (error_) error_(e.what());
    lk.lock();
    return true;
  }
  if (!next) {
    running_ = kNoThread;
    if (model_.deadlocked() && user_threads_alive() && deadlock_) deadlock_seen(lk);
    return false;
  }
  deadlock_suspected_ = false;
  running_ = *next;
  now_.store(model_.now(), std::memory_order_relaxed);
  if (*next == self) return true;
  if (parker(*next).give()) handoff_ = &parker(*next);
  if (self != kNoThread && model_.chose_among_few(self)) yield_for_ = self;
  return false;
}

Outcome Controller::park_until_chosen(Lock& lk, ThreadId self) {
  Parker& p = parker(self);
  // Passed over for one of a few others that could go: on this CPU (one_core.h) a yield runs
  // another (the chosen one, or a waiter that yields on in turn), and turns taken among the few
  // then cost no futex calls.
  const int yields = std::exchange(yield_for_, kNoThread) == self ? kYieldsBeforeSleep : 0;
  lk.unlock();
  p.park(yields);
  lk.lock();
  return aborted_ ? Outcome::Aborted : model_.outcome(self);
}

void Controller::abort() {
  std::lock_guard<std::mutex> g(mu_);
  aborted_ = true;
  running_ = kNoThread;
  for (Parker& p : parkers_) p.unpark();
}

void Controller::freeze() {
  std::lock_guard<std::mutex> g(mu_);
  frozen_ = true;
  running_ = kNoThread;
}

bool Controller::aborted() {
  std::lock_guard<std::mutex> g(mu_);
  return aborted_;
}

void Controller::begin(ThreadId self) {
  Lock lk(*this);
  if (aborted_) return;
  // Nobody runs (everyone else blocked or gone while this thread was being created): decide
  // here. Otherwise wait for the permit, which is already there if the thread was chosen
  // before it got this far; every choice of another thread hands exactly one permit.
  if (running_ == kNoThread && dispatch(lk, self)) return;
  park_until_chosen(lk, self);
}

uint64_t Controller::where(const Op& op) const {
  uint64_t key;
  HapAccess access;
  return where_ && hap_event_of(op, key, access) ? where_() : 0;
}

Outcome Controller::point(ThreadId self, const Op& op) {
  Op o = op;
  o.where = where(op);
  Lock lk(*this);
  if (aborted_) return Outcome::Aborted;
  model_.arrive(self, o);
  if (running_ == self || running_ == kNoThread) {
    if (dispatch(lk, self)) return model_.outcome(self);
  }
  // Either another thread was chosen, or this thread came back from being detached while
  // another runs: wait for a turn.
  return park_until_chosen(lk, self);
}

void Controller::started(ThreadId self, ThreadId child) {
  {
    std::lock_guard<std::mutex> g(mu_);
    model_.started(self, child);
  }
  point(self, Op::of(OpKind::Continue));
}

void Controller::release(ThreadId self, ObjectId monitor, int32_t site) {
  Lock lk(*this);
  if (aborted_) return;
  model_.release(self, monitor);
  Op cont = Op::of(OpKind::Continue);
  cont.site = site;
  model_.arrive(self, cont);
  if (running_ == self || running_ == kNoThread) {
    if (dispatch(lk, self)) return;
  }
  park_until_chosen(lk, self);
}

Outcome Controller::wait(ThreadId self, ObjectId monitor, bool timed, int64_t deadline,
                         int32_t site) {
  uint64_t w = where(Op::monitor(OpKind::Wait, monitor));
  Lock lk(*this);
  if (aborted_) return Outcome::Aborted;
  if (!model_.wait(self, monitor, timed, site, w, deadline)) return model_.outcome(self);
  if (running_ == self || running_ == kNoThread) {
    if (dispatch(lk, self)) return model_.outcome(self);
  }
  return park_until_chosen(lk, self);
}

Outcome Controller::park(ThreadId self, bool timed, int64_t deadline, int32_t site) {
  Op op = Op::of(OpKind::Park);
  op.timed = timed;
  op.slot = deadline;
  op.site = site;
  return point(self, op);
}

Outcome Controller::io_wait(ThreadId self, int fd, uint32_t events, bool timed, int64_t deadline,
                            int32_t site) {
  Op op = Op::of(OpKind::IoWait);
  op.obj = ObjectId(fd);
  op.var = events;
  op.timed = timed;
  op.slot = deadline;
  op.site = site;
  return point(self, op);
}

void Controller::unpark(ThreadId self, ThreadId target) {
  Lock lk(*this);
  if (aborted_) return;
  model_.unpark(self, target);
  if (self == kNoThread && running_ == kNoThread) dispatch(lk, kNoThread);
}

bool Controller::deadlock_suspected() {
  std::lock_guard<std::mutex> g(mu_);
  return deadlock_suspected_;
}

void Controller::deadlock_seen(Lock& lk) {
  if (confirm_later_) {
    deadlock_suspected_ = true;
    if (!certain_) return;
    lk.unlock();
    const bool certain = certain_();
    lk.lock();
    // Unless something moved meanwhile (an outside thread's unpark), which the watchdog sorts out.
    // Daemons alone left waiting is the watchdog's to sort out too (time may jump).
    if (!certain || !still_suspected() || !model_.deadlocked() || !user_threads_alive()) return;
    deadlock_suspected_ = false;
  }
  lk.unlock();
  deadlock_();
  lk.lock();
}

void Controller::confirm_deadlock() {
  Lock lk(*this);
  if (!still_suspected()) return;
  deadlock_suspected_ = false;
  if (!model_.deadlocked() || !user_threads_alive()) {
    dispatch(lk, kNoThread);  // something can go on after all, or may: time jumps, say
    return;
  }
  lk.unlock();
  deadlock_();
}

bool Controller::idle() {
  std::lock_guard<std::mutex> g(mu_);
  return running_ == kNoThread && !frozen_ && !aborted_ && model_.any_alive();
}

bool Controller::retry_io() {
  Lock lk(*this);
  if (running_ != kNoThread || frozen_ || aborted_ || !model_.held_for_io()) return false;
  dispatch(lk, kNoThread);
  return model_.held_for_io();
}

void Controller::release_outside() {
  Lock lk(*this);
  if (running_ != kNoThread || frozen_ || aborted_) return;
  model_.release_outside();
  dispatch(lk, kNoThread);
}

void Controller::end(ThreadId self) {
  Lock lk(*this);
  model_.end(self);
  if (done_ && !frozen_) {
    if (end_with_zero_ ? self == 0 : !user_threads_alive()) {
      frozen_ = true;
      running_ = kNoThread;
      lk.unlock();
      done_();
      return;
    }
  }
  if (running_ == self || running_ == kNoThread) {
    running_ = kNoThread;
    dispatch(lk, kNoThread);
  }
}

void Controller::detach(ThreadId self) {
  Lock lk(*this);
  if (running_ != self) return;
  model_.detach(self);
  running_ = kNoThread;
  dispatch(lk, kNoThread);
}

void Controller::rejoin(ThreadId self) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (model_.thread(self).status != ThreadState::Detached) return;
  }
  point(self, Op::of(OpKind::Continue));
}

bool Controller::detach_if_stuck(ThreadId t, uint64_t steps) {
  Lock lk(*this);
  // A thread chosen but not yet woken (its chooser was pre-empted before the wake-up call) is
  // asleep in the kernel without being stuck.
  if (running_ != t || model_.steps() != steps || parker(t).pending()) return false;
  model_.detach(t);
  running_ = kNoThread;
  dispatch(lk, kNoThread);
  return true;
}

bool Controller::interrupted(ThreadId t, bool clear) {
  std::lock_guard<std::mutex> g(mu_);
  bool v = model_.interrupted(t);
  if (clear) model_.clear_interrupt(t);
  return v;
}

void Controller::mark_interrupted(ThreadId t) {
  std::lock_guard<std::mutex> g(mu_);
  model_.set_interrupt(t);
}

void Controller::suspend(ThreadId t, bool on) {
  std::lock_guard<std::mutex> g(mu_);
  model_.suspend(t, on);
}

ThreadId Controller::running() {
  std::lock_guard<std::mutex> g(mu_);
  return running_;
}

uint64_t Controller::steps() {
  std::lock_guard<std::mutex> g(mu_);
  return model_.steps();
}

void Controller::observe(ThreadId self, const Op& op) {
  std::lock_guard<std::mutex> g(mu_);
  if (running_ == self) model_.observe(self, op);
}

bool Controller::observe_if_locked(ThreadId self, const Op& op) {
  std::lock_guard<std::mutex> g(mu_);
  if (running_ != self || model_.thread(self).monitors_held == 0) return false;
  model_.observe(self, op);
  return true;
}

}  // namespace jsched::sched
