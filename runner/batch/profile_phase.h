// Profile executions before planned ones (docs/runner.md, "PCT and PCTVB: the profile phase"):
// strategy pctvb draws its variables and change points from a plan of the program's variables (Q,
// k_q); pct without steps= takes its step count k from one. The runner makes the plan: a few
// executions of the program under the random strategy with the agent's profile= option, merged
// (maxima).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/json.h"
#include "runner/batch/batch.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/run_record.h"

namespace jsched::runner {

// Whether runs of `s` need a plan: pctvb always, pct unless steps= or plan= is given, a
// registered strategy that asks for one (surw, portfolio) unless plan= is given, and any
// strategy under accesses=shared (the plan says which variables threads share) unless plan=.
bool needs_plan(const RunSpec& s);

// Adds plan=FILE to every spec that needs one. Each program (with the agent options that
// change what is counted) is profiled once, the batch's `profile_runs` executions (default
// 10) with seeds derived from its master seed, into DIR/profile/; a plan already there (a
// resumed batch) is reused, so every shard of a batch computes the same plan. Throws
// std::runtime_error with the reason.
//
// Profile runs are real executions under the random strategy: what they find (a bug, a
// deadlock, a hang) is recorded in `dir` as a run of strategy "profile" (indices from
// kProfileIndexBase, shard 0's), and counts like any finding. A profile run gets twice the
// batch's timeout (it counts every access); the phase prints what its runs came to.
void attach_plans(std::vector<RunSpec>& specs, const json::Value& batch, ResultsDir& dir,
                  const BatchOptions& opts);
inline constexpr uint64_t kProfileIndexBase = 1ULL << 40;
// Profile runs after the counting ones when a run of the plan has accesses=shared: each follows
// the shared variables' accesses with the race detector (docs/runner.md, "The profile phase").
inline constexpr uint32_t kRaceCheckRuns = 2;

// How a message names the run of index `index`: "run 12", or "profile run 3" (counted from 0
// over the batch's plans).
inline std::string run_label(uint64_t index) {
  return index >= kProfileIndexBase ? "profile run " + std::to_string(index - kProfileIndexBase)
                                    : "run " + std::to_string(index);
}

}  // namespace jsched::runner
