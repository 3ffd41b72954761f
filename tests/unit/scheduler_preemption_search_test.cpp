// The pre-emption search on schedules whose "program" is a rule over the pre-emptions a guide
// keeps: no JVM, so that what the search keeps and how many candidates it tries can be checked
// exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>

#include "scheduler/replay/preemption_search.h"

namespace jsched::sched {
namespace {

// A schedule of n thread choices, pre-empting at every index in `at`.
ScheduleLog schedule(size_t n, const std::set<size_t>& at) {
  ScheduleLog log;
  for (size_t i = 0; i < n; ++i) {
    Decision d{Decision::Thread, uint32_t(i % 3)};
    d.preempt = at.count(i) > 0;
    log.decisions.push_back(d);
  }
  return log;
}

std::set<size_t> kept(const ScheduleLog& log) {
  std::set<size_t> out;
  for (size_t i = 0; i < log.decisions.size(); ++i)
    if (log.decisions[i].preempt) out.insert(i);
  return out;
}

TEST(PreemptionSearch, KeepsExactlyThePreemptionsTheFindingNeeds) {
  const std::set<size_t> all = {2, 5, 9, 11, 17, 23, 30, 31, 40, 44};
  for (const std::set<size_t>& needed :
       std::vector<std::set<size_t>>{{}, {9}, {5, 40}, {2, 30, 31}, all}) {
    int runs = 0;
    PreemptionSearch s;
    s.follow = [&](const ScheduleLog& guide) -> std::optional<ScheduleLog> {
      ++runs;
      std::set<size_t> k = kept(guide);
      for (size_t n : needed)
        if (!k.count(n)) return std::nullopt;
      return guide;
    };
    s.out_of_budget = [] { return false; };
    ScheduleLog best = fewest_preemptions(schedule(50, all), s);
    EXPECT_EQ(kept(best), needed);
    // ddmin and the removals, and a second round from the best recording: far fewer runs
    // than the 1024 subsets.
    EXPECT_LE(runs, 80) << needed.size();
  }
}

TEST(PreemptionSearch, ARecordingWithFewerPreemptionsThanItsGuideIsWhatCounts) {
  PreemptionSearch s;
  // The run goes its own way: whatever the guide, its recording pre-empts once, at 1.
  s.follow = [](const ScheduleLog&) -> std::optional<ScheduleLog> { return schedule(10, {1}); };
  s.out_of_budget = [] { return false; };
  EXPECT_EQ(kept(fewest_preemptions(schedule(10, {3, 4, 6, 8}), s)), std::set<size_t>({1}));
}

TEST(PreemptionSearch, StopsWhenTheBudgetEndsWithTheBestSoFar) {
  int runs = 0;
  PreemptionSearch s;
  s.follow = [&](const ScheduleLog& guide) -> std::optional<ScheduleLog> {
    ++runs;
    return guide;  // every candidate keeps the finding
  };
  s.out_of_budget = [&] { return runs >= 3; };
  ScheduleLog original = schedule(64, {0, 8, 16, 24, 32, 40, 48, 56});
  ScheduleLog best = fewest_preemptions(original, s);
  EXPECT_EQ(runs, 3);
  EXPECT_LT(count_preemptions(best), count_preemptions(original));
  EXPECT_GT(count_preemptions(best), 0u);
}

// A recorded run of millions of pre-emptions (a long loop under a random scheduler): the
// search's own work per candidate is linear, so it halves down to the one pre-emption the
// finding needs in a few dozen candidates, and a budget ends it on time whatever the size.
// (Its bookkeeping was quadratic: with 4 million it never came back to check the budget.)
ScheduleLog every_step_preempts(size_t n) {
  ScheduleLog log;
  log.decisions.assign(n, Decision{Decision::Thread, 0});
  for (size_t i = 0; i < n; ++i) {
    log.decisions[i].value = uint32_t(i % 2);
    log.decisions[i].preempt = true;
  }
  return log;
}

TEST(PreemptionSearch, MillionsOfPreemptionsHalveToTheOneNeeded) {
  const size_t n = 1 << 20, needed = 777777;
  int runs = 0;
  PreemptionSearch s;
  s.follow = [&](const ScheduleLog& guide) -> std::optional<ScheduleLog> {
    ++runs;
    if (!guide.decisions[needed].preempt) return std::nullopt;
    ScheduleLog rec;  // the run's own recording: the guide's pre-emptions, no others
    rec.decisions = guide.decisions;
    return rec;
  };
  s.out_of_budget = [] { return false; };
  ScheduleLog best = fewest_preemptions(every_step_preempts(n), s);
  EXPECT_EQ(kept(best), std::set<size_t>({needed}));
  EXPECT_LE(runs, 2 * 20 + 10);
}

TEST(PreemptionSearch, FourMillionPreemptionsStopWithinTheBudget) {
  using Clock = std::chrono::steady_clock;
  const ScheduleLog original = every_step_preempts(4'000'000);
  // The bounds are in passes over the schedule (a copy, its memory allocated and touched, and a
  // count), as this machine makes them: on a VM whose page faults are dear a candidate took a
  // second of CPU (more than 4 candidates in 2 s failed there), and ASan slows passes and
  // candidates alike. Linear bookkeeping is a pass or two per candidate; the quadratic one this
  // guards against never came back.
  const std::clock_t pass_start = std::clock();
  {
    ScheduleLog copy = original;
    ASSERT_EQ(count_preemptions(copy), original.decisions.size());
  }
  const double pass = std::max(1e-3, double(std::clock() - pass_start) / CLOCKS_PER_SEC);
  const double budget = std::max(2.0, 5 * pass);
  const auto start = Clock::now();
  int runs = 0;
  bool expired = false;
  int runs_after_expiry = 0;
  // The overshoot is at most the work between two looks at the budget; on a loaded machine (or
  // under ASan) that work is slower, so the bound is in those gaps, not in a fixed fraction.
  double longest_gap = 0;
  auto last_look = start;
  PreemptionSearch s;
  // No candidate keeps the finding: ddmin goes to ever smaller parts until the budget ends it.
  s.follow = [&](const ScheduleLog&) -> std::optional<ScheduleLog> {
    ++runs;
    if (expired) ++runs_after_expiry;
    return std::nullopt;
  };
  s.out_of_budget = [&] {
    const auto now = Clock::now();
    longest_gap = std::max(longest_gap, std::chrono::duration<double>(now - last_look).count());
    last_look = now;
    expired = std::chrono::duration<double>(now - start).count() > budget;
    return expired;
  };
  const std::clock_t cpu_start = std::clock();
  ScheduleLog best = fewest_preemptions(original, s);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  EXPECT_EQ(runs_after_expiry, 0) << "a candidate ran after the budget had ended";
  EXPECT_LE(took, budget + 2 * longest_gap) << runs << " candidates";
  EXPECT_LT(longest_gap, budget) << "the search looks at its budget at least once per candidate";
  ASSERT_GT(runs, 0);
  EXPECT_LT(cpu / runs, 10 * pass)
      << runs << " candidates in " << cpu << " s of CPU; a pass " << pass << " s";
  EXPECT_EQ(count_preemptions(best), original.decisions.size()) << "the best so far: the original";
}

// A removal that keeps the finding only when the other pre-emptions anchor by site (another
// thread's loop turned more often) is taken, through the guide's `anchor sites`.
TEST(PreemptionSearch, TriesThePreemptionsAnchoredBySiteWhenStepCountsFail) {
  ScheduleLog original = schedule(20, {3, 8, 12});
  for (Decision& d : original.decisions) d.from_at_site = d.preempt;
  int by_site = 0;
  PreemptionSearch s;
  s.follow = [&](const ScheduleLog& guide) -> std::optional<ScheduleLog> {
    std::set<size_t> k = kept(guide);
    // 12 alone is the finding, but only anchored by site; with 8 too, by step count as well.
    if (!k.count(12) || (!k.count(8) && !guide.anchor_sites)) return std::nullopt;
    by_site += guide.anchor_sites;
    return guide;
  };
  s.out_of_budget = [] { return false; };
  EXPECT_EQ(kept(fewest_preemptions(original, s)), std::set<size_t>({12}));
  EXPECT_GT(by_site, 0);
}

TEST(FindingIdentity, SameWhereItFailsWhateverTheValues) {
  EXPECT_EQ(finding_identity("bug",
                             "uncaught java.lang.AssertionError: total 280 in thread 0\n"
                             "    at A.main(A.java:10)\n    at B.run(B.java:3)"),
            finding_identity("bug",
                             "uncaught java.lang.AssertionError: total 290 in thread 1\n"
                             "    at A.main(A.java:10)\n    at C.run(C.java:4)"));
  EXPECT_NE(
      finding_identity("bug", "uncaught java.lang.AssertionError: x\n    at A.main(A.java:10)"),
      finding_identity("bug", "uncaught java.lang.AssertionError: x\n    at A.main(A.java:11)"));
  EXPECT_NE(
      finding_identity("bug", "uncaught java.lang.AssertionError: x\n    at A.main(A.java:10)"),
      finding_identity("bug",
                       "uncaught java.lang.IllegalStateException: x\n    at "
                       "A.main(A.java:10)"));
  // A deadlock: the frames its threads wait at, in any order.
  EXPECT_EQ(
      finding_identity("deadlock", "thread 1 at P.run(P.java:5), thread 2 at P.run(P.java:9)"),
      finding_identity("deadlock", "thread 2 at P.run(P.java:9), thread 1 at P.run(P.java:5)"));
  EXPECT_NE(finding_identity("deadlock", "thread 1 at P.run(P.java:5)"),
            finding_identity("bug", "thread 1 at P.run(P.java:5)"));
}

}  // namespace
}  // namespace jsched::sched
