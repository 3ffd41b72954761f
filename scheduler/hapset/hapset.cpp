#include "scheduler/hapset/hapset.h"

#include "scheduler/core/fingerprint.h"

namespace jsched::sched {

uint64_t pair_id(const HapPair& p) {
  uint64_t h = mix64(p.pred.where ^ (uint64_t(p.pred.thr) << 63));
  h = mix64(h ^ p.stmt.where);
  return mix64(h ^ p.stmt.thr);
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

namespace {

// Locks, wait sets and java.util.concurrent receivers of the same object are separate
// objects here: a thread's lock of m does not hide the notify on m that follows it.
enum Space : uint64_t { Fields = 0, Locks = 1, WaitSet = 2, Juc = 3 };

uint64_t key_of(uint64_t obj, uint64_t slot, Space s) {
  return mix64(mix64(obj) ^ slot) ^ s;
}

}  // namespace

bool hap_event_of(const Op& op, uint64_t& key, HapAccess& kind) {
  switch (op.kind) {
    case OpKind::Enter:
      key = key_of(op.obj, 0, Locks);
      kind = HapAccess::Lock;
      return true;
    case OpKind::Wait:
      key = key_of(op.obj, 0, WaitSet);
      kind = HapAccess::Wait;
      return true;
    case OpKind::Notify:
    case OpKind::NotifyAll:
      key = key_of(op.obj, 0, WaitSet);
      kind = HapAccess::Notify;
      return true;
    case OpKind::Read:
    case OpKind::Write:
      key = key_of(op.obj, uint64_t(op.slot), Fields);
      kind = op.kind == OpKind::Write ? HapAccess::Write : HapAccess::Read;
      return true;
    case OpKind::Sync:
      key = key_of(op.obj, 0, Juc);
      kind = op.write ? HapAccess::Write : HapAccess::Read;
      return true;
    default:
      return false;
  }
}

std::vector<HapPair> HapsetLearner::pairs_of(ThreadId t, uint64_t obj, HapAccess kind,
                                             uint64_t where) const {
  std::vector<HapPair> out;
  auto it = last_.find(obj);
  if (it == last_.end()) return out;
  any_pair(it->second, t, kind, where, [&](const HapPair& p) {
    out.push_back(p);
    return false;
  });
  return out;
}

bool HapsetLearner::would_be_new(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) const {
  auto it = last_.find(obj);
  return it != last_.end() &&
         any_pair(it->second, t, kind, where, [&](const HapPair& p) { return !seen(p); });
}

size_t HapsetLearner::event(ThreadId t, uint64_t obj, HapAccess kind, uint64_t where) {
  size_t fresh = 0;
  std::vector<Last>& lasts = last_[obj];
  any_pair(lasts, t, kind, where, [&](const HapPair& p) {
    uint64_t id = pair_id(p);
    if (current_.emplace(id, p).second) {
      current_order_.push_back(id);
      fresh += known_.count(id) == 0;
    }
    return false;
  });
  current_new_ += fresh;
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
  current_.clear();
  current_order_.clear();
  current_new_ = 0;
}

void HapsetLearner::end_execution(bool passed) {
  if (passed) {
    for (uint64_t id : current_order_) {
      if (known_.insert(id).second) learned_.push_back(current_.at(id));
    }
  }
  next_execution();
}

}  // namespace jsched::sched
