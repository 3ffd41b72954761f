// SURW (Zhao et al., Selectively Uniform Concurrency Testing; docs/references.md): with exact
// per-thread event counts, every interleaving of the counted events is equally likely.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "scheduler/core/abstract_program.h"
#include "scheduler/random/random_strategy.h"
#include "scheduler/sampling/surw_strategy.h"

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
