#include "scheduler/random/rapos_strategy.h"

namespace jsched::sched {

namespace {

// A thread's first step and the step after a release or a start touch nothing the model sees,
// so they run at once. Known gap: the code behind them may touch what the model cannot see (an
// uninstrumented collection), which then always runs before the other threads' next steps. As
// transitions of rounds they cost a round per release, or let the thread's next transition
// escape its delay (docs/strategies.md, rapos).
bool runs_at_once(const Op& op) {
  return op.kind == OpKind::Begin || op.kind == OpKind::Continue;
}

bool dependent_on(const Candidate& c, const std::vector<Candidate>& set) {
  for (const Candidate& s : set) {
    if (dependent(c.thread, c.op, s.thread, s.op)) return true;
  }
  return false;
}

}  // namespace

void RaposStrategy::new_round(const std::vector<Candidate>& enabled) {
  // schedulable: everything at the start; then what depends on the round just executed.
  std::vector<Candidate>& schedulable = schedulable_;
  schedulable.clear();
  for (const Candidate& c : enabled) {
    // Draw only for delayed transitions, so that wake=0 makes exactly the paper's draws.
    if (!started_ || dependent_on(c, executed_) || (wake_ > 0 && rng_.coin(wake_)))
      schedulable.push_back(c);
  }
  started_ = true;
  executed_.clear();
  if (schedulable.empty()) schedulable.push_back(enabled[rng_.below(enabled.size())]);
  // RandIndependentSubset (Fig. 5): a random first element, then each other element that is
  // independent of all chosen so far, with probability 1/2. The others are visited in a random
  // order: in a fixed one, of several transitions that exclude each other (one lock) the first
  // visited would be taken twice as often as the next, and so on.
  rng_.shuffle(schedulable);
  std::vector<Candidate>& chosen = chosen_;
  chosen.assign(1, schedulable[0]);
  for (size_t i = 1; i < schedulable.size(); ++i) {
    if (dependent_on(schedulable[i], chosen)) continue;
    if (rng_.below(2) == 0) chosen.push_back(schedulable[i]);
  }
  // The chosen transitions run in a random order. They are independent in what the model sees,
  // but a transition runs the thread up to its next scheduling point, and accesses that are not
  // scheduling points (accesses=none) can make the order matter: with a fixed order (lowest
  // thread first) a bug that needs the higher thread first is never sampled within a round.
  rng_.shuffle(chosen);
  for (const Candidate& c : chosen) scheduled_.push_back(c.thread);
}

size_t RaposStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (runs_at_once(enabled[i].op)) return i;
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    while (!scheduled_.empty()) {
      ThreadId t = scheduled_.front();
      scheduled_.pop_front();
      for (size_t i = 0; i < enabled.size(); ++i) {
        if (enabled[i].thread == t) return i;
      }
      // No longer enabled (a scheduled transition can only be disabled by a dependent one;
      // with hidden blocks it may happen): skip it.
    }
    new_round(enabled);
  }
  return size_t(rng_.below(enabled.size()));
}

void RaposStrategy::forced(const Candidate& only, uint64_t) {
  // What choose() would do with one enabled transition, without drawing: run it as the next
  // member of the round if it is one, else as a round of its own.
  if (runs_at_once(only.op)) return;
  while (!scheduled_.empty()) {
    ThreadId t = scheduled_.front();
    scheduled_.pop_front();
    if (t == only.thread) return;
  }
  started_ = true;
  executed_.clear();
}

}  // namespace jsched::sched
