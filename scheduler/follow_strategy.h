// Follows a schedule leniently, as `jsched minimize` needs: at each choice, the thread the
// schedule names if it is enabled; otherwise (the schedule says `t -`, names a thread that is not
// enabled, or has run out) the thread that ran the step before goes on if it can, else the
// lowest enabled one. So a schedule with some of its pre-emptions taken out still runs to an
// end, without pre-empting anywhere else; its recording (record=) is then an exact schedule.
#pragma once

#include "scheduler/schedule_log.h"

namespace jsched::sched {

class FollowStrategy : public Strategy {
 public:
  explicit FollowStrategy(const ScheduleLog& guide) : guide_(guide) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice kind, size_t n) override;
  void forced(const Candidate& only, uint64_t) override { last_ = only.thread; }

 private:
  const ScheduleLog& guide_;
  size_t pos_ = 0;
  ThreadId last_ = kNoThread;
};

}  // namespace jsched::sched
