// Record and replay: every choice a strategy makes (the next thread, a notify's target), the
// file format that stores them, and the strategies that write and follow it.
//
// File format (text, one item per line):
// Steps with a single enabled thread and notifies with a single waiter are not choices and
// are not logged (how many a run has can vary with JDK code that a lone thread runs).
//
//   jsched-schedule 2
//   options <agent options of the recorded run>
//   decisions <N>
//   [anchor sites]                      (a guide for follow=: FollowStrategy)
//   t <thread id> <operation> <site> [p <from> <steps> [<from site> <nth>]]
//   a <index>                               (N lines of `t` or `a`: a thread choice, with the
//                                           operation and instrumentation site it performed and
//                                           `p` when it pre-empted thread <from>, which could
//                                           have gone on, after <from>'s <steps> steps, of
//                                           which <nth> at <from site>, the site of the
//                                           operation it was about to perform; or
//   hang <steps>                        an auxiliary choice index); optional: the recorded run
//   end                                 hung (the watchdog) after that many steps
//
// Replay checks each choice against what the program does: the thread must be enabled and
// about to perform the recorded operation at the recorded site. Version 1 files (`t <thread
// id>` only) are still read; their choices are checked by thread alone.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/core/strategy.h"

namespace jsched::sched {

struct Decision {
  enum Kind : uint8_t { Thread = 't', Aux = 'a' } kind;
  uint32_t value;
  // Thread choices: what the chosen thread performed (Count: not recorded, a version 1 file).
  OpKind op = OpKind::Count;
  int32_t site = 0;
  bool preempt = false;  // the thread that ran before could have gone on
  // With `preempt`: that thread, and how many steps it had run (kNoThread: not recorded).
  uint32_t from = kNoThread;
  uint64_t from_steps = 0;
  // With `preempt`, when recorded: the site of the operation that thread was about to perform,
  // and how many steps it had already performed at that site. A pre-emption anchored there
  // stays before the same operation when another thread's changed run shifts its step count.
  bool from_at_site = false;
  int32_t from_site = 0;
  uint32_t from_nth = 0;
  bool operator==(const Decision& o) const {
    return kind == o.kind && value == o.value && op == o.op && site == o.site;
  }
};

struct ScheduleLog {
  std::string options;
  std::vector<Decision> decisions;
  // The recorded run ended in a hang after this many steps (0: it did not). A hang comes when
  // real time runs out, at no particular step: its replay stops at the same step, so that run
  // and replay describe the same state.
  uint64_t hang_steps = 0;
  // ... and that end was a livelock's (the line `livelock N` rather than `hang N`).
  bool livelock = false;
  // A guide whose pre-emptions FollowStrategy anchors by site (from_site, from_nth) rather than
  // by the pre-empted thread's step count (the line `anchor sites`).
  bool anchor_sites = false;

  void write(const std::string& path) const;  // throws std::runtime_error
  // Throws std::runtime_error naming the file, line and problem.
  static ScheduleLog read(const std::string& path);
};

// Steps run by each thread, forced ones included: where in its own run a thread was pre-empted.
class StepCounts {
 public:
  uint64_t of(ThreadId t) const { return t < n_.size() ? n_[t] : 0; }
  void add(ThreadId t) {
    if (t >= n_.size()) n_.resize(size_t(t) + 1, 0);
    ++n_[t];
  }

 private:
  std::vector<uint64_t> n_;
};

// Steps each thread has performed at each site, forced ones included.
class SiteCounts {
 public:
  uint32_t of(ThreadId t, int32_t site) const {
    auto it = n_.find(key(t, site));
    return it == n_.end() ? 0 : it->second;
  }
  void add(ThreadId t, int32_t site) { ++n_[key(t, site)]; }

 private:
  static uint64_t key(ThreadId t, int32_t site) { return uint64_t(t) << 32 | uint32_t(site); }
  std::unordered_map<uint64_t, uint32_t> n_;
};

// Replay met a choice the log does not allow.
class ReplayDivergence : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Wraps a strategy and logs each of its choices.
class RecordingStrategy : public Strategy {
 public:
  RecordingStrategy(Strategy& inner, ScheduleLog& log) : inner_(inner), log_(log) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice kind, size_t n) override;
  void forced(const Candidate& only, uint64_t step) override {
    last_ = only.thread;
    steps_.add(only.thread);
    sites_.add(only.thread, only.op.site);
    inner_.forced(only, step);
  }
  void on_thread_created(ThreadId t, ThreadId parent) override {
    inner_.on_thread_created(t, parent);
  }
  void on_arrive(ThreadId t, const Op& op) override { inner_.on_arrive(t, op); }
  void on_executed(ThreadId t, const Op& op) override { inner_.on_executed(t, op); }

 private:
  Strategy& inner_;
  ScheduleLog& log_;
  ThreadId last_ = kNoThread;  // the thread of the step before
  StepCounts steps_;
  SiteCounts sites_;
};

// Follows a log exactly; throws ReplayDivergence naming the step where the run departs.
class ReplayStrategy : public Strategy {
 public:
  explicit ReplayStrategy(const ScheduleLog& log) : log_(log) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice kind, size_t n) override;
  bool finished() const { return pos_ == log_.decisions.size(); }
  uint64_t hang_steps() const { return log_.hang_steps; }
  bool livelock() const { return log_.livelock; }
  size_t position() const { return pos_; }
  // When the run ends before its schedule does: why the replay did not replay ("" if it did).
  std::string unfinished() const;

 private:
  const Decision& next(Decision::Kind kind);
  const ScheduleLog& log_;
  size_t pos_ = 0;
};

}  // namespace jsched::sched
