// Whether a profile run taught a plan something its planned runs would use, so that the
// profile phase can stop once runs keep repeating what is known (docs/runner.md, "PCT and
// PCTVB: the profile phase").
#pragma once

#include <cstddef>

#include "scheduler/pct/variable_plan.h"

namespace jsched::sched {

// What counts: a variable shared that was not known shared (or any new variable when the plan
// does not record sharing), an access site of a shared variable, and a count (steps, threads,
// with `variable_counts` a shared variable's accesses) more than 10% above the known maximum; a
// thread's events when they are, by more than a tenth of the known steps: SURW's weights are
// shares of the whole, and a search index's 30 merge threads of about 1,000 events each in runs
// of 100,000 steps, some of them more in each run than before, and one merge more in one run
// in two, kept its phase going for all ten runs. A new variable only one thread touched does not:
// programs that generate classes (Derby names them after a UUID) have new ones in every run, and
// none is ever seen again. A variable's count is read by pctvb alone; on a database it rises a
// little in run after run, and would keep every other strategy's phase going for nothing.
//
// New access sites of variables already shared teach when there are at least one per
// kSitesPerNewSite sites known (or one, below that many): a database's bank showed 2,826 sites
// of shared variables in its first profile run and 0 to 18 more in each of the next nine (54 in
// all: the rare paths of a big program), so that its phase never ended, each run costing what an
// execution does.
constexpr size_t kSitesPerNewSite = 100;
bool teaches(const VariablePlan& known, const VariablePlan& run, bool variable_counts);

}  // namespace jsched::sched
