// The "tsca" part of an execution's report: the blocks that ran and the t-way coverage they
// reached, alone and added to what the plan had covered.
#pragma once

#include <string>

#include "scheduler/block_trace.h"
#include "scheduler/tsca_plan.h"

namespace jsched::agent {

// JSON object; `plan` may be null (no plan: coverage counts this execution alone).
std::string tsca_report(const sched::BlockTrace& trace, const sched::TscaPlan* plan, uint32_t t,
                        size_t skipped);

}  // namespace jsched::agent
