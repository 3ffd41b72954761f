#include "scheduler/follow_strategy.h"

namespace jsched::sched {

size_t FollowStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  ThreadId want = kNoThread;
  // The guide's next thread choice (its auxiliary choices are taken by choose_aux).
  while (pos_ < guide_.decisions.size() && guide_.decisions[pos_].kind != Decision::Thread) ++pos_;
  if (pos_ < guide_.decisions.size()) want = guide_.decisions[pos_++].value;
  size_t pick = enabled.size();
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (enabled[i].thread == want) pick = i;
  }
  for (size_t i = 0; i < enabled.size() && pick == enabled.size(); ++i) {
    if (enabled[i].thread == last_) pick = i;
  }
  if (pick == enabled.size()) pick = 0;
  last_ = enabled[pick].thread;
  return pick;
}

size_t FollowStrategy::choose_aux(AuxChoice, size_t n) {
  if (pos_ < guide_.decisions.size() && guide_.decisions[pos_].kind == Decision::Aux) {
    uint32_t v = guide_.decisions[pos_++].value;
    if (v < n) return v;
  }
  return 0;
}

}  // namespace jsched::sched
