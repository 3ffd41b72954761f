// The race detector's table of plain locations (object, slot) -> V: open addressing with linear
// probing, the value stored in its slot. An access-heavy program meets hundreds of thousands of
// locations per execution and most accesses look one up; a node-based map paid two cache misses
// (bucket, node) per lookup and an allocation per new location, a tenth of such a program's time.
// Slots move when the table grows: a returned pointer is good until the next find_or_add.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scheduler/core/op.h"

namespace jsched::sched {

template <typename V>
class LocationTable {
 public:
  // The value of (obj, slot), default-made if new; nullptr once `max` locations are held.
  V* find_or_add(ObjectId obj, int64_t slot, size_t max) {
    if (slots_.empty()) slots_.resize(kInitial);
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(obj, slot) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.used && s.obj == obj && s.slot == slot) return &s.value;
      if (s.used) continue;
      if (size_ >= max) return nullptr;
      if (2 * (size_ + 1) > slots_.size()) {  // grow at half full, then look again
        grow();
        return find_or_add(obj, slot, max);
      }
      s.used = true;
      s.obj = obj;
      s.slot = slot;
      ++size_;
      return &s.value;
    }
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kInitial = 256;
  struct Slot {
    bool used = false;
    ObjectId obj = kNoObject;
    int64_t slot = 0;
    V value{};
  };
  static size_t hash(ObjectId obj, int64_t slot) {
    uint64_t h = (obj ^ (uint64_t(slot) * 0xC2B2AE3D27D4EB4FULL)) * 0x9E3779B97F4A7C15ULL;
    return size_t(h ^ (h >> 29));
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (Slot& s : old) {
      if (!s.used) continue;
      size_t i = hash(s.obj, s.slot) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace jsched::sched
