// TSCA (Çalpur's thesis, docs/references.md; docs/strategies.md, tsca) without a JVM: sequence
// counting, block recording and schedule enforcement on abstract programs, and the whole covering
// loop on the thesis's Fig. 39 benchmark.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "scheduler/core/abstract_program.h"
#include "scheduler/tsca/sequence_count.h"
#include "scheduler/tsca/tsca_plan.h"
#include "scheduler/tsca/tsca_planner.h"
#include "scheduler/tsca/tsca_strategy.h"

using namespace jsched::sched;

namespace {

// Thesis Fig. 39: non-critical work, then four synchronized blocks on two shared locks; with
// the tail after the last release, n = 5 blocks a thread.
AbstractProgram figure39(uint32_t m) {
  AbstractProgram p;
  p.release_points = true;
  std::vector<AbstractOp> t;
  for (uint32_t lock : {0u, 0u, 1u, 0u}) {
    t.push_back(AbstractOp::read(2));
    t.push_back(AbstractOp::lock(lock));
    t.push_back(AbstractOp::increment(lock));
    t.push_back(AbstractOp::unlock(lock));
  }
  t.push_back(AbstractOp::read(2));
  p.threads.assign(m, t);
  return p;
}

std::string site_name(int32_t site) {
  return "s" + std::to_string(site);
}

BlockTrace run_tsca(const AbstractProgram& p, uint64_t seed, std::vector<ThreadId> schedule = {}) {
  TscaStrategy s(seed, std::move(schedule), site_name);
  AbstractRun r = run_abstract(p, s);
  EXPECT_FALSE(r.deadlock);
  return s.trace();
}

// Knowledge of m independent threads with n blocks each, in program order.
BlockKnowledge chains(uint32_t m, uint32_t n) {
  BlockTrace tr;
  for (uint32_t th = 0; th < m; ++th) {
    for (uint32_t b = 0; b < n; ++b)
      tr.blocks.push_back({th, "l" + std::to_string(b), "l" + std::to_string(b + 1)});
  }
  BlockKnowledge k;
  k.add(tr);
  return k;
}

TEST(SequenceCount, ThesisFigure38) {
  EXPECT_EQ(count_sequences(5, 5, 3), 10550u);
  // Fig. 38 labels the varying column n, but its values are those of m threads of n = 5
  // blocks (the sizes of Table 4): for m = 5 and n = 10 there are 87,600 sequences, not 103,600.
  const std::pair<uint32_t, uint64_t> rows[] = {{5, 10550},    {10, 103600},  {15, 372900},
                                                {20, 912200},  {25, 1815250}, {30, 3175800},
                                                {40, 7644400}, {50, 15068000}};
  for (auto [m, expected] : rows) EXPECT_EQ(count_sequences(m, 5, 3), expected) << "m=" << m;
  EXPECT_EQ(count_sequences(5, 10, 3), 87600u);
}

TEST(SequenceCount, SmallCasesByHand) {
  EXPECT_EQ(count_sequences(1, 5, 3), 10u);      // C(5,3), order fixed
  EXPECT_EQ(count_sequences(2, 1, 2), 2u);       // ab, ba
  EXPECT_EQ(count_sequences(2, 2, 2), 2u + 8u);  // a1a2, b1b2; 4 cross pairs in 2 orders
}

TEST(SequenceCoverage, EnumerationMatchesTheFormula) {
  for (uint32_t t = 1; t <= 4; ++t) {
    for (uint32_t m = 1; m <= 4; ++m) {
      for (uint32_t n = 1; n <= 4; ++n) {
        SequenceCoverage c(chains(m, n), t);
        EXPECT_EQ(c.known(), count_sequences(m, n, t)) << m << " " << n << " " << t;
      }
    }
  }
}

TEST(SequenceCoverage, RefusesToEnumerateTooManySequences) {
  EXPECT_NO_THROW(SequenceCoverage(chains(4, 4), 3, count_sequences(4, 4, 3)));
  try {
    SequenceCoverage(chains(4, 4), 3, 1000);
    FAIL() << "no error";
  } catch (const std::length_error& e) {
    EXPECT_STREQ(e.what(), "more than 1000 3-way sequences over 16 blocks: use a smaller t");
  }
}

TEST(TscaStrategy, RecordsTheBlocksOfFigure39) {
  BlockTrace tr = run_tsca(figure39(3), 1);
  std::map<uint32_t, std::vector<BlockOccurrence>> per;
  for (const BlockOccurrence& b : tr.blocks) per[b.thread].push_back(b);
  ASSERT_EQ(per.size(), 4u);  // main and three workers
  EXPECT_EQ(per[0].size(), 1u);
  for (uint32_t th = 1; th <= 3; ++th) {
    ASSERT_EQ(per[th].size(), 5u) << th;
    EXPECT_EQ(per[th][0].start, "begin");
    EXPECT_EQ(per[th][0].end, "s4");  // the first release
    EXPECT_EQ(per[th][1].start, "s4");
    EXPECT_EQ(per[th][4].end, "end");
  }
  EXPECT_EQ(tr.edges.size(), 3u);  // main's block precedes each worker's first
  // The same blocks whatever the seed: identity does not depend on the interleaving.
  BlockKnowledge k;
  k.add(tr);
  bool changed = true;
  k.add(run_tsca(figure39(3), 99), &changed);
  EXPECT_FALSE(changed);
}

TEST(TscaStrategy, FollowsTheScheduleAtBlockBoundaries) {
  std::vector<ThreadId> plan = {0, 2, 2, 1, 3, 1, 2, 3, 3, 1, 2, 1, 3, 3, 2, 1};
  BlockTrace tr = run_tsca(figure39(3), 5, plan);
  std::vector<ThreadId> ran;
  for (const BlockOccurrence& b : tr.blocks) ran.push_back(b.thread);
  EXPECT_EQ(ran, plan);
}

TEST(TscaStrategy, TakesTheNextEnabledEntryWhenTheDueThreadIsBlocked) {
  // Thread 1 holds lock 0 across a boundary (it releases lock 1 inside), so thread 2, due
  // third, cannot enter; thread 1's next entry runs instead (and is used up), then thread 2's
  // two blocks, then thread 1's last.
  AbstractProgram p;
  p.release_points = true;
  p.threads = {
      {AbstractOp::lock(0), AbstractOp::lock(1), AbstractOp::unlock(1), AbstractOp::unlock(0)},
      {AbstractOp::lock(0), AbstractOp::unlock(0)}};
  TscaStrategy s(3, {0, 1, 2, 1, 2, 2}, site_name);
  run_abstract(p, s);
  std::vector<ThreadId> ran;
  for (const BlockOccurrence& b : s.trace().blocks) ran.push_back(b.thread);
  EXPECT_EQ(ran, (std::vector<ThreadId>{0, 1, 1, 2, 2, 1}));
}

// Executions the covering loop needs for full coverage (exploration run included).
size_t executions_to_full(uint32_t m, uint32_t t, uint64_t seed,
                          Construction how = Construction::Pack) {
  AbstractProgram p = figure39(m);
  TscaPlanner planner(t, 8, how);
  Rng rng(seed);
  planner.add(run_tsca(p, seed));
  size_t runs = 1;
  while (!planner.complete() && runs < 500) {
    std::vector<CoveringSchedule> next = planner.next(1, rng);
    if (next.empty()) break;
    CoverageProgress pr = planner.add(
        run_tsca(p, seed + runs, schedule_threads(planner.knowledge(), next[0].blocks)));
    // Every block boundary is free here, so executions follow their schedules exactly.
    EXPECT_EQ(pr.fresh, next[0].gain);
    ++runs;
  }
  EXPECT_TRUE(planner.complete()) << "m=" << m << " t=" << t;
  // Main's one block precedes everything: it adds the (t-1)-way worker sequences.
  EXPECT_EQ(planner.coverage().known(), count_sequences(m, 5, t) + count_sequences(m, 5, t - 1));
  return runs;
}

// Thesis Table 4: 70 executions at m = 5, never 100% from m = 15 on.
TEST(TscaPlanner, Figure39FullThreeWayCoverageWithinFortyExecutions) {
  for (uint64_t seed = 1; seed <= 5; ++seed) EXPECT_LE(executions_to_full(5, 3, seed), 40u);
  EXPECT_LE(executions_to_full(10, 3, 1), 60u);
}

// Random candidates alone need more executions than packing (the construction chosen by
// this result; thesis Table 5 for the sizes).
TEST(TscaPlanner, Figure39TwoAndFourWayAndTheConstructions) {
  for (uint64_t seed = 1; seed <= 3; ++seed) EXPECT_LE(executions_to_full(5, 2, seed), 6u);
  EXPECT_LE(executions_to_full(5, 4, 1), 300u);
  size_t pack = 0, rates = 0, uniform = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    pack += executions_to_full(5, 3, seed, Construction::Pack);
    rates += executions_to_full(5, 3, seed, Construction::Rates);
    uniform += executions_to_full(5, 3, seed, Construction::Uniform);
  }
  EXPECT_LT(pack, rates);
  EXPECT_LT(pack, uniform);
}

TEST(TscaPlan, RoundTripsAndRejectsDamage) {
  TscaPlanner planner(3);
  planner.add(run_tsca(figure39(2), 1));
  TscaPlan p;
  p.t = 3;
  p.knowledge = planner.knowledge();
  p.known = planner.coverage().known();
  p.covered = planner.coverage().covered_hex();
  p.schedule = {0, 1, 2};
  std::string path = "/tmp/jsched-tsca-plan-" + std::to_string(getpid());
  p.write(path);
  TscaPlan q = TscaPlan::read(path);
  EXPECT_EQ(q.knowledge.size(), p.knowledge.size());
  EXPECT_EQ(q.knowledge.orders(), p.knowledge.orders());
  EXPECT_EQ(q.knowledge.edges(), p.knowledge.edges());
  EXPECT_EQ(q.schedule, p.schedule);
  EXPECT_EQ(q.coverage()->covered(), planner.coverage().covered());

  auto error = [&](const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
    try {
      TscaPlan::read(path).coverage();
    } catch (const TscaPlanError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("jsched-plan 1\nend\n").find("not a TSCA plan"), std::string::npos);
  EXPECT_NE(error("jsched-tsca-plan 1\nt 3\n").find("truncated"), std::string::npos);
  EXPECT_NE(error("jsched-tsca-plan 1\nblock 1 a b\norder 0 7\nend\n").find(":3: bad block id"),
            std::string::npos);
  EXPECT_NE(error("jsched-tsca-plan 1\nt 9\nend\n").find("bad t"), std::string::npos);
  EXPECT_NE(error("jsched-tsca-plan 1\nblock 1 a b\ncovered 5 f\nend\n").find("do not fit"),
            std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
