// `jsched run --strategy tsca`: exploration executions, then rounds of covering schedules
// built from everything learned so far, until every known t-way sequence is covered, nothing
// is left to try, or the execution budget (--runs) is spent. Each record carries the
// cumulative coverage after it, for the report's coverage curve.
#pragma once

#include "protocol/json.h"
#include "runner/batch/batch.h"
#include "runner/batch/results_dir.h"

namespace jsched::runner {

// `batch`: a run batch (command, params, seed, runs, timeout) with "t" and "explore".
// Returns the executions run now. Throws std::runtime_error when an execution gives no block
// trace (the agent failed).
uint64_t run_tsca_batch(const json::Value& batch, ResultsDir& dir, const BatchOptions& opts);

}  // namespace jsched::runner
