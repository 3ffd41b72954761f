// RAPOS, random partial-order sampling (Sen, Effective Random Testing of Concurrent Programs,
// Figs. 4 and 5; docs/references.md).
//
// `schedulable` starts as every enabled transition. Each round draws `scheduled`, a random
// subset of `schedulable` whose transitions are mutually independent (RandIndependentSubset),
// and executes it one transition after another, in a random order, with no decision in
// between. The next `schedulable` holds the enabled transitions dependent on something executed
// during the round (which includes the next transitions of the threads that ran); the others
// wait, as in a sleep set. If that leaves nothing, one random enabled transition is added.
//
// Operations the model applies on arrival (monitor releases, starts, ends, waits) are events
// of the round too, so what they wake becomes schedulable. Steps that touch nothing shared
// (a thread's first step, the step after a release or start) run at once, outside rounds.
//
// `wake` is our addition: each round, each delayed transition also becomes schedulable again
// with that probability. With 0 (the paper), a transition independent of everything the others
// do next (a lock no other thread takes) waits until nothing else is schedulable, so runs turn
// nearly sequential and the partial orders behind that thread's later steps are never sampled.
#pragma once

#include <deque>
#include <vector>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"

namespace jsched::sched {

class RaposStrategy : public Strategy {
 public:
  // The default wake probability; 0 is Sen's algorithm.
  static constexpr double kDefaultWake = 0.1;

  explicit RaposStrategy(uint64_t seed, double wake = kDefaultWake) : rng_(seed), wake_(wake) {}

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  void forced(const Candidate& only, uint64_t step) override;
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }
  void on_executed(ThreadId t, const Op& op) override { executed_.push_back(Candidate{t, op}); }

 private:
  void new_round(const std::vector<Candidate>& enabled);

  Rng rng_;
  double wake_;
  bool started_ = false;
  std::deque<ThreadId> scheduled_;   // the rest of this round, in execution order
  std::vector<Candidate> executed_;  // events since the round's schedulable set was computed
  std::vector<Candidate> schedulable_, chosen_;  // new_round's buffers, kept to save allocations
};

}  // namespace jsched::sched
