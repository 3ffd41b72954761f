#include "scheduler/hapset.h"

#include "scheduler/fingerprint.h"

namespace jsched::sched {

size_t HapPairHash::operator()(const HapPair& p) const {
  uint64_t h = mix64(p.pred.where ^ (uint64_t(p.pred.thr) << 63));
  h = mix64(h ^ p.stmt.where);
  return size_t(mix64(h ^ p.stmt.thr));
}

bool hap_conflict(HapAccess a, HapAccess b) {
  switch (a) {
    case HapAccess::Read:
      return b == HapAccess::Write;
    case HapAccess::Write:
      return b == HapAccess::Read || b == HapAccess::Write;
    case HapAccess::Lock:
      return b == HapAccess::Lock;
    case HapAccess::Wait:
      return b == HapAccess::Notify;
    case HapAccess::Notify:
      return b == HapAccess::Wait;
  }
  return false;
}

std::vector<HapPair> HapsetLearner::pairs_of(ThreadId t, uint64_t obj, HapAccess kind,
                                             uint64_t where) const {
  std::vector<HapPair> out;
  auto it = last_.find(obj);
  if (it == last_.end()) return out;
  uint64_t own = 0;  // 0: this thread has not touched the object yet
  for (const Last& l : it->second) {
    if (l.thread == t) own = l.time;
  }
  for (const Last& l : it->second) {
    if (l.thread == t || l.time <= own || !hap_conflict(l.kind, kind)) continue;
    uint8_t thr = t < l.thread ? 0 : 1;
    out.push_back(HapPair{{l.where, uint8_t(1 - thr)}, {where, thr}});
  }
  return out;
}

size_t HapsetLearner::event(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) {
  size_t fresh = 0;
  for (const HapPair& p : pairs_of(t, obj, kind, where)) fresh += pairs_.insert(p).second;
  std::vector<Last>& lasts = last_[obj];
  Last now{t, ++time_, kind, where};
  for (Last& l : lasts) {
    if (l.thread == t) {
      l = now;
      return fresh;
    }
  }
  lasts.push_back(now);
  return fresh;
}

void HapsetLearner::next_execution() {
  last_.clear();
  time_ = 0;
}

}  // namespace jsched::sched
