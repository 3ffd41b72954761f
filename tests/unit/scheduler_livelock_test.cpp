// Livelocks the model can vouch for (Model::turning_on_time): threads turning on timed waits
// while nothing changes and every other thread waits for good. Whatever else goes on (a write
// another thread sees, a thread that could run but is not chosen, one that will wake at a
// deadline, main gone) is not one.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/core/model.h"
#include "scheduler/random/random_strategy.h"

using namespace jsched::sched;

namespace {

constexpr int64_t kStep = 1000;
constexpr int64_t kPoll = 10'000'000;  // each turn sleeps 10 ms of virtual time
constexpr ObjectId kFlag = 1;

// Never chooses main while another thread can run (a strategy's priorities, as PCT's); the
// others in turn.
class MainLast : public Strategy {
 public:
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    std::vector<size_t> others;
    for (size_t i = 0; i < enabled.size(); ++i)
      if (enabled[i].thread != 0) others.push_back(i);
    return others.empty() ? 0 : others[turn_++ % others.size()];
  }
  size_t choose_aux(AuxChoice, size_t) override { return 0; }

 private:
  size_t turn_ = 0;
};

// The volatile flag the pollers read (and b may write).
Op flag(bool write) {
  Op op = Op::variable(write, kFlag, 0);
  op.ordered = true;
  return op;
}

// Two children each loop `while (!flag) Thread.sleep(10)`; main does what the test says.
// `write_every`: child b sets the flag (another thread sees it) every that many of its turns.
struct Pollers {
  explicit Pollers(Strategy& s) : m(s) {
    m.set_time(kStep, false);
    m.started(main, a);
    m.started(main, b);
  }
  // main waits for a to end, for good.
  void main_joins() { m.arrive(main, Op::thread(OpKind::Join, a)); }
  void run(int steps, int write_every = 0) {
    for (int i = 0; i < steps; ++i) {
      auto t = m.step();
      ASSERT_TRUE(t.has_value());
      if (*t == main) {
        m.arrive(main, main_next);
        continue;
      }
      Op last = m.thread(*t).pending;
      if (last.kind == wait) {
        ++turns[*t == a ? 0 : 1];
        m.arrive(*t, flag(*t == b && write_every && turns[1] % write_every == 0));
      } else {
        Op s = Op::of(wait);
        s.timed = true;
        s.slot = m.now() + kPoll;
        m.arrive(*t, s);
      }
    }
  }
  Model m;
  ThreadId main = m.add_main();
  ThreadId a = m.spawn(main), b = m.spawn(main);
  Op main_next = Op::of(OpKind::Continue);
  OpKind wait = OpKind::Sleep;  // or a timed Park, which may time out early
  int turns[2] = {0, 0};
};

}  // namespace

// main joins a, which never ends; a and b turn on their sleeps reading a flag nobody sets.
TEST(Livelock, ThreadsTurningOnTheClockWhileMainWaitsForGoodAreOne) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomStrategy s(seed);
    Pollers p(s);
    p.main_joins();
    p.run(2000);
    EXPECT_EQ(p.m.turning_on_time(100), (std::vector<ThreadId>{p.a, p.b})) << "seed " << seed;
    EXPECT_GE(p.m.now(), 100 * kPoll);
  }
}

// The turns must be many: a few retries are no livelock yet.
TEST(Livelock, AFewTurnsAreNotOne) {
  RandomStrategy s(3);
  Pollers p(s);
  p.main_joins();
  p.run(60);
  EXPECT_TRUE(p.m.turning_on_time(100).empty());
  EXPECT_FALSE(p.m.turning_on_time(2).empty());
}

// b writes what a reads every 50 turns: the state changes, however regular the loop.
TEST(Livelock, AWriteAnotherThreadSeesEndsTheStretch) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomStrategy s(seed);
    Pollers p(s);
    p.main_joins();
    p.run(4000, 50);
    EXPECT_TRUE(p.m.turning_on_time(60).empty()) << "seed " << seed;
  }
}

// main could run but the strategy never picks it, while the others' timed parks time out early
// (a thread descheduled past its timeout): the loop is the scheduler's doing, not the program's.
TEST(Livelock, AThreadThatCouldRunButIsNotChosenRulesItOut) {
  for (bool main_can_run : {false, true}) {
    MainLast s;
    Pollers p(s);
    p.m.set_time(kStep, true);
    p.wait = OpKind::Park;
    p.m.arrive(p.main, main_can_run ? Op::of(OpKind::Continue) : Op::thread(OpKind::Join, p.a));
    p.run(2000);
    EXPECT_GE(p.turns[0] + p.turns[1], 500);
    EXPECT_EQ(p.m.turning_on_time(100).empty(), main_can_run);
  }
}

// main sleeps for an hour of virtual time: it will wake, and may change everything.
TEST(Livelock, AThreadWithADeadlineAheadRulesItOut) {
  RandomStrategy s(5);
  Pollers p(s);
  Op hour = Op::of(OpKind::Sleep);
  hour.timed = true;
  hour.slot = 3600'000'000'000;
  p.m.arrive(p.main, hour);
  p.run(2000);
  EXPECT_TRUE(p.m.turning_on_time(100).empty());
}

// main has ended: the pollers are what the JVM ends, or not, at its exit.
TEST(Livelock, NoneOnceMainHasEnded) {
  RandomStrategy s(6);
  Pollers p(s);
  p.m.end(p.main);
  p.run(2000);
  EXPECT_TRUE(p.m.turning_on_time(100).empty());
}

// A thread gone where the model cannot see (I/O, a JDK lock) may be doing anything.
TEST(Livelock, ADetachedThreadRulesItOut) {
  RandomStrategy s(7);
  Pollers p(s);
  p.main_joins();
  p.run(1000);
  ASSERT_FALSE(p.m.turning_on_time(100).empty());
  const uint64_t before = p.m.changes();
  p.m.detach(p.main);
  EXPECT_GT(p.m.changes(), before);
  EXPECT_TRUE(p.m.turning_on_time(1).empty());
}
