#include "scheduler/hapset/hapset_strategy.h"

namespace jsched::sched {

HapsetStrategy::HapsetStrategy(uint64_t seed, std::unique_ptr<Strategy> base,
                               const HapsetLearner& learner, double prefer)
    : base_(std::move(base)), learner_(learner), prefer_(prefer), rng_(~seed) {}

size_t HapsetStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  fresh_.clear();
  opening_.clear();
  acc_.resize(enabled.size());
  for (size_t i = 0; i < enabled.size(); ++i) {
    const Op& op = enabled[i].op;
    // A waiting thread's candidate is its wake-up, not a new wait.
    acc_[i].event = op.kind != OpKind::Wait && hap_event_of(op, acc_[i].key, acc_[i].kind);
  }
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (!acc_[i].event) continue;
    const Candidate& c = enabled[i];
    if (learner_.would_be_new(c.thread, acc_[i].key, acc_[i].kind, c.op.where)) {
      fresh_.push_back(i);
      continue;
    }
    // Would c's access, followed at once by u's pending one, be a new pair (c -> u)?
    for (size_t j = 0; j < enabled.size(); ++j) {
      const Candidate& u = enabled[j];
      if (j == i || !acc_[j].event || acc_[j].key != acc_[i].key ||
          !hap_conflict(acc_[i].kind, acc_[j].kind))
        continue;
      if (!learner_.seen(ordered_pair(c.thread, c.op.where, u.thread, u.op.where))) {
        opening_.push_back(i);
        break;
      }
    }
  }
  const std::vector<size_t>& pick = fresh_.empty() ? opening_ : fresh_;
  if (!pick.empty() && rng_.coin(prefer_)) return pick[rng_.below(pick.size())];
  return base_->choose(enabled, step);
}

}  // namespace jsched::sched
