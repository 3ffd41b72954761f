// SURW, selectively uniform random walk (Zhao, Wolff, Mathur, Roychoudhury, Selectively
// Uniform Concurrency Testing, ASPLOS 2025; docs/references.md). A random walk that picks a
// thread with probability proportional to the number of events it has left, which makes every
// interleaving of those events equally likely (a plain random walk favours the orders where
// threads take turns early). The counts come from profile runs (a plan's thread-events, by
// thread creation index). Selective: a step that touches nothing shared the model can see (a
// thread's first step, the step after a release) is not counted; a thread picked by weight runs
// such steps and then its next counted step, so the counted steps' interleavings stay uniform.
// Those steps are not run at once either: the code behind them may touch what the model cannot
// see (an uninstrumented JDK collection), and running it first would put it before every other
// thread's next step, always (a modification racing with another thread's iteration could
// never happen in the middle of it). Every thread keeps weight at least 1, so every
// interleaving stays possible when the counts are wrong or unknown.
#pragma once

#include <optional>
#include <vector>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"

namespace jsched::sched {

class SurwStrategy : public Strategy {
 public:
  // `expected[t]`: the events thread t (by creation index) executes in a run (0 or missing:
  // unknown).
  SurwStrategy(uint64_t seed, std::vector<uint64_t> expected)
      : rng_(seed), expected_(std::move(expected)) {}

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  void forced(const Candidate& only, uint64_t) override;
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }

  // The events SURW weighs.
  static bool counted(const Op& op) { return touches_shared(op); }

 private:
  void count(const Candidate& c);
  uint64_t remaining(ThreadId t) const;

  Rng rng_;
  std::vector<uint64_t> expected_, done_;
  // The thread picked for its next counted step while it runs the uncounted steps before it.
  std::optional<ThreadId> picked_;
};

}  // namespace jsched::sched
