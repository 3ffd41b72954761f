// The TSCA loop (Çalpur's thesis §5, docs/references.md; docs/strategies.md, tsca) without a JVM:
// learns from each execution's blocks, tracks t-way coverage, and proposes the next schedules:
// greedy covering schedules while they promise new sequences, then one schedule per remaining
// sequence. The runner drives it with real executions, the abstract-program tests with modelled
// ones.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "scheduler/tsca/block_knowledge.h"
#include "scheduler/tsca/covering_schedule.h"
#include "scheduler/tsca/sequence_coverage.h"

namespace jsched::sched {

struct CoverageProgress {
  size_t here = 0;     // sequences this execution covered
  size_t fresh = 0;    // of those, not covered before
  size_t covered = 0;  // covered so far
  size_t known = 0;    // feasible sequences over the blocks known so far
  double percent() const { return known ? 100.0 * double(covered) / double(known) : 100.0; }
};

class TscaPlanner {
 public:
  // `attempts`: candidate schedules drawn by `how` per proposal, the one covering most kept.
  explicit TscaPlanner(uint32_t t, uint32_t attempts = 8, Construction how = Construction::Pack);

  CoverageProgress add(const BlockTrace& trace);
  // Up to n block schedules for the next executions; empty when nothing is left to try
  // (full coverage, or every remaining sequence targeted twice without success).
  std::vector<CoveringSchedule> next(size_t n, Rng& rng);
  bool complete() const { return coverage_->covered() == coverage_->known(); }

  const BlockKnowledge& knowledge() const { return knowledge_; }
  const SequenceCoverage& coverage() const { return *coverage_; }
  // Rebuilds from a plan file's contents.
  void restore(BlockKnowledge k, std::unique_ptr<SequenceCoverage> c);

 private:
  uint32_t t_, attempts_;
  Construction how_;
  BlockKnowledge knowledge_;
  std::unique_ptr<SequenceCoverage> coverage_;
  std::map<std::vector<uint32_t>, int> targeted_;
};

}  // namespace jsched::sched
