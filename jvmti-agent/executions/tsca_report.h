// The "tsca" part of an execution's report: the blocks that ran and the t-way coverage they
// reached, alone and added to what the plan had covered.
#pragma once

#include <string>

#include "scheduler/tsca/block_trace.h"
#include "scheduler/tsca/tsca_planner.h"

namespace jsched::agent {

// JSON object; `planner` holds what the plan knew and covered (nothing without a plan) and
// learns this execution.
std::string tsca_report(const sched::BlockTrace& trace, sched::TscaPlanner& planner,
                        size_t skipped);

}  // namespace jsched::agent
