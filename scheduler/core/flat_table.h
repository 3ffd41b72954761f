// A hash table from small keys to values, open addressing with linear probing, each value in its
// slot. Tables met at every scheduling point (the race detector's locations, the fingerprint's
// levels) hold up to hundreds of thousands of keys per execution; a node-based map paid two
// cache misses (bucket, node) per lookup and an allocation per new key.
// Slots move when the table grows: a returned pointer is good until the next find_or_add.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace jsched::sched {

// Hash: size_t(const Key&), spreading its bits over the low ones (the table masks them).
template <typename Key, typename V, typename Hash>
class FlatTable {
 public:
  // The value of `key`, default-made if new; nullptr once `max` keys are held.
  V* find_or_add(const Key& key, size_t max = SIZE_MAX) {
    if (slots_.empty()) slots_.resize(kInitial);
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(key)&mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.used && s.key == key) return &s.value;
      if (s.used) continue;
      if (size_ >= max) return nullptr;
      // Grow at 70% full (probes stay short, and a slot costs no more memory than a node of a
      // node-based map), then look again.
      if (10 * (size_ + 1) > 7 * slots_.size()) {
        grow();
        return find_or_add(key, max);
      }
      s.used = true;
      s.key = key;
      ++size_;
      return &s.value;
    }
  }
  // The value of `key`, or nullptr: a look that adds nothing (a read of what was never written).
  V* find(const Key& key) {
    if (slots_.empty()) return nullptr;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(key)&mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kInitial = 256;
  struct Slot {
    bool used = false;  // a flag, so that no key is reserved for "empty"
    Key key{};
    V value{};
  };
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (Slot& s : old) {
      if (!s.used) continue;
      size_t i = Hash{}(s.key) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace jsched::sched
