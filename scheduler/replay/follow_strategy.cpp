#include "scheduler/replay/follow_strategy.h"

#include <limits>

namespace jsched::sched {

FollowStrategy::FollowStrategy(const ScheduleLog& guide) {
  size_t pos = 0;
  ThreadId before = kNoThread;
  for (const Decision& d : guide.decisions) {
    if (d.kind == Decision::Aux) {
      aux_.push_back(d.value);
      continue;
    }
    if (d.value == kNoThread) continue;  // `t -`: nobody named
    // Files without the pre-empted thread: the thread of the choice before (forced steps in
    // between are not recorded, so this is a guess).
    if (d.preempt && guide.anchor_sites && d.from_at_site && d.from != kNoThread)
      site_switches_[{d.from, d.from_site, d.from_nth}] = d.value;
    else if (d.preempt)
      switches_[{d.from != kNoThread ? d.from : before, d.from_steps}] = d.value;
    order_[d.value].push_back(pos++);
    before = d.value;
  }
}

size_t FollowStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  constexpr size_t kNone = std::numeric_limits<size_t>::max();
  auto index_of = [&](ThreadId t) {
    for (size_t i = 0; i < enabled.size(); ++i)
      if (enabled[i].thread == t) return i;
    return kNone;
  };
  // The enabled thread (other than `skip`) whose next scheduled choice comes first; threads
  // the guide has no more choices for come last, lowest first.
  auto earliest = [&](ThreadId skip) {
    size_t best = kNone, best_pos = kNone;
    for (size_t i = 0; i < enabled.size(); ++i) {
      ThreadId t = enabled[i].thread;
      if (t == skip) continue;
      size_t p = kNone;
      const size_t done = t < chosen_.size() ? chosen_[t] : 0;
      if (auto it = order_.find(t); it != order_.end() && done < it->second.size())
        p = it->second[done];
      if (best == kNone || p < best_pos) {
        best = i;
        best_pos = p;
      }
    }
    return best;
  };
  // The thread the guide switches to when `last_` is pre-empted here (kNoThread: it is not).
  auto switch_to = [&](size_t running) {
    if (auto sw = switches_.find({last_, steps_.of(last_)}); sw != switches_.end())
      return sw->second;
    const int32_t site = enabled[running].op.site;
    if (auto sw = site_switches_.find({last_, site, sites_.of(last_, site)});
        sw != site_switches_.end())
      return sw->second;
    return kNoThread;
  };
  size_t pick = index_of(last_);
  if (pick != kNone) {
    if (ThreadId instead = switch_to(pick); instead != kNoThread) {
      size_t to = index_of(instead);
      if (to == kNone) to = earliest(last_);
      if (to != kNone) pick = to;
    }
  } else {
    pick = earliest(kNoThread);
  }
  const ThreadId t = enabled[pick].thread;
  if (t >= chosen_.size()) chosen_.resize(size_t(t) + 1, 0);
  ++chosen_[t];
  steps_.add(t);
  sites_.add(t, enabled[pick].op.site);
  last_ = t;
  return pick;
}

size_t FollowStrategy::choose_aux(AuxChoice, size_t n) {
  if (aux_pos_ < aux_.size()) {
    uint32_t v = aux_[aux_pos_++];
    if (v < n) return v;
  }
  return 0;
}

}  // namespace jsched::sched
