// Partial-order fingerprint of an execution (docs/architecture.md, "Partial orders"). Each event
// gets its Foata level: one more than the highest level among earlier events it depends on (its
// thread's previous event, and conflicting touches of the same monitor, thread or variable). Two
// executions are reorderings of each other's adjacent independent events exactly when they have the
// same multiset of (level, event), so the fingerprint is an order-independent hash of that
// multiset.
#pragma once

#include <cstdint>
#include <string>

#include "scheduler/core/flat_table.h"
#include "scheduler/core/op.h"

namespace jsched::sched {

class Fingerprint {
 public:
  // `thread` is a stable name of the thread, `index` the event's position in that thread,
  // `where` the footprint with stable keys (threads named by their stable-name hash).
  // What the fingerprint keeps of a location: the levels of its last write and latest read.
  struct Levels {
    uint64_t last_write = 0, max_read = 0;
  };
  // `levels`: where the caller keeps `where`'s (a Variable's, looked up once for several uses),
  // always the same for the same location; nullptr: in the fingerprint's own table.
  void add(uint64_t thread, uint64_t index, OpKind kind, const Footprint& where,
           Levels* levels = nullptr);
  std::string hex() const;  // 32 hex digits
  uint64_t events() const { return events_; }

 private:
  struct Key {
    uint8_t space = 0;
    uint64_t key = 0, key2 = 0;
    bool operator==(const Key& o) const {
      return space == o.space && key == o.key && key2 == o.key2;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  FlatTable<Key, Levels, KeyHash> touched_;
  // The level of the thread of the last event is kept out of the table: most events follow one
  // of the same thread. (Thread keys are name hashes, mixed already.) A node-based map cost two
  // lookups at each change of thread, every other point of a ping-pong between two threads.
  struct ThreadHash {
    size_t operator()(uint64_t k) const { return size_t(k); }
  };
  FlatTable<uint64_t, uint64_t, ThreadHash> thread_level_;
  uint64_t last_thread_ = 0, last_level_ = 0;
  bool any_thread_ = false;
  uint64_t sum_[2] = {0, 0};
  uint64_t events_ = 0;
};

// 64-bit mixing (splitmix64 finalizer).
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t hash_string(const std::string& s);
// 16 hex digits: how object names and pair ids are written in reports, traces and plans.
std::string hex64(uint64_t v);

}  // namespace jsched::sched
