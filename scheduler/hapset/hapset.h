// HaPSet ordering pairs (Wang et al.'s HaPSet paper, §3; docs/references.md): which ordered pairs
// of conflicting statements of different threads have followed each other. A statement is where an
// event comes from (the caller's hash of site and calling context) plus the thread-position bit of
// Wang et al. §3.1: of the two threads of a pair, the lower-numbered one's statement has bit 0.
//
// An event of thread t on object o creates the pair (st_d -> st) for every other thread u
// whose last access to o came after t's own last access to o and conflicts with this one:
// read/write with a write, lock with lock, wait with notify. Unlocks are not events here.
//
// Learning spans executions; what a thread last did to an object is per execution. Only
// executions without a bug teach (Wang et al. §3): an execution's pairs join the known set when it
// ends well (end_execution(true)). Pairs travel between processes as 64-bit ids (pair_id).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "scheduler/core/op.h"

namespace jsched::sched {

enum class HapAccess : uint8_t { Read, Write, Lock, Wait, Notify };

struct HapStatement {
  uint64_t where = 0;
  uint8_t thr = 0;  // 0: the lower-numbered thread of the pair, 1: the other
  bool operator==(const HapStatement& o) const = default;
};

// `pred` immediately preceded `stmt`: pred is in HaPSet[stmt].
struct HapPair {
  HapStatement pred, stmt;
  bool operator==(const HapPair& o) const = default;
};

// A pair's name across processes (plan files, reports).
uint64_t pair_id(const HapPair& p);

// The pair made when `thread`'s statement `where` follows `pred_thread`'s `pred_where`, with
// the thread-position bits (the lower-numbered thread's statement has bit 0).
inline HapPair ordered_pair(ThreadId pred_thread, uint64_t pred_where, ThreadId thread,
                            uint64_t where) {
  uint8_t thr = thread < pred_thread ? 0 : 1;
  return HapPair{{pred_where, uint8_t(1 - thr)}, {where, thr}};
}

bool hap_conflict(HapAccess a, HapAccess b);

// What a scheduling-point operation is for HaPSets: the object key (distinct spaces for
// monitors, variables and java.util.concurrent receivers) and the access. False for
// operations that are not HaPSet events (thread operations, releases, ...).
bool hap_event_of(const Op& op, uint64_t& key, HapAccess& kind);

class HapsetLearner {
 public:
  // The pairs the event would create, without recording anything (for guidance).
  std::vector<HapPair> pairs_of(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) const;
  // Whether the event would create a pair neither known nor created in this execution.
  bool would_be_new(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) const;
  // Records the event; returns how many of its pairs are new (neither known nor already
  // created in this execution).
  size_t event(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where);
  // A new execution: the per-object history starts empty; the known pairs stay.
  void next_execution();
  // The execution is over: its pairs become known if it passed.
  void end_execution(bool passed);

  bool knows(const HapPair& p) const { return known_.count(pair_id(p)) != 0; }
  // Known, or created in this execution.
  bool seen(const HapPair& p) const {
    uint64_t id = pair_id(p);
    return known_.count(id) != 0 || current_.count(id) != 0;
  }
  const std::unordered_set<uint64_t>& known() const { return known_; }
  void add_known(uint64_t id) { known_.insert(id); }  // merging sets from elsewhere
  // This execution's pairs, in the order they first occurred, and how many were new.
  const std::vector<uint64_t>& current() const { return current_order_; }
  size_t current_new() const { return current_new_; }
  // Every pair learned in this process, with its statements (known ids merged from
  // elsewhere have none).
  const std::vector<HapPair>& learned() const { return learned_; }

 private:
  struct Last {
    ThreadId thread;
    uint64_t time;
    HapAccess kind;
    uint64_t where;
  };
  // Calls f(pair) for each pair the event would create (`lasts`: the object's history); stops
  // early when f returns true. No allocation: the model calls this on every executed event.
  template <class F>
  static bool any_pair(const std::vector<Last>& lasts, ThreadId t, HapAccess kind, uint64_t where,
                       F&& f) {
    uint64_t own = 0;  // 0: this thread has not touched the object yet
    for (const Last& l : lasts) {
      if (l.thread == t) own = l.time;
    }
    for (const Last& l : lasts) {
      if (l.thread == t || l.time <= own || !hap_conflict(l.kind, kind)) continue;
      if (f(ordered_pair(l.thread, l.where, t, where))) return true;
    }
    return false;
  }
  std::unordered_map<uint64_t, std::vector<Last>> last_;  // by object: each thread's last
  uint64_t time_ = 0;
  std::unordered_set<uint64_t> known_;
  std::unordered_map<uint64_t, HapPair> current_;
  std::vector<uint64_t> current_order_;
  size_t current_new_ = 0;
  std::vector<HapPair> learned_;
};

}  // namespace jsched::sched
