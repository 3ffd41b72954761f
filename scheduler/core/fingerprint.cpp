#include "scheduler/core/fingerprint.h"

#include <algorithm>
#include <cstdio>

namespace jsched::sched {

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t hash_string(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return mix64(h);
}

size_t Fingerprint::KeyHash::operator()(const Key& k) const {
  return size_t(mix64(k.key * 31 + k.space) ^ mix64(k.key2 + 0x9e3779b97f4a7c15ULL));
}

void Fingerprint::add(uint64_t thread, uint64_t index, OpKind kind, const Footprint& f,
                      Levels* levels) {
  if (!any_thread_ || thread != last_thread_) {
    if (any_thread_) *thread_level_.find_or_add(last_thread_) = last_level_;
    const uint64_t* level = thread_level_.find(thread);
    last_level_ = level ? *level : 0;
    last_thread_ = thread;
    any_thread_ = true;
  }
  uint64_t& mine = last_level_;
  uint64_t level = mine;
  Levels* lv = nullptr;
  if (f.space != Footprint::None) {
    lv = levels ? levels : touched_.find_or_add(Key{uint8_t(f.space), f.key, f.key2});
    level = std::max(level, f.write ? std::max(lv->last_write, lv->max_read) : lv->last_write);
  }
  ++level;
  mine = level;
  if (lv) {
    if (f.write) {
      lv->last_write = level;
      lv->max_read = 0;
    } else {
      lv->max_read = std::max(lv->max_read, level);
    }
  }
  uint64_t label = mix64(thread ^ mix64(index * 0x9e3779b97f4a7c15ULL + uint64_t(kind)));
  label = mix64(label ^ mix64(f.key + 0x51ed27ULL * f.space) ^ mix64(f.key2 ^ 0xa5a5a5a5ULL));
  sum_[0] += mix64(label + level);
  sum_[1] += mix64(label ^ mix64(level * 0xc2b2ae3d27d4eb4fULL));
  ++events_;
}

std::string Fingerprint::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)sum_[0],
                (unsigned long long)sum_[1]);
  return buf;
}

}  // namespace jsched::sched
