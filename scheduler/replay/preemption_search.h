// The schedule with the fewest pre-emptions (switches away from a thread that could have gone
// on) that still ends in the same finding: delta debugging over a recorded run's pre-emptions,
// after Choi and Zeller, then greedy removal of each one left. How a candidate runs (a JVM of
// its own for `jsched minimize`, an execution in the test's JVM under Surefire) is the
// caller's.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "scheduler/replay/schedule_log.h"

namespace jsched::sched {

struct PreemptionSearch {
  // Runs an execution that follows `guide` (FollowStrategy) and records it: the recording when
  // the execution ended in the finding sought, nothing otherwise.
  std::function<std::optional<ScheduleLog>(const ScheduleLog& guide)> follow;
  std::function<bool()> out_of_budget;
};

size_t count_preemptions(const ScheduleLog& log);

// The recording with the fewest pre-emptions met (`original` when no candidate had fewer).
ScheduleLog fewest_preemptions(const ScheduleLog& original, const PreemptionSearch& search);

// What must stay the same for a schedule to end in "the same finding": the kind (bug,
// deadlock, hang), and for a bug the throwable's class and its first frame, for a deadlock the
// frames the threads wait at (values in messages may change with the schedule; where it fails
// may not). `detail` is the finding's text as reports carry it.
std::string finding_identity(const std::string& kind, const std::string& detail);

}  // namespace jsched::sched
