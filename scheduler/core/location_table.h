// A table of locations (object, slot) -> V: the race detector's, and the model's record of who
// touched what. An access-heavy program meets hundreds of thousands of locations per
// execution and most accesses look one up.
// Slots move when the table grows: a returned pointer is good until the next find_or_add.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scheduler/core/flat_table.h"
#include "scheduler/core/op.h"

namespace jsched::sched {

template <typename V>
class LocationTable {
 public:
  // The value of (obj, slot), default-made if new; nullptr once `max` locations are held.
  V* find_or_add(ObjectId obj, int64_t slot, size_t max) {
    return table_.find_or_add({obj, slot}, max);
  }
  V* find(ObjectId obj, int64_t slot) { return table_.find({obj, slot}); }
  size_t size() const { return table_.size(); }

 private:
  struct Key {
    ObjectId obj = kNoObject;
    int64_t slot = 0;
    bool operator==(const Key& o) const { return obj == o.obj && slot == o.slot; }
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      uint64_t h = (k.obj ^ (uint64_t(k.slot) * 0xC2B2AE3D27D4EB4FULL)) * 0x9E3779B97F4A7C15ULL;
      return size_t(h ^ (h >> 29));
    }
  };
  FlatTable<Key, V, Hash> table_;
};

}  // namespace jsched::sched
