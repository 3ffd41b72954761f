// SURW (Zhao et al., Selectively Uniform Concurrency Testing; docs/references.md): with exact
// per-thread event counts, every interleaving of the counted events is equally likely.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/core/abstract_program.h"
#include "scheduler/random/random_strategy.h"
#include "scheduler/sampling/surw_strategy.h"
#include "tests/unit/release_step_support.h"

using namespace jsched::sched;

namespace {

// Counts each thread's steps as profile runs do (ThreadState::choices).
class Counting : public Strategy {
 public:
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    count(enabled[0]);
    return 0;
  }
  void forced(const Candidate& only, uint64_t) override { count(only); }
  size_t choose_aux(AuxChoice, size_t) override { return 0; }
  void count(const Candidate& c) {
    if (!SurwStrategy::counted(c.op)) return;
    if (events.size() <= c.thread) events.resize(c.thread + 1, 0);
    ++events[c.thread];
  }
  std::vector<uint64_t> events;
};

// Two threads writing one variable: 3 and 2 racing writes, C(5,2) = 10 interleavings, each a
// partial order of its own.
AbstractProgram racing_writes() {
  AbstractProgram p;
  p.threads.push_back({AbstractOp::write(0, 1), AbstractOp::write(0, 2), AbstractOp::write(0, 3)});
  p.threads.push_back({AbstractOp::write(0, 4), AbstractOp::write(0, 5)});
  return p;
}

double chi_square(const std::map<std::string, uint64_t>& counts, uint64_t n, size_t cells) {
  const double expected = double(n) / double(cells);
  double x = 0;
  for (const auto& [k, c] : counts) x += (double(c) - expected) * (double(c) - expected) / expected;
  x += double(cells - counts.size()) * expected;  // cells never seen
  return x;
}

}  // namespace

TEST(Surw, EveryInterleavingIsEquallyLikely) {
  Counting c;
  run_abstract(racing_writes(), c);
  const uint64_t n = 20000;
  std::map<std::string, uint64_t> surw, random;
  for (uint64_t seed = 1; seed <= n; ++seed) {
    SurwStrategy s(seed, c.events);
    ++surw[run_abstract(racing_writes(), s).fingerprint];
    RandomStrategy r(seed);
    ++random[run_abstract(racing_writes(), r).fingerprint];
  }
  EXPECT_EQ(surw.size(), 10u);
  // Chi-square with 9 degrees of freedom: 40 is beyond the 1e-5 tail (about 37.9).
  EXPECT_LT(chi_square(surw, n, 10), 40.0);
  // The control: a random walk is far from uniform on this program.
  EXPECT_GT(chi_square(random, n, 10), 200.0);
}

TEST(Surw, UnknownCountsLeaveEveryInterleavingPossible) {
  std::map<std::string, uint64_t> seen;
  for (uint64_t seed = 1; seed <= 4000; ++seed) {
    SurwStrategy s(seed, {});
    ++seen[run_abstract(racing_writes(), s).fingerprint];
  }
  EXPECT_EQ(seen.size(), 10u);
}

// The step after a release touches nothing the model sees, but the code behind it may touch
// what it cannot (an uninstrumented collection): it must not always run before the other
// threads' next steps. SURW runs it just before its thread's next counted step.
TEST(Surw, TheStepAfterAReleaseWaitsForItsThreadsTurn) {
  const AbstractProgram p = test::release_then_write();
  const int n = 2000;
  int later = 0;
  for (int seed = 1; seed <= n; ++seed) {
    test::Recording r(std::make_unique<SurwStrategy>(uint64_t(seed), std::vector<uint64_t>{}));
    run_abstract(p, r);
    // Model thread 1 is the first program thread: its lock step, then the unlock (applied on
    // arrival) and the step after it. Did thread 2 write in between, and did thread 1 run its
    // write right after that step?
    bool locked = false, between = false;
    for (size_t i = 0; i < r.steps.size(); ++i) {
      const Candidate& c = r.steps[i];
      if (c.thread == 1 && c.op.kind == OpKind::Continue) {
        ASSERT_LT(i + 1, r.steps.size());
        EXPECT_EQ(r.steps[i + 1].thread, 1u) << "seed " << seed;
        break;
      }
      if (c.thread == 1 && c.op.kind == OpKind::Enter) locked = true;
      if (locked && c.thread == 2) between = true;
    }
    later += between;
  }
  // Without counts both threads weigh 1 at each choice: after the unlock, thread 1's first
  // write comes first with probability at least 1/2 when thread 1 has writes left. A bound far
  // below that (the old rule, which ran the step at once, gives 0).
  EXPECT_GT(later, n / 5);
}
