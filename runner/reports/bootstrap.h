// The bootstrap of Dwyer et al.'s PRSS paper (docs/references.md): from a pool of independent runs,
// the expected runs and wall time to the first finding when N workers run in parallel and the first
// finding wins.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/batch/run_record.h"

namespace jsched::runner {

struct BootstrapRow {
  int workers;
  double runs_per_worker;  // expected runs each worker makes until the first finding
  double seconds;          // expected wall time to the first finding
  double speedup;          // seconds with 1 worker / seconds with N
};

// `pool`: the runs of one (program, strategy) cell. Each trial draws, for each of N workers, a
// sequence of runs with replacement until one finds something, and keeps the fastest worker;
// the figures are means over `trials` trials. Empty when no run of the pool found anything.
std::vector<BootstrapRow> bootstrap(const std::vector<const RunRecord*>& pool, int trials,
                                    uint64_t seed);

std::string bootstrap_text(const std::string& cell, const std::vector<BootstrapRow>& rows);

}  // namespace jsched::runner
