// Spurious wake-ups in the model (Model::set_spurious): a waiting thread is a candidate at a
// step with the configured probability, drawn from the seed; never when no other thread could
// run (a deadlock stays a deadlock).
#include <gtest/gtest.h>

#include "scheduler/core/model.h"
#include "tests/support/binomial.h"

using namespace jsched::sched;

namespace {

// Runs thread 1 whenever it can, and counts the steps at which thread 0 was a candidate.
class PreferOne : public Strategy {
 public:
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    size_t pick = 0;
    for (size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i].thread == 0) ++offered;
      if (enabled[i].thread == 1) pick = i;
    }
    ++choices;
    return take_zero ? 0 : pick;
  }
  size_t choose_aux(AuxChoice, size_t) override { return 0; }
  uint64_t offered = 0, choices = 0;
  bool take_zero = false;
};

constexpr ObjectId kMonitor = 42;

// Thread 0 holds kMonitor and waits on it (no notify will come); thread 1 is runnable.
void setup(Model& m) {
  m.add_main();
  m.spawn(0);
  m.arrive(0, Op::monitor(OpKind::Enter, kMonitor));
  // Thread 1's Begin and thread 0's Enter: run thread 0 first.
}

}  // namespace

TEST(Spurious, AWaitingThreadIsACandidateWithTheConfiguredProbability) {
  for (double p : {0.0, 0.1, 0.5}) {
    PreferOne s;
    Model m(s);
    m.set_spurious(p, 7);
    m.add_main();
    m.spawn(0);
    ASSERT_TRUE(m.wait(0, kMonitor, false, 1) == false);  // not held: IllegalMonitor
    m.arrive(0, Op::monitor(OpKind::Enter, kMonitor));
    s.take_zero = true;
    ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // thread 0 takes the monitor
    s.take_zero = false;
    ASSERT_TRUE(m.wait(0, kMonitor, false, 1));
    s.offered = s.choices = 0;
    const uint64_t n = 20000;
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(m.step(), std::optional<ThreadId>(1));
      m.arrive(1, Op::of(OpKind::Yield));
    }
    jsched::test::Interval ci =
        jsched::test::wilson(s.offered, n);  // single candidates are not choices
    if (p == 0) {
      EXPECT_EQ(s.offered, 0u);
    } else {
      EXPECT_LE(ci.lo, p) << p;
      EXPECT_GE(ci.hi, p) << p;
    }
  }
}

TEST(Spurious, AChosenWaiterWakesSpuriouslyAndNeverWhenNothingElseCouldRun) {
  PreferOne s;
  Model m(s);
  m.set_spurious(1.0, 3);
  setup(m);
  s.take_zero = true;
  ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // the monitor
  ASSERT_TRUE(m.wait(0, kMonitor, false, 1));
  ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // p = 1: offered, and taken
  EXPECT_EQ(m.outcome(0), Outcome::Spurious);
  EXPECT_EQ(m.monitors().at(kMonitor).owner, 0u) << "woken with its monitor back";
  // Thread 1 ends; thread 0 waits again with nobody else: a deadlock, never a spurious wake-up.
  ASSERT_TRUE(m.wait(0, kMonitor, false, 1));
  s.take_zero = false;
  ASSERT_EQ(m.step(), std::optional<ThreadId>(1));  // thread 1's Begin
  m.end(1);
  EXPECT_EQ(m.step(), std::nullopt);
  EXPECT_TRUE(m.deadlocked());
}

TEST(Spurious, TheDrawsComeFromTheSeed) {
  auto trace = [](uint64_t seed) {
    PreferOne s;
    Model m(s);
    m.set_spurious(0.3, seed);
    setup(m);
    s.take_zero = true;
    m.step();
    m.wait(0, kMonitor, false, 1);
    s.take_zero = false;
    std::vector<bool> offered;
    for (int i = 0; i < 200; ++i) {
      uint64_t before = s.offered;
      m.step();
      m.arrive(1, Op::of(OpKind::Yield));
      offered.push_back(s.offered != before);
    }
    return offered;
  };
  EXPECT_EQ(trace(5), trace(5));
  EXPECT_NE(trace(5), trace(6));
}

// Runs thread `want` whenever it is a candidate.
class Pick : public Strategy {
 public:
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    for (size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i].thread == want) return i;
    }
    return 0;
  }
  size_t choose_aux(AuxChoice, size_t) override { return 0; }
  ThreadId want = 0;
};

// A spurious wake-up is drawn for untimed waits only (as for parks): with one drawn for another,
// untimed waiter, a timed waiter is no candidate. (It was, and, taken, returned as timed out
// with the clock at its deadline: a timer's wait for a task far ahead, taken so again and
// again, moved virtual time by its whole delay each time, and every sleeping daemon woke.)
TEST(Spurious, ATimedWaitNeverWakesSpuriously) {
  constexpr int64_t kHour = 3600LL * 1000000000LL;
  constexpr ObjectId kOther = 43;
  Pick s;
  Model m(s);
  m.set_time(1000, false);
  m.set_spurious(1.0, 3);
  setup(m);
  m.spawn(0);
  ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // the monitor
  ASSERT_TRUE(m.wait(0, kMonitor, true, 1, 0, kHour));
  s.want = 2;  // an untimed waiter, for whom spurious wake-ups are drawn
  ASSERT_EQ(m.step(), std::optional<ThreadId>(2));
  m.arrive(2, Op::monitor(OpKind::Enter, kOther));
  ASSERT_EQ(m.step(), std::optional<ThreadId>(2));
  ASSERT_TRUE(m.wait(2, kOther, false, 1));
  s.want = 0;
  for (int i = 0; i < 20; ++i) {
    auto next = m.step();
    ASSERT_TRUE(next.has_value());
    EXPECT_NE(*next, 0u) << "step " << i;
    if (*next == 1) {
      m.arrive(1, Op::of(OpKind::Yield));
    } else {
      ASSERT_TRUE(m.wait(2, kOther, false, 1));
    }
  }
  EXPECT_LT(m.now(), kHour);
}

namespace {

// Thread 0 waits on kMonitor at site 1 (as setup, then the wait) with spurious wake-ups at `p`;
// `s` then picks thread 0 whenever it is a candidate.
void waiting_at_p(Model& m, PreferOne& s, double p, uint64_t seed) {
  m.set_spurious(p, seed);
  setup(m);
  s.take_zero = true;
  ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // the monitor
  ASSERT_TRUE(m.wait(0, kMonitor, false, 1));
}

}  // namespace

// A waiter that wakes spuriously and waits again, k times in a row, sits out the next
// (2^k - 1)/p steps: over 20,000 steps at p = 0.5 it wakes about log2(10,000) times, not at one
// step in two. A notify ends the run: its next spurious wake-up comes at the full probability.
TEST(Spurious, AWaiterThatKeepsWakingSpuriouslyIsOfferedLessAndLess) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    PreferOne s;
    Model m(s);
    ASSERT_NO_FATAL_FAILURE(waiting_at_p(m, s, 0.5, seed));
    int wakes = 0;
    for (int i = 0; i < 20000; ++i) {
      const std::optional<ThreadId> who = m.step();
      ASSERT_TRUE(who.has_value());
      if (*who == 0) {
        ASSERT_EQ(m.outcome(0), Outcome::Spurious);
        ++wakes;
        ASSERT_TRUE(m.wait(0, kMonitor, false, 1));  // its loop waits again
      } else {
        m.arrive(1, Op::of(OpKind::Yield));
      }
    }
    EXPECT_GE(wakes, 10) << "seed " << seed;
    EXPECT_LE(wakes, 16) << "seed " << seed;
    // Thread 1 notifies: thread 0's wait ends for real, and it may wake spuriously at once again.
    s.take_zero = false;
    m.arrive(1, Op::monitor(OpKind::Enter, kMonitor));
    ASSERT_EQ(m.step(), std::optional<ThreadId>(1));
    m.arrive(1, Op::monitor(OpKind::Notify, kMonitor));
    ASSERT_EQ(m.step(), std::optional<ThreadId>(1));
    m.release(1, kMonitor);
    m.arrive(1, Op::of(OpKind::Yield));
    s.take_zero = true;
    ASSERT_EQ(m.step(), std::optional<ThreadId>(0));  // its Reacquire: notified
    EXPECT_EQ(m.outcome(0), Outcome::Ok);
    ASSERT_TRUE(m.wait(0, kMonitor, false, 1));
    int steps = 0;
    while (m.step() != std::optional<ThreadId>(0)) {
      m.arrive(1, Op::of(OpKind::Yield));
      ASSERT_LT(++steps, 60) << "seed " << seed << ": p = 0.5 again";
    }
    EXPECT_EQ(m.outcome(0), Outcome::Spurious);
  }
}

// The run of spurious wake-ups is per wait site: a thread that sits out its loop's wait after
// many of them gets the full probability at once when it waits somewhere else.
TEST(Spurious, AnotherWaitSiteGetsTheFullProbabilityAtOnce) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    PreferOne s;
    Model m(s);
    ASSERT_NO_FATAL_FAILURE(waiting_at_p(m, s, 0.5, seed));
    int wakes = 0, steps = 0;
    while (wakes < 9) {
      ASSERT_LT(++steps, 100000) << "seed " << seed;
      if (m.step() == std::optional<ThreadId>(0)) {
        ++wakes;
        ASSERT_TRUE(m.wait(0, kMonitor, false, wakes < 9 ? 1 : 2));  // the last time, site 2
      } else {
        m.arrive(1, Op::of(OpKind::Yield));
      }
    }
    steps = 0;
    while (m.step() != std::optional<ThreadId>(0)) {
      m.arrive(1, Op::of(OpKind::Yield));
      ASSERT_LT(++steps, 60) << "seed " << seed << ": site 2 waits at p = 0.5";
    }
    EXPECT_EQ(m.outcome(0), Outcome::Spurious);
  }
}
