// The pre-emption search on schedules whose "program" is a rule over the pre-emptions a guide
// keeps: no JVM, so that what the search keeps and how many candidates it tries can be checked
// exactly.
#include <gtest/gtest.h>

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
