// FollowStrategy (jsched minimize's guide): taking a pre-emption out of a recorded schedule
// lets the pre-empted thread go on and leaves the other threads' steps where they were in
// their own runs; the recording of a followed run keeps the pre-emptions it still has.
#include <gtest/gtest.h>

#include <string>

#include "scheduler/replay/follow_strategy.h"

using namespace jsched::sched;

namespace {

// Runs threads that are always enabled, each through its steps at the given sites; the threads
// in execution order, one letter per step.
std::string drive_sites(Strategy& s, const std::vector<std::vector<int32_t>>& sites) {
  std::vector<size_t> done(sites.size(), 0);
  std::string order;
  for (uint64_t step = 0;; ++step) {
    std::vector<Candidate> enabled;
    for (size_t t = 0; t < sites.size(); ++t) {
      if (done[t] == sites[t].size()) continue;
      Op op = Op::of(OpKind::Continue);
      op.site = sites[t][done[t]];
      enabled.push_back({ThreadId(t), op});
    }
    if (enabled.empty()) return order;
    size_t i = 0;
    if (enabled.size() == 1)
      s.forced(enabled[0], step);
    else
      i = s.choose(enabled, step);
    ++done[enabled[i].thread];
    order += char('A' + enabled[i].thread);
  }
}

// Runs threads that are always enabled until they have run their steps (all at site 0).
std::string drive(Strategy& s, const std::vector<int>& left) {
  std::vector<std::vector<int32_t>> sites;
  for (int n : left) sites.emplace_back(size_t(n), 0);
  return drive_sites(s, sites);
}

// Plays back a fixed order of threads.
class Script : public Strategy {
 public:
  explicit Script(std::string order) : order_(std::move(order)) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override {
    for (size_t i = 0; i < enabled.size(); ++i)
      if (enabled[i].thread == ThreadId(order_[step] - 'A')) return i;
    return 0;
  }
  size_t choose_aux(AuxChoice, size_t) override { return 0; }

 private:
  std::string order_;
};

ScheduleLog record(const std::string& order, std::vector<int> steps) {
  Script script(order);
  ScheduleLog log;
  RecordingStrategy rec(script, log);
  EXPECT_EQ(drive(rec, steps), order);
  return log;
}

std::vector<size_t> preemptions(const ScheduleLog& log) {
  std::vector<size_t> out;
  for (size_t i = 0; i < log.decisions.size(); ++i)
    if (log.decisions[i].preempt) out.push_back(i);
  return out;
}

}  // namespace

TEST(FollowStrategy, FollowsTheGuideExactlyWhenNothingIsTakenOut) {
  for (const char* order : {"AAABBAAABB", "ABABABABAA", "AAAAAABBBB", "BBAAAAAABB"}) {
    ScheduleLog log = record(order, {6, 4});
    FollowStrategy f(log);
    EXPECT_EQ(drive(f, {6, 4}), order);
  }
}

TEST(FollowStrategy, ATakenOutPreemptionLetsThePreemptedThreadGoOn) {
  // A runs 3, B pre-empts it for 2, A runs its other 3, B its other 2: three pre-emptions.
  ScheduleLog log = record("AAABBAAABB", {6, 4});
  std::vector<size_t> p = preemptions(log);
  ASSERT_EQ(p.size(), 2u) << "A->B after A's 3 steps, B->A after B's 2 (then A ends: no choice)";
  EXPECT_EQ(log.decisions[p[0]].from, 0u);
  EXPECT_EQ(log.decisions[p[0]].from_steps, 3u);
  // Without the first: A runs to its end, then B: no pre-emption left.
  ScheduleLog g = log;
  g.decisions[p[0]].preempt = false;
  {
    FollowStrategy f(g);
    ScheduleLog again;
    RecordingStrategy rec(f, again);
    EXPECT_EQ(drive(rec, {6, 4}), "AAAAAABBBB");
    EXPECT_TRUE(preemptions(again).empty());
  }
  // Without the second: B, once it runs, runs to its end; A's pre-emption stays where it was.
  g = log;
  g.decisions[p[1]].preempt = false;
  {
    FollowStrategy f(g);
    ScheduleLog again;
    RecordingStrategy rec(f, again);
    EXPECT_EQ(drive(rec, {6, 4}), "AAABBBBAAA");
    EXPECT_EQ(preemptions(again).size(), 1u);
  }
}

TEST(FollowStrategy, ThePreemptedThreadAndItsStepsSurviveTheFile) {
  ScheduleLog log = record("ABBAAB", {3, 3});
  const std::string file = testing::TempDir() + "follow_test.sched";
  log.write(file);
  ScheduleLog back = ScheduleLog::read(file);
  ASSERT_EQ(back.decisions.size(), log.decisions.size());
  for (size_t i = 0; i < log.decisions.size(); ++i) {
    EXPECT_EQ(back.decisions[i].preempt, log.decisions[i].preempt);
    EXPECT_EQ(back.decisions[i].from, log.decisions[i].from);
    EXPECT_EQ(back.decisions[i].from_steps, log.decisions[i].from_steps);
  }
}

// When another change makes a thread's loop turn once more before the operation it was
// pre-empted at, a guide anchored by step count pre-empts it one step early; anchored by site
// (`anchor sites`), before the same operation.
TEST(FollowStrategy, APreemptionAnchoredBySiteStaysBeforeTheSameOperation) {
  Script script("AAABBA");
  ScheduleLog log;
  RecordingStrategy rec(script, log);
  ASSERT_EQ(drive_sites(rec, {{1, 1, 1, 7}, {2, 2}}), "AAABBA");
  std::vector<size_t> p = preemptions(log);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(log.decisions[p[0]].from_at_site);
  EXPECT_EQ(log.decisions[p[0]].from_site, 7);
  EXPECT_EQ(log.decisions[p[0]].from_nth, 0u);
  const std::vector<std::vector<int32_t>> longer = {{1, 1, 1, 1, 7}, {2, 2}};
  {
    FollowStrategy f(log);
    EXPECT_EQ(drive_sites(f, longer), "AAABBAA");
  }
  log.anchor_sites = true;
  const std::string file = testing::TempDir() + "follow_sites_test.sched";
  log.write(file);
  ScheduleLog back = ScheduleLog::read(file);
  EXPECT_TRUE(back.anchor_sites);
  EXPECT_EQ(back.decisions[p[0]].from_site, 7);
  FollowStrategy f(back);
  EXPECT_EQ(drive_sites(f, longer), "AAAABBA");
}
