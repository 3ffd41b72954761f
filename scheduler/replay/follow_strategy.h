// Follows a schedule leniently, as `jsched minimize` needs, by each thread's own progress
// rather than by position: the running thread goes on until it blocks or ends, unless the
// schedule pre-empts it at that point of its own run (after as many steps as it had then run),
// in which case the thread the schedule switched to runs (with `anchor sites`, when it is about
// to perform the operation at the site it was pre-empted before, as often as then, whatever
// its step count). When the running thread cannot go
// on, the enabled thread whose next scheduled step comes first in the schedule runs. So taking
// a pre-emption out of a schedule (clearing its `p`) lets the pre-empted thread go on and moves
// nothing else: the other threads' steps keep their place in their own runs. The recording
// (record=) of a run that follows a guide is an exact schedule.
#pragma once

#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scheduler/replay/schedule_log.h"

namespace jsched::sched {

class FollowStrategy : public Strategy {
 public:
  explicit FollowStrategy(const ScheduleLog& guide);
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice kind, size_t n) override;
  void forced(const Candidate& only, uint64_t) override {
    last_ = only.thread;
    steps_.add(only.thread);
    sites_.add(only.thread, only.op.site);
  }

 private:
  // Position in the guide's thread choices of each thread's choices, in order.
  std::unordered_map<ThreadId, std::vector<size_t>> order_;
  std::vector<size_t> chosen_;  // choices each thread got so far, by thread
  // The guide's pre-emptions: (thread, steps it had run) -> the thread that ran instead.
  std::map<std::pair<ThreadId, uint64_t>, ThreadId> switches_;
  // With `anchor sites`: (thread, site, steps it had run at that site) -> the thread instead.
  std::map<std::tuple<ThreadId, int32_t, uint32_t>, ThreadId> site_switches_;
  std::vector<uint32_t> aux_;
  size_t aux_pos_ = 0;
  StepCounts steps_;
  SiteCounts sites_;
  ThreadId last_ = kNoThread;
};

}  // namespace jsched::sched
