// Profile executions before planned ones (docs/runner.md, "PCT and PCTVB: the profile phase"):
// strategy pctvb draws its variables and change points from a plan of the program's variables (Q,
// k_q); pct without steps= takes its step count k from one. The runner makes the plan: a few
// executions of the program under the random strategy with the agent's profile= option, merged
// (maxima).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/batch.h"
#include "runner/json.h"
#include "runner/run_record.h"

namespace jsched::runner {

// Whether runs of `s` need a plan: pctvb always, pct unless steps= or plan= is given.
bool needs_plan(const RunSpec& s);

// Adds plan=FILE to every spec that needs one. Each program (with the agent options that
// change what is counted) is profiled once, the batch's `profile_runs` executions (default
// 10) with seeds derived from its master seed, into DIR/profile/; a plan already there (a
// resumed batch) is reused, so every shard of a batch computes the same plan. Throws
// std::runtime_error with the reason.
void attach_plans(std::vector<RunSpec>& specs, const json::Value& batch, const std::string& dir,
                  const BatchOptions& opts);

}  // namespace jsched::runner
