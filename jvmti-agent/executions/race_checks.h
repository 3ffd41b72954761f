// Race-check profile runs (agent options profile= and accesses=shared with a plan that records
// sharing; docs/agent.md, "Plan files"): the plan's shared variables' accesses were followed by
// the race detector, and the run's profile says which of them raced. A shared variable checked
// in some run and never raced in any is only handed from thread to thread through
// synchronization: under accesses=shared its accesses are no points (shared_accesses.h).
#pragma once

#include "jvmti-agent/instrumentation/site_registry.h"
#include "scheduler/pct/variable_plan.h"
#include "scheduler/races/race_detector.h"

namespace jsched::agent {

// Marks every shared variable of `plan` checked in `profile` (adding it there if the run did not
// count it), and raced where a race of `races` was at one of its accesses. Checks nothing when
// the detector stopped following new locations, or when a race is at an access no shared
// variable of the plan names: what it missed could be a race of any of them.
void mark_race_checks(const sched::VariablePlan& plan, const sched::RaceDetector& races,
                      const SiteRegistry& sites, sched::VariablePlan& profile);

}  // namespace jsched::agent
