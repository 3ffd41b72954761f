// strategy=hapset: steers toward interleavings that create an ordering pair no
// passing execution has shown (Wang et al.'s HaPSet paper, §5, treats those as high-risk;
// docs/references.md). At a scheduling point,
// with probability `prefer`, a uniformly chosen enabled thread runs whose pending operation
// would create such a pair; failing that, one after whose operation another enabled thread's
// pending operation would (a conflicting access slipped in between another thread's two
// accesses: the shape of an atomicity violation, which takes two such steps). Otherwise the
// base strategy (random or RAPOS) decides.
#pragma once

#include <memory>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"
#include "scheduler/hapset/hapset.h"

namespace jsched::sched {

class HapsetStrategy : public Strategy {
 public:
  // `learner` is the one the model feeds (it holds this execution's history).
  HapsetStrategy(uint64_t seed, std::unique_ptr<Strategy> base, const HapsetLearner& learner,
                 double prefer);

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice kind, size_t n) override { return base_->choose_aux(kind, n); }
  void forced(const Candidate& only, uint64_t step) override { base_->forced(only, step); }
  void on_thread_created(ThreadId t, ThreadId parent) override {
    base_->on_thread_created(t, parent);
  }
  void on_arrive(ThreadId t, const Op& op) override { base_->on_arrive(t, op); }
  void on_executed(ThreadId t, const Op& op) override { base_->on_executed(t, op); }

 private:
  std::unique_ptr<Strategy> base_;
  const HapsetLearner& learner_;
  double prefer_;
  Rng rng_;
  // Per choice, kept to spare allocations: each candidate's access, and the candidates that
  // create / open a new pair.
  struct Access {
    bool event = false;
    uint64_t key = 0;
    HapAccess kind = HapAccess::Read;
  };
  std::vector<Access> acc_;
  std::vector<size_t> fresh_, opening_;
};

}  // namespace jsched::sched
