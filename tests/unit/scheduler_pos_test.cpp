// POS (Yuan et al., Partial Order Aware Concurrency Sampling; docs/references.md) on abstract
// programs, against its analytic probabilities.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "scheduler/core/abstract_program.h"
#include "scheduler/random/random_strategy.h"
#include "scheduler/sampling/pos_strategy.h"
#include "tests/support/binomial.h"
#include "tests/support/figure1.h"

using namespace jsched::sched;

// T2's check keeps the priority it drew, while each of T1's four events draws a fresh one: the
// check runs last exactly when all four beat it, with probability the integral of (1-p)^4 over
// p in [0, 1]: 1/5 (random: 1/16).
TEST(Pos, FindsFigure1AssertionWithProbabilityOneInFive) {
  const uint64_t n = 40000;
  uint64_t hits = 0;
  for (uint64_t seed = 1; seed <= n; ++seed) {
    PosStrategy s(seed);
    hits += run_abstract(jsched::test::figure1_program(), s).bug;
  }
  jsched::test::Interval ci = jsched::test::wilson(hits, n);
  EXPECT_LE(ci.lo, 0.2) << hits;
  EXPECT_GE(ci.hi, 0.2) << hits;
}

// Events that race are redrawn: two threads that each write one variable twice, the other
// reading it between, cannot starve each other, and every interleaving of the four writes
// shows up.
TEST(Pos, SamplesEveryInterleavingOfRacingWrites) {
  constexpr uint32_t v = 0;
  AbstractProgram p;
  p.threads.push_back({AbstractOp::write(v, 1), AbstractOp::write(v, 2)});
  p.threads.push_back({AbstractOp::write(v, 3), AbstractOp::write(v, 4)});
  std::set<std::string> orders;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    PosStrategy s(seed);
    orders.insert(run_abstract(p, s).fingerprint);
  }
  EXPECT_EQ(orders.size(), 6u) << "C(4,2) interleavings of two threads' two racing writes";
}
