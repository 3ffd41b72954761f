#include "scheduler/tsca/tsca_planner.h"

namespace jsched::sched {

TscaPlanner::TscaPlanner(uint32_t t, uint32_t attempts, Construction how)
    : t_(t),
      attempts_(attempts ? attempts : 1),
      how_(how),
      coverage_(std::make_unique<SequenceCoverage>(knowledge_, t)) {}

void TscaPlanner::restore(BlockKnowledge k, std::unique_ptr<SequenceCoverage> c) {
  knowledge_ = std::move(k);
  coverage_ = std::move(c);
}

CoverageProgress TscaPlanner::add(const BlockTrace& trace) {
  bool changed = false;
  std::vector<uint32_t> ids = knowledge_.add(trace, &changed);
  if (changed) {
    auto fresh = std::make_unique<SequenceCoverage>(knowledge_, t_);
    fresh->adopt(*coverage_);
    coverage_ = std::move(fresh);
  }
  CoverageProgress p;
  p.here = coverage_->count(ids);
  p.fresh = coverage_->add(ids);
  p.covered = coverage_->covered();
  p.known = coverage_->known();
  return p;
}

std::vector<CoveringSchedule> TscaPlanner::next(size_t n, Rng& rng) {
  std::vector<CoveringSchedule> out;
  if (knowledge_.size() == 0) return out;
  SequenceCoverage planned = *coverage_;  // what the schedules of this round should cover
  size_t scan = 0;                        // targeting walks the sequences in canonical order
  while (out.size() < n) {
    CoveringSchedule best;
    for (uint32_t a = 0; a < attempts_; ++a) {
      CoveringSchedule s = build_schedule(knowledge_, planned, rng, how_);
      if (a == 0 || s.gain > best.gain) best = std::move(s);
    }
    if (best.gain == 0) {
      // Greedy construction stalls: aim at one remaining sequence at a time.
      bool found = false;
      for (; scan < planned.known() && !found; ++scan) {
        if (planned.is_covered(scan)) continue;
        std::vector<uint32_t> seq = planned.sequence(scan);
        if (targeted_[seq]++ >= 2) continue;
        CoveringSchedule s = build_schedule(knowledge_, planned, rng, how_, &seq);
        if (s.gain > 0) {
          best = std::move(s);
          found = true;
        }
      }
      if (!found) break;
    }
    planned.add(best.blocks);
    out.push_back(std::move(best));
  }
  return out;
}

}  // namespace jsched::sched
