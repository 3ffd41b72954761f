#include "scheduler/core/model.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace jsched::sched {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ok:
      return "ok";
    case Outcome::Timeout:
      return "timeout";
    case Outcome::Interrupted:
      return "interrupted";
    case Outcome::Spurious:
      return "spurious";
    case Outcome::IllegalMonitor:
      return "illegal-monitor";
    case Outcome::Aborted:
      return "aborted";
  }
  return "?";
}

ThreadId Model::add_main() {
  ThreadState t;
  t.id = ThreadId(threads_.size());
  t.name = std::to_string(t.id);
  t.name_hash = hash_string(t.name);
  t.status = ThreadState::Running;
  threads_.push_back(t);
  strategy_.on_thread_created(t.id, kNoThread);
  return t.id;
}

ThreadId Model::spawn(ThreadId parent) {
  ThreadState t;
  t.id = ThreadId(threads_.size());
  t.parent = parent;
  ThreadState& p = threads_.at(parent);
  t.name = p.name + "." + std::to_string(++p.children);
  t.name_hash = hash_string(t.name);
  t.status = ThreadState::Pending;
  t.pending = Op::of(OpKind::Begin);
  threads_.push_back(t);
  strategy_.on_thread_created(t.id, parent);
  return t.id;
}

void Model::record(ThreadState& t, const Op& op) {
  Footprint f = footprint(t.id, op);
  if (f.space == Footprint::ThreadObj) f.key = threads_.at(ThreadId(f.key)).name_hash;
  variable_ = f.space == Footprint::Variable ? variables_.find_or_add(op.obj, op.slot, kMaxTouched)
                                             : nullptr;
  fingerprint_.add(t.name_hash, t.events++, op.kind, f, variable_ ? &variable_->levels : nullptr);
  uint64_t key;
  HapAccess access;
  if (hap_ && hap_event_of(op, key, access)) hap_->event(t.id, key, access, op.where);
  if (races_) races_->event(t.id, op);
  if (trace_) trace_->push_back(TraceEvent{t.id, op, preempt_now_});
  strategy_.on_executed(t.id, op);
}

void Model::arrive(ThreadId id, const Op& op) {
  ThreadState& t = threads_.at(id);
  t.pending = op;
  t.wait_from = now_;
  t.jumped_from = jumped_;
  t.status = ThreadState::Pending;
  t.io_quiet_at = UINT64_MAX;
  if (op.kind == OpKind::Park) wait_site(t, op.site);
  strategy_.on_arrive(id, op);
}

void Model::detach(ThreadId id) {
  threads_.at(id).status = ThreadState::Detached;
  ++changes_;
}

void Model::forget_if_idle(ObjectId) {
  if (monitors_.size() < 65536) return;
  for (auto it = monitors_.begin(); it != monitors_.end();) {
    it = (it->second.owner == kNoThread && it->second.waiters.empty()) ? monitors_.erase(it)
                                                                       : std::next(it);
  }
}

void Model::release(ThreadId id, ObjectId m) {
  ThreadState& t = threads_.at(id);
  auto it = monitors_.find(m);
  // A release the model did not see acquired (a monitor taken by uninstrumented code) is
  // still an event; it changes no state.
  if (it != monitors_.end() && it->second.owner == id && it->second.count > 0) {
    if (--it->second.count == 0) {
      it->second.owner = kNoThread;
      --t.monitors_held;
      forget_if_idle(m);
    }
  }
  record(t, Op::monitor(OpKind::Exit, m));
}

void Model::started(ThreadId id, ThreadId child) {
  ++changes_;
  record(threads_.at(id), Op::thread(OpKind::Start, child));
}

void Model::end(ThreadId id) {
  ThreadState& t = threads_.at(id);
  record(t, Op::of(OpKind::End));
  t.status = ThreadState::Dead;
  ++changes_;
  // Monitors still held (only possible through JNI) are released so others are not stuck.
  for (auto& [id_, mon] : monitors_) {
    if (mon.owner == id) {
      mon.owner = kNoThread;
      mon.count = 0;
    }
  }
}

void Model::unpark(ThreadId id, ThreadId target) {
  threads_.at(target).permit = true;
  ++changes_;
  if (id != kNoThread) record(threads_.at(id), Op::thread(OpKind::Unpark, target));
}

bool Model::wait(ThreadId id, ObjectId m, bool timed, int32_t site, uint64_t where,
                 int64_t deadline) {
  ThreadState& t = threads_.at(id);
  MonitorState& mon = monitor(m);
  if (mon.owner != id) {
    t.outcome = Outcome::IllegalMonitor;
    forget_if_idle(m);
    return false;
  }
  if (t.interrupted) {  // Object.wait throws at once, keeping the monitor
    t.interrupted = false;
    t.outcome = Outcome::Interrupted;
    return false;
  }
  Op op = Op::monitor(OpKind::Wait, m, site);
  op.timed = timed;
  op.where = where;
  record(t, op);
  op.slot = deadline;  // after the record: a deadline is no part of what the event touches
  t.saved_count = mon.count;
  mon.owner = kNoThread;
  mon.count = 0;
  --t.monitors_held;
  mon.waiters.push_back(id);
  t.pending = op;
  t.status = ThreadState::Waiting;
  wait_site(t, site);
  t.wait_from = now_;
  t.jumped_from = jumped_;
  return true;
}

bool Model::may_time_out(const ThreadState& t, int64_t now) const {
  return t.pending.timed &&
         (t.pending.slot < 0 || now >= t.pending.slot ||
          (early_timeouts_ && t.pending.kind != OpKind::Sleep && t.pending.kind != OpKind::Busy));
}

bool Model::is_enabled(const ThreadState& t, int64_t now) const {
  auto free_or_mine = [&](ObjectId m) {
    auto it = monitors_.find(m);
    return it == monitors_.end() || it->second.owner == kNoThread || it->second.owner == t.id;
  };
  if (t.suspended) return false;
  if (t.status == ThreadState::Waiting) {
    // A spurious wake-up is drawn for untimed waits only, as for parks: a timed waiter taken
    // so returned as timed out, and the clock jumped to its deadline (a timer's wait for a
    // task hours ahead, at every draw: every sleeping daemon woke).
    bool can_wake = may_time_out(t, now) || t.interrupted ||
                    (spurious_now_ && !t.pending.timed && steps_ >= t.spurious_from);
    return can_wake && free_or_mine(t.pending.obj);
  }
  if (t.status != ThreadState::Pending) return false;
  switch (t.pending.kind) {
    case OpKind::Enter:
    case OpKind::Reacquire:
      return free_or_mine(t.pending.obj);
    case OpKind::Join:
      return threads_.at(t.pending.target).status == ThreadState::Dead || may_time_out(t, now) ||
             t.interrupted;
    case OpKind::Park:  // an unknown deadline: see enabled()
      return t.permit || t.interrupted ||
             (spurious_now_ && !t.pending.timed && steps_ >= t.spurious_from) ||
             (t.pending.slot >= 0 && may_time_out(t, now));
    case OpKind::IoWait:
      return io_ready(t) || (t.pending.slot >= 0 && may_time_out(t, now));
    case OpKind::Sleep:
      return !t.pending.timed || may_time_out(t, now) || t.interrupted;
    case OpKind::Busy:  // no interrupt ends it, and never early
      return !t.pending.timed || t.pending.slot < 0 || now >= t.pending.slot;
    default:
      return true;
  }
}

std::optional<int64_t> Model::pending_deadline(const ThreadState& t) const {
  // A deadline past any run's time (wait(Long.MAX_VALUE)) is none: the thread waits for ever.
  constexpr int64_t kNever = INT64_MAX / 2;
  if (!t.pending.timed || t.pending.slot >= kNever || t.suspended) return std::nullopt;
  if (t.status == ThreadState::Waiting) return t.pending.slot;
  if (t.status != ThreadState::Pending) return std::nullopt;
  switch (t.pending.kind) {
    case OpKind::Park:
    case OpKind::IoWait:
    case OpKind::Sleep:
    case OpKind::Busy:
    case OpKind::Join:
      return t.pending.slot;
    default:
      return std::nullopt;
  }
}

bool Model::io_ready(const ThreadState& t) const {
  if (!io_ready_) return true;
  if (!io_fresh_ && t.io_quiet_at != UINT64_MAX && steps_ - t.io_quiet_at < kIoRecheckSteps) {
    io_stale_ = true;
    return false;
  }
  if (io_ready_(int(t.pending.obj), uint32_t(t.pending.var))) return true;
  t.io_quiet_at = steps_;
  return false;
}

// When no thread can run, time passes: to the earliest deadline, whose operations then time out
// (discrete-event time: `awaitTermination(10, SECONDS)` does not give up while the pool still
// has work, and timeouts come in deadline order). While threads run, time passes by their
// steps (set_time), and a timed operation whose deadline has passed is a candidate like any
// other: whether it times out or its event comes first is the strategy's choice.
void Model::list_enabled() const {
  enabled_.clear();
  may_wake_ = false;
  for (const ThreadState& t : threads_) {
    if (is_enabled(t, now_))
      enabled_.push_back(Candidate{t.id, t.pending});
    else
      may_wake_ = may_wake_ || may_wake_spuriously(t);
  }
}

const std::vector<Candidate>& Model::enabled() const {
  jump_to_ = -1;
  io_stale_ = false;
  io_fresh_ = false;  // a waiter's recent "not ready" stands while another thread can run
  list_enabled();
  io_fresh_ = true;
  if (enabled_.empty() && io_stale_) list_enabled();  // none can: every waiter asked afresh
  outside_active_ = false;
  io_hold_ = false;
  if (!enabled_.empty()) return enabled_;
  // A detached thread (blocked where the model cannot see: a lock of the JVM's, a safepoint that
  // outlasted the watchdog's patience) comes back at its next scheduling point, and may wake a
  // waiter then, as a thread outside may: time does not jump past it at once.
  outside_active_ = detached_count() > 0 || (outside_ && outside_());
  if (outside_active_ && !released_) return enabled_;  // they may unpark a waiter first
  if (!released_) {
    for (const ThreadState& t : threads_)
      io_hold_ = io_hold_ || (t.status == ThreadState::Pending &&
                              t.pending.kind == OpKind::IoWait && io_in_flight(t.pending));
    if (io_hold_) return enabled_;  // the data may be on its way
  }
  int64_t earliest = INT64_MAX;
  bool any = false;
  for (const ThreadState& t : threads_) {
    if (auto d = pending_deadline(t)) {
      earliest = std::min(earliest, *d);
      any = true;
    }
  }
  if (!any) return enabled_;
  // They time out, a waiter once its monitor is free.
  for (const ThreadState& t : threads_) {
    auto d = pending_deadline(t);
    if (!d || *d != earliest) continue;
    if (t.status == ThreadState::Waiting) {
      auto it = monitors_.find(t.pending.obj);
      if (it != monitors_.end() && it->second.owner != kNoThread && it->second.owner != t.id)
        continue;
    }
    enabled_.push_back(Candidate{t.id, t.pending});
  }
  if (!enabled_.empty()) jump_to_ = earliest;
  return enabled_;
}

bool Model::any_alive() const {
  for (const ThreadState& t : threads_) {
    if (t.status != ThreadState::Dead) return true;
  }
  return false;
}

size_t Model::detached_count() const {
  return size_t(std::count_if(threads_.begin(), threads_.end(), [](const ThreadState& t) {
    return t.status == ThreadState::Detached;
  }));
}

bool Model::deadlocked() const {
  bool blocked = false;
  for (const ThreadState& t : threads_) {
    if (t.status == ThreadState::Running || t.status == ThreadState::Detached) return false;
    if (t.status != ThreadState::Dead) {
      if (is_enabled(t, now_)) return false;
      blocked = true;
    }
  }
  // None waits for a deadline either, and no thread outside the model may still wake one.
  return blocked && enabled().empty() && !outside_active_ && !io_hold_;
}

void Model::execute(ThreadState& t) {
  Op op = t.pending;
  t.outcome = Outcome::Ok;
  if (jump_to_ >= 0) jump(jump_to_);       // nothing else could run
  if (t.status == ThreadState::Waiting) {  // woken without a notify
    MonitorState& mon = monitor(op.obj);
    mon.waiters.erase(std::find(mon.waiters.begin(), mon.waiters.end(), t.id));
    mon.owner = t.id;
    mon.count = t.saved_count;
    ++t.monitors_held;
    if (t.interrupted) {
      t.interrupted = false;
      t.outcome = Outcome::Interrupted;
    } else {
      t.outcome = op.timed ? Outcome::Timeout : Outcome::Spurious;
    }
    t.status = ThreadState::Running;
    if (t.outcome == Outcome::Timeout && op.slot >= 0) timed_out(t, op);
    record(t, Op::monitor(OpKind::Reacquire, op.obj, op.site));
    return;
  }
  t.status = ThreadState::Running;
  switch (op.kind) {
    case OpKind::Enter: {
      MonitorState& mon = monitor(op.obj);
      mon.owner = t.id;
      if (++mon.count == 1) ++t.monitors_held;
      break;
    }
    case OpKind::Reacquire: {  // after a notify
      MonitorState& mon = monitor(op.obj);
      mon.owner = t.id;
      mon.count = t.saved_count;
      ++t.monitors_held;
      break;
    }
    case OpKind::Notify:
    case OpKind::NotifyAll: {
      auto it = monitors_.find(op.obj);
      if (it == monitors_.end() || it->second.owner != t.id) {
        t.outcome = Outcome::IllegalMonitor;
        return;
      }
      std::vector<ThreadId>& w = it->second.waiters;
      size_t n = op.kind == OpKind::NotifyAll ? w.size() : std::min<size_t>(w.size(), 1);
      for (size_t k = 0; k < n; ++k) {
        size_t i = op.kind == OpKind::NotifyAll || w.size() == 1
                       ? 0
                       : strategy_.choose_aux(AuxChoice::NotifyTarget, w.size());
        ThreadState& waiter = threads_.at(w[i]);
        w.erase(w.begin() + long(i));
        waiter.status = ThreadState::Pending;
        waiter.pending = Op::monitor(OpKind::Reacquire, op.obj, waiter.pending.site);
      }
      break;
    }
    case OpKind::Join:
      if (threads_.at(op.target).status != ThreadState::Dead) {
        if (t.interrupted) {
          t.interrupted = false;
          t.outcome = Outcome::Interrupted;
        } else {
          t.outcome = Outcome::Timeout;
        }
      }
      break;
    case OpKind::IoWait:
      if (!io_ready(t)) t.outcome = Outcome::Timeout;
      break;
    case OpKind::Park:  // the interrupt stays set: park returns, the caller checks the flag
      if (t.permit) {
        t.permit = false;
      } else if (!t.interrupted) {
        t.outcome = op.timed ? Outcome::Timeout : Outcome::Spurious;
      }
      break;
    case OpKind::Sleep:
      if (t.interrupted) {
        t.interrupted = false;
        t.outcome = Outcome::Interrupted;
      }
      break;
    case OpKind::Interrupt:
      threads_.at(op.target).interrupted = true;
      break;
    default:
      break;
  }
  // A timeout (or a sleep) ends at its deadline: the clock is there at least.
  if (op.timed && op.slot >= 0 && t.outcome == Outcome::Timeout)
    timed_out(t, op);
  else if (op.timed && op.slot >= 0 && (op.kind == OpKind::Sleep || op.kind == OpKind::Busy) &&
           t.outcome == Outcome::Ok)
    slept(t, op);
  if (op.kind != OpKind::Continue)
    record(t, op);
  else if (trace_)
    trace_->push_back(TraceEvent{t.id, op, preempt_now_});  // where a pre-emption can be
}

void Model::jump(int64_t to) {
  if (to <= now_) return;
  jumped_ += to - now_;
  now_ = to;
}

int64_t Model::stepped_span(const ThreadState& t, int64_t deadline) {
  jump(deadline);
  const int64_t span = deadline - t.wait_from;
  const int64_t stepped = (now_ - t.wait_from) - (jumped_ - t.jumped_from);
  return span > 0 && 2 * stepped >= span ? span : 0;
}

void Model::timed_out(ThreadState& t, const Op& op) {
  t.step_timeout = std::max(t.step_timeout, stepped_span(t, op.slot));
}

void Model::slept(ThreadState& t, const Op& op) {
  if (op.kind == OpKind::Sleep)
    t.step_sleep = std::max(t.step_sleep, stepped_span(t, op.slot));
  else
    jump(op.slot);  // busy time (System.gc) is the thread's own, not the others' steps
}

bool Model::may_wake_spuriously(const ThreadState& t) const {
  if (steps_ < t.spurious_from) return false;
  if (t.status == ThreadState::Waiting) return !t.pending.timed && !t.interrupted;
  return t.status == ThreadState::Pending && t.pending.kind == OpKind::Park && !t.pending.timed &&
         !t.permit && !t.interrupted;
}

void Model::count_spurious(ThreadState& t, int32_t site) {
  if (t.outcome != Outcome::Spurious) {
    t.spurious_run = 0;
    t.spurious_from = 0;
    return;
  }
  if (site != t.spurious_site) t.spurious_run = 0;
  t.spurious_site = site;
  t.spurious_run = std::min<uint32_t>(t.spurious_run + 1, 40);
  const double gap = std::ldexp(1.0, int(t.spurious_run)) - 1;
  t.spurious_from = steps_ + uint64_t(spurious_p_ > 0 ? std::min(gap / spurious_p_, 1e15) : 1e15);
}

bool preempts(const std::vector<Candidate>& enabled, ThreadId last, ThreadId chosen) {
  if (last == kNoThread || last == chosen) return false;
  for (const Candidate& c : enabled) {
    if (c.thread == last) return true;
  }
  return false;
}

bool Model::changes_what_others_see(const ThreadState& t, const Op& op) {
  if (t.outcome == Outcome::Spurious) return false;  // the model's wake-up, not the program's
  if ((op.kind != OpKind::Read && op.kind != OpKind::Write) || op.ordered) return true;
  const bool write = op.kind == OpKind::Write;
  constexpr ThreadId kSeveral = kNoThread - 1;
  // execute() recorded `op` last: its location is variable_ (nullptr: the table is full).
  Variable* by = variable_;
  if (by == nullptr) return write;
  if (by->thread == kNoThread)
    by->thread = t.id;
  else if (by->thread != t.id)
    by->thread = kSeveral;
  return write && by->thread == kSeveral;
}

void Model::count_change(ThreadState& t, const Op& op, bool seen) {
  bool change = false;
  switch (op.kind) {
    case OpKind::Read:
    case OpKind::Enter:
    case OpKind::Exit:
    case OpKind::Reacquire:
    case OpKind::Wait:
    case OpKind::Sleep:
    case OpKind::Yield:
    case OpKind::Continue:
    case OpKind::Park:  // a permit it takes was an unpark's, counted there
    case OpKind::Join:  // a thread it sees ended was counted at its end
    case OpKind::Busy:
      break;
    case OpKind::Write:
      change = seen;
      break;
    case OpKind::Sync:
      change = op.write;
      break;
    case OpKind::IoWait:  // what arrived came from somewhere
      change = t.outcome != Outcome::Timeout;
      break;
    default:
      change = true;
      break;
  }
  if (change) {
    ++changes_;
    return;
  }
  t.quiet_at = changes_;
  const bool turned = op.timed && (t.outcome == Outcome::Timeout ||
                                   (op.kind == OpKind::Sleep && t.outcome == Outcome::Ok));
  if (!turned) return;
  if (t.turns_at != changes_) {
    t.turns_at = changes_;
    t.turns = 0;
  }
  ++t.turns;
}

std::vector<ThreadId> Model::turning_on_time(uint32_t min_turns) const {
  std::vector<ThreadId> turning;
  for (const ThreadState& t : threads_) {
    if (t.status == ThreadState::Dead) {
      if (t.id == 0) return {};  // main is done: what is left is the JVM's to end or not
      continue;
    }
    if (t.status == ThreadState::Detached) return {};  // it may be doing anything
    if (t.quiet_at == changes_) {
      if (t.turns_at != changes_ || t.turns < min_turns) return {};
      turning.push_back(t.id);
      continue;
    }
    // Any other thread must wait for good: one that could run, or will at a deadline, is
    // merely not chosen yet (a strategy's priorities), and may change everything.
    if (t.status == ThreadState::Running || pending_deadline(t) || is_enabled(t, now_)) return {};
  }
  return turning;
}

std::optional<ThreadId> Model::step() {
  spurious_now_ = false;
  const std::vector<Candidate>& cands = enabled();
  if (cands.empty()) {
    few_count_ = 0;
    return std::nullopt;
  }
  if (spurious_p_ > 0 && may_wake_ && spurious_rng_.coin(spurious_p_)) {
    spurious_now_ = true;
    enabled();  // again, into `cands`: the waiting threads are candidates too
  }
  few_count_ = cands.size() <= kFewCandidates ? cands.size() : 0;
  for (size_t k = 0; k < few_count_; ++k) few_[k] = cands[k].thread;
  size_t i = 0;
  if (cands.size() == 1) {
    strategy_.forced(cands[0], steps_);
  } else {
    i = strategy_.choose(cands, steps_);
  }
  if (i >= cands.size()) throw std::logic_error("strategy chose outside the enabled set");
  ThreadState& t = threads_.at(cands[i].thread);
  if (touches_shared(cands[i].op)) ++t.choices;
  if (trace_) preempt_now_ = cands.size() > 1 && preempts(cands, last_, t.id);
  const Op op = t.pending;
  const bool was_waiting = t.status == ThreadState::Waiting;
  execute(t);
  if (was_waiting || op.kind == OpKind::Park || op.kind == OpKind::Reacquire)
    count_spurious(t, op.site);
  released_ = false;
  preempt_now_ = false;
  last_ = t.id;
  ++steps_;
  const bool seen = changes_what_others_see(t, op);
  if (seen) ++progress_;
  count_change(t, op, seen);
  now_ += step_ns_;
  spurious_now_ = false;  // is_enabled() outside step() (deadlock checks) sees no draw
  return t.id;
}

}  // namespace jsched::sched
