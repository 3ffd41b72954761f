// HaPSet ordering pairs (paper 004 §3, issue 11): which ordered pairs of conflicting
// statements of different threads have followed each other. A statement is where an event
// comes from (the caller's hash of site and calling context) plus the thread-position bit
// of 004 §3.1: of the two threads of a pair, the lower-numbered one's statement has bit 0.
//
// An event of thread t on object o creates the pair (st_d -> st) for every other thread u
// whose last access to o came after t's own last access to o and conflicts with this one:
// read/write with a write, lock with lock, wait with notify. Unlocks are not events here.
// Learning spans executions (the pairs); what a thread last did to an object is per execution.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "scheduler/op.h"

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

struct HapPairHash {
  size_t operator()(const HapPair& p) const;
};

bool hap_conflict(HapAccess a, HapAccess b);

class HapsetLearner {
 public:
  // The pairs the event would create, without recording anything (for guidance).
  std::vector<HapPair> pairs_of(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) const;
  // Records the event; returns how many of its pairs were not known before.
  size_t event(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where);
  // A new execution: the per-object history starts empty; the pairs stay.
  void next_execution();

  const std::unordered_set<HapPair, HapPairHash>& pairs() const { return pairs_; }
  bool knows(const HapPair& p) const { return pairs_.count(p) != 0; }
  void add(const HapPair& p) { pairs_.insert(p); }  // merging sets from elsewhere

 private:
  struct Last {
    ThreadId thread;
    uint64_t time;
    HapAccess kind;
    uint64_t where;
  };
  std::unordered_map<uint64_t, std::vector<Last>> last_;  // by object: each thread's last
  uint64_t time_ = 0;
  std::unordered_set<HapPair, HapPairHash> pairs_;
};

}  // namespace jsched::sched
