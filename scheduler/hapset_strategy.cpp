#include "scheduler/hapset_strategy.h"

namespace jsched::sched {

HapsetStrategy::HapsetStrategy(uint64_t seed, std::unique_ptr<Strategy> base,
                               const HapsetLearner& learner, double prefer)
    : base_(std::move(base)), learner_(learner), prefer_(prefer), rng_(~seed) {}

size_t HapsetStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  fresh_.clear();
  for (size_t i = 0; i < enabled.size(); ++i) {
    const Op& op = enabled[i].op;
    uint64_t key;
    HapAccess access;
    // A waiting thread's candidate is its wake-up, not a new wait.
    if (op.kind == OpKind::Wait || !hap_event_of(op, key, access)) continue;
    if (learner_.would_be_new(enabled[i].thread, key, access, op.where)) fresh_.push_back(i);
  }
  if (!fresh_.empty() && rng_.coin(prefer_)) {
    ++steered_;
    return fresh_[rng_.below(fresh_.size())];
  }
  return base_->choose(enabled, step);
}

}  // namespace jsched::sched
