// POS, partial order sampling (Yuan, Yang, Gu, Partial Order Aware Concurrency Sampling, CAV
// 2018; docs/references.md). Every pending event has a random priority; the enabled event with
// the highest priority runs. After an event runs, the pending events that race with it (the
// dependence of docs/architecture.md: same object, a write or a lock among them) get fresh
// priorities, and so does the next event of the thread that ran (a fresh priority on arrival).
// A thread whose event keeps losing is never starved for long: each event it races with redraws
// its priority. It samples partial orders far more evenly than a random walk.
#pragma once

#include <unordered_map>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"

namespace jsched::sched {

class PosStrategy : public Strategy {
 public:
  explicit PosStrategy(uint64_t seed) : rng_(seed) {}

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }
  void on_arrive(ThreadId t, const Op& op) override;
  void on_executed(ThreadId t, const Op& op) override;

 private:
  double fresh() { return double(rng_.next() >> 11) * 0x1.0p-53; }

  struct Pending {
    Op op;
    double priority = 0;
  };
  Rng rng_;
  std::unordered_map<ThreadId, Pending> pending_;
};

}  // namespace jsched::sched
