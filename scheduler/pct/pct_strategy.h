// PCT, probabilistic concurrency testing (Burckhardt et al., as restated in Bindal et al.'s
// PCTVB paper, §3; docs/references.md):
// threads get distinct random priorities above d; d-1 change points k_1..k_{d-1} are drawn
// from [1, k]; the highest-priority enabled thread always runs, and the thread that executes
// step k_i drops to priority i.
//
// Variants:
//  * thread-bounded priorities (Bindal et al. §4): priorities are the positions of a random
//    permutation of n + c values; the i-th change point gives the thread P_{n+i} instead of i
//    (drawn lazily: each new value is a fresh uniform random number, which orders them as a
//    uniform random permutation would);
//  * PCTVB (Bindal et al. §3): change points are drawn among the accesses to a few chosen
//    variables (counted globally, across threads), not among all steps.
//
// Spin loops: a thread that waits by spinning for a lower-priority thread would spin forever.
// As Bindal et al. do (§5), a thread that has yielded (Thread.yield, onSpinWait) more than
// kYieldsBeforeLowering times drops below every other thread, and counts again from zero.
// Sleeping and waking from a timed wait by its timeout count as yielding: a thread that polls
// with sleep(10) (a daemon's loop, say) gives way in real time, and would otherwise starve
// every lower thread for ever (a false hang). So does a thread that only reads, at
// kSpinReads scheduling points in a row (a spin on a volatile or a VarHandle without
// onSpinWait): it waits for another thread's write, which its priority would never let happen.
// Starvation: a thread that could run but has waited kStarvedSteps steps in a row for its turn
// rises above every other thread, as no real scheduler leaves a runnable thread waiting that
// long (at 1 us a step, a second of virtual time). Pollers whose loops also write (a latch's
// countDown, a lock they take), or threads handing work to each other, would otherwise starve
// the thread they wait for until the execution's budget.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"
#include "scheduler/core/strategy_args.h"

namespace jsched::sched {

struct PctOptions {
  uint32_t depth = 3;    // d: one more than the number of change points
  uint64_t steps = 0;    // k: steps (or tracked accesses for PCTVB) in a run; 0 = unknown
  bool bounded = false;  // thread-bounded priority generator
  // PCTVB: the candidate variables with their access bounds k_q, and how many to pick (v).
  // Empty: plain PCT (change points among all steps).
  std::vector<std::pair<uint64_t, uint64_t>> variables;  // (variable id, k_q)
  uint32_t vars = 1;
};

// PCT's options (PCTVB's with `variable_bounded`) from its factory's arguments; steps stay 0
// when neither steps= nor a plan gives them. PCTVB without candidate variables: throws
// std::invalid_argument.
PctOptions pct_options(const StrategyArgs& a, bool variable_bounded);

class PctStrategy : public Strategy {
 public:
  static constexpr uint32_t kYieldsBeforeLowering = 100;
  static constexpr uint32_t kSpinReads = 1000;
  static constexpr uint64_t kStarvedSteps = 1'000'000;

  PctStrategy(uint64_t seed, const PctOptions& opts);

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  // Change points count every step, forced ones included.
  void forced(const Candidate& only, uint64_t step) override;
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }
  void on_thread_created(ThreadId t, ThreadId parent) override;
  void on_executed(ThreadId t, const Op& op) override;

  // PCTVB: the variables drawn for this run (their accesses are the only places where a
  // change point can fall).
  const std::vector<uint64_t>& chosen_variables() const { return chosen_; }
  bool tracks(uint64_t var) const { return tracked_.count(var) != 0; }
  // The change points on a chosen variable: (access number j, change point i), by j.
  std::vector<std::pair<uint64_t, uint32_t>> change_points_of(uint64_t var) const;
  // Change point i happens in thread t: for callers that count accesses themselves (the agent
  // counts them in Java, without a scheduling point per access).
  // The thread that ran step number `step` drops if that step is a change point.
  void after_step(uint64_t step);
  void change_point(ThreadId t, uint32_t i);

 private:
  double fresh_priority();
  void yielded(ThreadId t);
  void lower(ThreadId t);  // below every other thread
  void raise(ThreadId t);  // above every other thread
  // Raises a candidate that has waited kStarvedSteps for its turn; true if one rose.
  bool raise_starved(const std::vector<Candidate>& enabled, uint64_t step);

  PctOptions opts_;
  Rng rng_;
  std::unordered_map<ThreadId, double> priority_;
  // Change points: the step (PCT) or (variable, access number) (PCTVB) where the i-th falls.
  std::map<uint64_t, uint32_t> step_points_;                         // step -> i
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> access_points_;  // (var, j) -> i
  std::vector<uint64_t> chosen_;
  std::set<uint64_t> tracked_;
  std::unordered_map<uint64_t, uint64_t> accesses_;  // var -> accesses so far
  std::unordered_map<ThreadId, uint32_t> yields_;    // since the thread last dropped
  std::unordered_map<ThreadId, uint32_t> reads_;     // read-only points in a row
  ThreadId last_ = kNoThread;                        // the thread chosen for the last step
  // For each thread: the step from which it has been enabled without being chosen, and the last
  // step at which it was (a gap starts the count again).
  std::unordered_map<ThreadId, std::pair<uint64_t, uint64_t>> passed_over_;
  uint64_t raised_at_ = 0;  // the step of the last rise
};

}  // namespace jsched::sched
