#include "scheduler/sampling/pos_strategy.h"

namespace jsched::sched {

void PosStrategy::on_arrive(ThreadId t, const Op& op) {
  pending_[t] = Pending{op, fresh()};
}

void PosStrategy::on_executed(ThreadId t, const Op& op) {
  for (auto& [u, p] : pending_) {
    if (u != t && dependent(t, op, u, p.op)) p.priority = fresh();
  }
}

size_t PosStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  size_t best = 0;
  double top = -1;
  for (size_t i = 0; i < enabled.size(); ++i) {
    auto it = pending_.find(enabled[i].thread);
    // An event the strategy has not seen arrive (a waiter woken by a notify) gets its priority
    // now.
    if (it == pending_.end())
      it = pending_.emplace(enabled[i].thread, Pending{enabled[i].op, fresh()}).first;
    it->second.op = enabled[i].op;
    if (it->second.priority > top) {
      top = it->second.priority;
      best = i;
    }
  }
  return best;
}

}  // namespace jsched::sched
