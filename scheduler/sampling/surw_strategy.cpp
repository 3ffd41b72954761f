#include "scheduler/sampling/surw_strategy.h"

namespace jsched::sched {

uint64_t SurwStrategy::remaining(ThreadId t) const {
  const uint64_t want = t < expected_.size() ? expected_[t] : 0;
  const uint64_t had = t < done_.size() ? done_[t] : 0;
  return want > had ? want - had : 1;
}

void SurwStrategy::count(const Candidate& c) {
  if (!counted(c.op)) return;
  if (done_.size() <= c.thread) done_.resize(c.thread + 1, 0);
  ++done_[c.thread];
}

void SurwStrategy::forced(const Candidate& only, uint64_t) {
  if (counted(only.op) && picked_ == only.thread) picked_.reset();
  count(only);
}

size_t SurwStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  size_t pick = enabled.size();
  if (picked_) {
    for (size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i].thread == *picked_) pick = i;
    }
  }
  if (pick == enabled.size()) {  // none picked, or it blocked: a weighted choice
    uint64_t total = 0;
    for (const Candidate& c : enabled) total += remaining(c.thread);
    uint64_t x = rng_.below(total);
    pick = enabled.size() - 1;
    for (size_t i = 0; i < enabled.size(); ++i) {
      const uint64_t w = remaining(enabled[i].thread);
      if (x < w) {
        pick = i;
        break;
      }
      x -= w;
    }
  }
  if (counted(enabled[pick].op)) {
    picked_.reset();
  } else {
    picked_ = enabled[pick].thread;
  }
  count(enabled[pick]);
  return pick;
}

}  // namespace jsched::sched
