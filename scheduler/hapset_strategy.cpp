#include "scheduler/hapset_strategy.h"

namespace jsched::sched {

HapsetStrategy::HapsetStrategy(uint64_t seed, std::unique_ptr<Strategy> base,
                               const HapsetLearner& learner, double prefer)
    : base_(std::move(base)), learner_(learner), prefer_(prefer), rng_(~seed) {}

namespace {

struct Access {
  bool event = false;
  uint64_t key = 0;
  HapAccess kind = HapAccess::Read;
};

Access access_of(const Op& op) {
  Access a;
  // A waiting thread's candidate is its wake-up, not a new wait.
  a.event = op.kind != OpKind::Wait && hap_event_of(op, a.key, a.kind);
  return a;
}

}  // namespace

size_t HapsetStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  fresh_.clear();
  opening_.clear();
  std::vector<Access> acc(enabled.size());
  for (size_t i = 0; i < enabled.size(); ++i) acc[i] = access_of(enabled[i].op);
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (!acc[i].event) continue;
    const Candidate& c = enabled[i];
    if (learner_.would_be_new(c.thread, acc[i].key, acc[i].kind, c.op.where)) {
      fresh_.push_back(i);
      continue;
    }
    // Would c's access, followed at once by u's pending one, be a new pair (c -> u)?
    for (size_t j = 0; j < enabled.size(); ++j) {
      const Candidate& u = enabled[j];
      if (j == i || !acc[j].event || acc[j].key != acc[i].key ||
          !hap_conflict(acc[i].kind, acc[j].kind))
        continue;
      uint8_t thr = u.thread < c.thread ? 0 : 1;
      if (!learner_.seen(HapPair{{c.op.where, uint8_t(1 - thr)}, {u.op.where, thr}})) {
        opening_.push_back(i);
        break;
      }
    }
  }
  const std::vector<size_t>& pick = fresh_.empty() ? opening_ : fresh_;
  if (!pick.empty() && rng_.coin(prefer_)) {
    ++steered_;
    return pick[rng_.below(pick.size())];
  }
  return base_->choose(enabled, step);
}

}  // namespace jsched::sched
