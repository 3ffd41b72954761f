// Building TSCA's covering schedules (Çalpur's thesis §5, docs/references.md;
// docs/strategies.md, tsca): orders of blocks that are valid
// interleavings of the threads' known block sequences, chosen to cover many uncovered t-way
// sequences.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/core/op.h"
#include "scheduler/core/rng.h"
#include "scheduler/tsca/block_knowledge.h"
#include "scheduler/tsca/sequence_coverage.h"

namespace jsched::sched {

struct CoveringSchedule {
  std::vector<uint32_t> blocks;  // block ids, in the order they should run
  size_t gain = 0;               // uncovered sequences it covers if followed exactly
};

// How a candidate interleaving is drawn.
enum class Construction : uint8_t {
  Greedy,   // append the block that completes the most uncovered sequences (ties at random)
  Uniform,  // append the next block of a uniformly random thread
  Rates,    // threads progress as Poisson processes with random rates and start times, so
            // candidates range from near-serial to finely interleaved
  Pack,     // take uncovered sequences in random order, keep each whose order is consistent
            // with those kept so far, then interleave to respect them all
};

// One valid interleaving of the threads' known block sequences (edges respected), and how
// many of `c`'s uncovered sequences it covers. `target` (optional, one sequence's block ids)
// must occur in order.
CoveringSchedule build_schedule(const BlockKnowledge& k, const SequenceCoverage& c, Rng& rng,
                                Construction how, const std::vector<uint32_t>* target = nullptr);

// The threads whose blocks the schedule runs, in order (what the agent follows).
std::vector<ThreadId> schedule_threads(const BlockKnowledge& k,
                                       const std::vector<uint32_t>& blocks);

}  // namespace jsched::sched
