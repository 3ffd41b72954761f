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

size_t SurwStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  eager_.clear();
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (!counted(enabled[i].op)) eager_.push_back(i);
  }
  if (!eager_.empty()) return eager_[rng_.below(eager_.size())];
  uint64_t total = 0;
  for (const Candidate& c : enabled) total += remaining(c.thread);
  uint64_t x = rng_.below(total);
  size_t pick = enabled.size() - 1;
  for (size_t i = 0; i < enabled.size(); ++i) {
    const uint64_t w = remaining(enabled[i].thread);
    if (x < w) {
      pick = i;
      break;
    }
    x -= w;
  }
  count(enabled[pick]);
  return pick;
}

}  // namespace jsched::sched
