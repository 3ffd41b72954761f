// PCT and PCTVB on the short programs of Bindal et al.'s PCTVB paper (Figs. 1-4 and 8-10;
// docs/references.md): the empirical hit rate of each strategy must be at least its probability
// bound (docs/architecture.md, "The scheduler"). On programs this
// small the bounds are nearly tight (Fig. 1's is exactly 1/2), so each check runs enough seeds
// to measure the rate within about 10% and fails when the whole confidence interval lies
// below the bound; never a lucky seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "scheduler/core/abstract_program.h"
#include "scheduler/pct/pct_strategy.h"
#include "scheduler/random/random_strategy.h"
#include "tests/support/binomial.h"

using namespace jsched::sched;
using jsched::test::wilson;

namespace {

using Regs = std::vector<int64_t>;
constexpr uint32_t a = 0, b = 1;

// Every thread first touches a private variable twice, so that there are more variables than
// the bug needs (Q > v) and more steps than the bug's own accesses.
std::vector<AbstractOp> padded(uint32_t noise, std::vector<AbstractOp> body) {
  std::vector<AbstractOp> ops{AbstractOp::write(noise, 1), AbstractOp::write(noise, 2)};
  ops.insert(ops.end(), body.begin(), body.end());
  return ops;
}

struct Figure {
  std::string name;
  AbstractProgram program;
  uint32_t pct_depth;  // PCT depth d of the bug in our model (0: not reachable by plain PCT)
  uint32_t vb_depth;   // PCTVB depth (0: not reachable with plain priorities)
  uint32_t v;          // variables the bug needs
};

// Fig. 1 (c=0, v=0): T1: ASSERT(a == 0)  T2: a++.  Needs T2 first: one ordering constraint.
Figure fig1() {
  Figure f{"fig1", {}, 1, 1, 1};
  f.program.threads = {padded(2, {AbstractOp::check(a, 1)}), padded(3, {AbstractOp::increment(a)})};
  return f;
}

// Fig. 2 (c=1, v=1): T1: t1 = a; t2 = a; ASSERT(t1 == t2)  T2: a++.
Figure fig2() {
  Figure f{"fig2", {}, 2, 2, 1};
  f.program.threads = {
      padded(2, {AbstractOp::load(a, 0), AbstractOp::load(a, 1),
                 AbstractOp::assert_that([](const Regs& r) { return r[0] == r[1]; })}),
      padded(3, {AbstractOp::increment(a)})};
  return f;
}

// Fig. 3 (c=2, v=1): T1: t1 = a; t2 = a; ASSERT(t1 == t2)  T2: a = 1; a = 0.
Figure fig3() {
  Figure f{"fig3", {}, 3, 3, 1};
  f.program.threads = {
      padded(2, {AbstractOp::load(a, 0), AbstractOp::load(a, 1),
                 AbstractOp::assert_that([](const Regs& r) { return r[0] == r[1]; })}),
      padded(3, {AbstractOp::write(a, 1), AbstractOp::write(a, 0)})};
  return f;
}

// Fig. 4 (c=2, v=2): T1: t1 = a; t2 = a; t3 = b; ASSERT(t1 == t2 || t3 != 1)
//                    T2: a = 1; b = 1; b = 0.
Figure fig4() {
  Figure f{"fig4", {}, 3, 3, 2};
  f.program.threads = {
      padded(2, {AbstractOp::load(a, 0), AbstractOp::load(a, 1), AbstractOp::load(b, 2),
                 AbstractOp::assert_that([](const Regs& r) { return r[0] == r[1] || r[2] != 1; })}),
      padded(3, {AbstractOp::write(a, 1), AbstractOp::write(b, 1), AbstractOp::write(b, 0)})};
  return f;
}

// Fig. 8 (c=0, v=0, t=3): T1: a++  T2: a++  T3: ASSERT(a != 2).
Figure fig8() {
  Figure f{"fig8", {}, 1, 1, 1};
  f.program.threads = {padded(2, {AbstractOp::increment(a)}), padded(3, {AbstractOp::increment(a)}),
                       padded(4, {AbstractOp::check(a, 2)})};
  return f;
}

// Fig. 9 (c=1, v=1, t=3): T1: t1 = a; t2 = a; ASSERT(t2 <= t1 + 1)  T2: a++  T3: a++.
// The paper prints ASSERT(t1 <= t2 + 1), which cannot fail (a only grows); the bug it
// describes, both increments between the two reads, is the one asserted here.
Figure fig9() {
  Figure f{"fig9", {}, 2, 2, 1};
  f.program.threads = {
      padded(2, {AbstractOp::load(a, 0), AbstractOp::load(a, 1),
                 AbstractOp::assert_that([](const Regs& r) { return r[1] <= r[0] + 1; })}),
      padded(3, {AbstractOp::increment(a)}), padded(4, {AbstractOp::increment(a)})};
  return f;
}

// Fig. 10 (c=2, v=2, t=3): T1: t1 = a; t2 = a; t3 = b; t4 = b; ASSERT(t1 == t2 || t3 == t4)
//                          T2: a++  T3: b++.
// With PCT's priorities (change points drop a thread below every initial priority) T3 must
// itself be dropped before its increment, which only its Begin step can do: depth 4. With
// PCTVB change points fall on accesses only, so no plain-priority schedule reaches the bug;
// the thread-bounded generator (Bindal et al. §4) does, with two change points.
Figure fig10() {
  Figure f{"fig10", {}, 4, 0, 2};
  f.program.threads = {
      padded(2, {AbstractOp::load(a, 0), AbstractOp::load(a, 1), AbstractOp::load(b, 2),
                 AbstractOp::load(b, 3), AbstractOp::assert_that([](const Regs& r) {
                   return r[0] == r[1] || r[2] == r[3];
                 })}),
      padded(3, {AbstractOp::increment(a)}), padded(4, {AbstractOp::increment(b)})};
  return f;
}

// What profile runs learn: the step bound k and per-variable access bounds k_q (maxima).
struct Profile {
  uint64_t k = 0;
  std::map<uint32_t, uint64_t> kq;
};

Profile profile(const AbstractProgram& p) {
  Profile prof;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    RandomStrategy s(seed);
    AbstractRun r = run_abstract(p, s);
    prof.k = std::max(prof.k, r.steps);
    for (auto [var, n] : r.accesses) prof.kq[var] = std::max(prof.kq[var], n);
  }
  return prof;
}

PctOptions vb_options(const Profile& prof, uint32_t depth, uint32_t v, bool bounded) {
  PctOptions o;
  o.depth = depth;
  o.bounded = bounded;
  o.vars = v;
  for (auto [var, kq] : prof.kq) o.variables.push_back({abstract_variable(var), kq});
  return o;
}

// The Wilson interval of the hit rate over `runs` seeds.
jsched::test::Interval hit_rate(const AbstractProgram& p, const PctOptions& o, uint64_t runs,
                                double* rate = nullptr) {
  uint64_t hits = 0;
  for (uint64_t seed = 1; seed <= runs; ++seed) {
    PctStrategy s(seed * 0x9E3779B97F4A7C15ULL, o);
    hits += run_abstract(p, s).bug;
  }
  if (rate) *rate = double(hits) / double(runs);
  return wilson(hits, runs);
}

double binomial(uint64_t n, uint64_t r) {
  double x = 1;
  for (uint64_t i = 0; i < r; ++i) x = x * double(n - i) / double(i + 1);
  return x;
}

// Enough seeds for about 2000 hits at the bound: the interval is then about +-10% wide.
uint64_t runs_for(double bound) {
  return std::clamp<uint64_t>(uint64_t(2000 / bound), 20000, 1000000);
}

class PaperFigure : public ::testing::TestWithParam<Figure (*)()> {};
// The figures whose bug variable bounding reaches (not fig10: see below).
class PaperFigureVb : public PaperFigure {};

}  // namespace

// PCT's bound (Burckhardt et al., restated in Bindal et al. §3): 1 / (n k^(d-1)).
TEST_P(PaperFigure, PctMeetsItsBound) {
  Figure f = GetParam()();
  Profile prof = profile(f.program);
  const double n = double(f.program.threads.size());
  const double bound = 1.0 / (n * std::pow(double(prof.k), f.pct_depth - 1));
  PctOptions o;
  o.depth = f.pct_depth;
  o.steps = prof.k;
  double rate = 0;
  auto ci = hit_rate(f.program, o, runs_for(bound), &rate);
  EXPECT_GE(ci.hi, bound) << f.name << ": k=" << prof.k << " d=" << f.pct_depth << " rate " << rate;
}

// Theorem 3.1 with the variable choice (Bindal et al. §3): 1 / (C(Q,v) n (sum of k_q)^(d-1)), where
// the sum runs over the bug's variables.
TEST_P(PaperFigureVb, PctvbMeetsTheorem31Bound) {
  Figure f = GetParam()();
  ASSERT_GT(f.vb_depth, 0) << f.name;
  Profile prof = profile(f.program);
  const double n = double(f.program.threads.size());
  const uint64_t q = prof.kq.size();
  const double sum = double(prof.kq[a] + (f.v > 1 ? prof.kq[b] : 0));
  const double bound = 1.0 / (binomial(q, f.v) * n * std::pow(sum, f.vb_depth - 1));
  double rate = 0;
  auto ci = hit_rate(f.program, vb_options(prof, f.vb_depth, f.v, false), runs_for(bound), &rate);
  EXPECT_GE(ci.hi, bound) << f.name << ": Q=" << q << " sum k_q=" << sum << " rate " << rate;
}

INSTANTIATE_TEST_SUITE_P(BindalFigures, PaperFigure,
                         ::testing::Values(fig1, fig2, fig3, fig4, fig8, fig9, fig10),
                         [](const auto& info) { return info.param().name; });
INSTANTIATE_TEST_SUITE_P(BindalFigures, PaperFigureVb,
                         ::testing::Values(fig1, fig2, fig3, fig4, fig8, fig9),
                         [](const auto& info) { return info.param().name; });

// Fig. 10 needs depth 4 under PCT: with d = 3 no seed finds it, which shows the model keeps
// PCT's priority semantics rather than finding the bug by accident.
TEST(Pct, Figure10IsOutOfReachAtDepth3) {
  Figure f = fig10();
  PctOptions o;
  o.depth = 3;
  o.steps = profile(f.program).k;
  for (uint64_t seed = 1; seed <= 20000; ++seed) {
    PctStrategy s(seed, o);
    ASSERT_FALSE(run_abstract(f.program, s).bug) << "seed " << seed;
  }
}

// Thread bounding (Bindal et al. §4): priorities are a random permutation of n + c values and the
// i-th change point gives P_{n+i}. For a t-thread bug with c change points the needed relative
// order of the t + c values has probability 1/(t+c)!, and the change points must land on the right
// c accesses among K = sum of k_q: at least 1 / (C(Q,v) (t+c)! K^c).
TEST(Pctvb, ThreadBoundedPrioritiesReachFigure10) {
  Figure f = fig10();
  Profile prof = profile(f.program);
  const double q = double(prof.kq.size()), t = 3, c = 2;
  const double sum = double(prof.kq[a] + prof.kq[b]);
  const double bound = 1.0 / (binomial(uint64_t(q), 2) * std::tgamma(t + c + 1) * sum * sum);
  double rate = 0;
  auto ci = hit_rate(f.program, vb_options(prof, 3, 2, true), runs_for(bound), &rate);
  EXPECT_GE(ci.hi, bound) << "rate " << rate;
}

TEST(Pct, ThreadBoundedPrioritiesMeetTheirBoundOnFigures8And9) {
  for (auto [fig, c] : {std::pair{&fig8, 0}, std::pair{&fig9, 1}}) {
    Figure f = fig();
    Profile prof = profile(f.program);
    const double t = 3;
    const double bound = 1.0 / (std::tgamma(t + c + 1) * std::pow(double(prof.k), c));
    PctOptions o;
    o.depth = uint32_t(c + 1);
    o.steps = prof.k;
    o.bounded = true;
    double rate = 0;
    auto ci = hit_rate(f.program, o, runs_for(bound), &rate);
    EXPECT_GE(ci.hi, bound) << f.name << " rate " << rate;
  }
}

// The setting of Bindal et al., Fig. 6: a depth-2 bug on a variable accessed a few times, after
// many accesses to busy variables. PCT must put its change point on one step among all of them;
// PCTVB first picks a variable (1 in Q) and then one of its few accesses, so it finds the bug
// several times more often.
TEST(Pctvb, FindsBugsOnRarelyAccessedVariablesMoreOftenThanPct) {
  constexpr uint32_t busy1 = 2, busy2 = 3;
  AbstractProgram p;
  std::vector<AbstractOp> t1, t2;
  for (int i = 0; i < 30; ++i) t1.push_back(AbstractOp::write(busy1, i));
  t1.push_back(AbstractOp::load(a, 0));
  t1.push_back(AbstractOp::load(a, 1));
  t1.push_back(AbstractOp::assert_that([](const Regs& r) { return r[0] == r[1]; }));
  for (int i = 0; i < 30; ++i) t2.push_back(AbstractOp::write(busy2, i));
  t2.push_back(AbstractOp::increment(a));
  p.threads = {t1, t2};
  Profile prof = profile(p);

  const uint64_t runs = 40000;
  PctOptions pct;
  pct.depth = 2;
  pct.steps = prof.k;
  uint64_t pct_hits = 0, vb_hits = 0;
  PctOptions vb = vb_options(prof, 2, 1, false);
  for (uint64_t seed = 1; seed <= runs; ++seed) {
    PctStrategy s(seed, pct);
    pct_hits += run_abstract(p, s).bug;
    PctStrategy v(seed, vb);
    vb_hits += run_abstract(p, v).bug;
  }
  auto pct_ci = wilson(pct_hits, runs), vb_ci = wilson(vb_hits, runs);
  EXPECT_GT(vb_ci.lo, 4 * pct_ci.hi)
      << "PCT " << pct_hits << ", PCTVB " << vb_hits << " of " << runs;
  // Both still meet their bounds: 1/(n k) and 1/(Q n k_a).
  EXPECT_GE(pct_ci.hi, 1.0 / (2.0 * double(prof.k)));
  EXPECT_GE(vb_ci.hi, 1.0 / (double(prof.kq.size()) * 2.0 * double(prof.kq[a])));
}

// Change points in PCTVB fall only on the chosen variables' accesses; a run with the same
// seed picks the same variables and the same points.
TEST(Pctvb, ChoosesVariablesFromThePlanDeterministically) {
  PctOptions o;
  o.depth = 3;
  o.vars = 2;
  o.variables = {{11, 5}, {12, 7}, {13, 1}, {14, 9}};
  std::map<uint64_t, int> picked;
  for (uint64_t seed = 1; seed <= 4000; ++seed) {
    PctStrategy s(seed, o), again(seed, o);
    ASSERT_EQ(s.chosen_variables(), again.chosen_variables());
    ASSERT_EQ(s.chosen_variables().size(), 2u);
    ASSERT_NE(s.chosen_variables()[0], s.chosen_variables()[1]);
    for (uint64_t v : s.chosen_variables()) ++picked[v];
  }
  // Each variable is in a uniformly drawn pair with probability 1/2.
  for (auto [v, count] : picked) {
    auto ci = wilson(uint64_t(count), 4000);
    EXPECT_LE(ci.lo, 0.5) << v;
    EXPECT_GE(ci.hi, 0.5) << v;
  }
}

// Bindal et al. §5: a thread that spins (yields) more than 100 times drops below every other, so a
// spin loop waiting for a lower-priority thread ends; before that, yields change nothing.
TEST(Pct, AThreadThatKeepsYieldingDropsBelowTheOthers) {
  PctOptions o;
  o.depth = 1;
  o.steps = 10;
  for (bool bounded : {false, true}) {
    o.bounded = bounded;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
      PctStrategy s(seed, o);
      s.on_thread_created(0, kNoThread);
      s.on_thread_created(1, 0);
      s.on_thread_created(2, 0);
      std::vector<Candidate> all{
          {0, Op::of(OpKind::Yield)}, {1, Op::of(OpKind::Yield)}, {2, Op::of(OpKind::Yield)}};
      uint64_t step = 0;
      ThreadId spinner = all[s.choose(all, step++)].thread;
      for (uint32_t i = 0; i < PctStrategy::kYieldsBeforeLowering; ++i) {
        s.on_executed(spinner, Op::of(OpKind::Yield));
        ASSERT_EQ(all[s.choose(all, step++)].thread, spinner) << seed << " after " << i + 1;
      }
      s.on_executed(spinner, Op::of(OpKind::Yield));
      ThreadId next = all[s.choose(all, step++)].thread;
      EXPECT_NE(next, spinner) << seed;
      // Below both others: with the next one gone, the third still runs before it.
      std::vector<Candidate> two;
      for (const Candidate& c : all) {
        if (c.thread != next) two.push_back(c);
      }
      EXPECT_NE(two[s.choose(two, step++)].thread, spinner) << seed;
    }
  }
}

// A thread that sleeps (or wakes from a timed wait by its timeout) gives way like one that
// yields: a polling daemon with the top priority no longer starves the others for ever.
TEST(Pct, AThreadThatKeepsSleepingDropsBelowTheOthers) {
  PctOptions o;
  o.depth = 1;
  o.steps = 10;
  for (OpKind kind : {OpKind::Sleep, OpKind::Wait}) {
    for (uint64_t seed = 1; seed <= 50; ++seed) {
      PctStrategy s(seed, o);
      s.on_thread_created(0, kNoThread);
      s.on_thread_created(1, 0);
      Op op = Op::of(kind);
      op.timed = true;
      std::vector<Candidate> both{{0, op}, {1, op}};
      uint64_t step = 0;
      ThreadId top = both[s.choose(both, step++)].thread;
      if (kind == OpKind::Sleep) s.on_executed(top, op);
      bool gave_way = false;
      for (uint32_t i = 0; i < 2 * PctStrategy::kYieldsBeforeLowering + 2 && !gave_way; ++i) {
        ThreadId t = both[s.choose(both, step++)].thread;
        if (kind == OpKind::Sleep) s.on_executed(t, op);
        gave_way = t != top;
      }
      EXPECT_TRUE(gave_way) << op_name(kind) << " seed " << seed;
    }
  }
}

// A thread that only reads, point after point (a spin on a volatile or a VarHandle without
// onSpinWait), drops below the others after kSpinReads of them; a write resets the count.
TEST(Pct, AThreadThatOnlyReadsForLongDropsBelowTheOthers) {
  PctOptions o;
  o.depth = 1;
  o.steps = 10;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    PctStrategy s(seed, o);
    s.on_thread_created(0, kNoThread);
    s.on_thread_created(1, 0);
    Op read = Op::sync(7, false, 1);
    std::vector<Candidate> both{{0, read}, {1, read}};
    uint64_t step = 0;
    ThreadId top = both[s.choose(both, step++)].thread;
    for (uint32_t i = 0; i < PctStrategy::kSpinReads; ++i) {
      s.on_executed(top, i == 500 ? Op::sync(7, true, 1) : read);  // one write: counting restarts
      ASSERT_EQ(both[s.choose(both, step++)].thread, top) << seed << " at " << i;
    }
    for (uint32_t i = 0; i < 600; ++i) s.on_executed(top, read);
    EXPECT_NE(both[s.choose(both, step++)].thread, top) << seed;
  }
}

// A thread that could run but waits for its turn step after step (behind a poller whose loop
// also writes) rises above the others once it has waited kStarvedSteps; one that could not run
// in between starts counting again.
TEST(Pct, AThreadThatWaitsForItsTurnForLongRisesAboveTheOthers) {
  PctOptions o;
  o.depth = 1;
  o.steps = 10;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    for (bool gap : {false, true}) {
      PctStrategy s(seed, o);
      s.on_thread_created(0, kNoThread);
      s.on_thread_created(1, 0);
      Op write = Op::sync(7, true, 1);
      std::vector<Candidate> both{{0, write}, {1, write}};
      uint64_t step = 0;
      ThreadId top = both[s.choose(both, step++)].thread;
      std::vector<Candidate> alone{{top, write}};
      for (uint64_t i = 1; i < PctStrategy::kStarvedSteps; ++i) {
        // Halfway, the other thread cannot run for a step: its wait starts again.
        const bool blocked = gap && i == PctStrategy::kStarvedSteps / 2;
        ThreadId t =
            blocked ? alone[s.choose(alone, step++)].thread : both[s.choose(both, step++)].thread;
        ASSERT_EQ(t, top) << seed << " at " << i;
      }
      if (gap)
        EXPECT_EQ(both[s.choose(both, step++)].thread, top) << seed;
      else
        EXPECT_NE(both[s.choose(both, step++)].thread, top) << seed;
    }
  }
}
