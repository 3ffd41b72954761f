// Virtual time in the model (Model::set_time): every step costs its time, a sleep or a timeout
// comes once the others' steps have added up to it (or at once when nobody else can run), and
// then whether the timeout or its event comes first is the strategy's choice. With early
// timeouts a timed wait may also time out at any step; a sleep never ends early.
#include <gtest/gtest.h>

#include <set>

#include "scheduler/core/model.h"
#include "scheduler/random/random_strategy.h"

using namespace jsched::sched;

namespace {

constexpr int64_t kStep = 1000;

Op sleep_until(int64_t deadline) {
  Op op = Op::of(OpKind::Sleep);
  op.timed = true;
  op.slot = deadline;
  return op;
}

Op park_until(int64_t deadline) {
  Op op = Op::of(OpKind::Park);
  op.timed = true;
  op.slot = deadline;
  return op;
}

struct Fixture {
  explicit Fixture(uint64_t seed = 7, bool early = false) : strategy(seed) {
    m.set_time(kStep, early);
  }
  RandomStrategy strategy;
  Model m{strategy};
  ThreadId main = m.add_main();
  ThreadId child = m.spawn(main);
};

}  // namespace

// main sleeps 10 steps' worth while the child keeps running: the child takes 10 steps first.
TEST(Time, ASleepEndsOnceTheOthersStepsReachIt) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Fixture f(seed);
    f.m.arrive(f.main, sleep_until(10 * kStep));
    int child_steps = 0;
    for (;;) {
      auto next = f.m.step();
      ASSERT_TRUE(next.has_value());
      if (*next == f.main) break;
      ++child_steps;
      f.m.arrive(f.child, Op::of(OpKind::Continue));
    }
    EXPECT_GE(child_steps, 10) << "seed " << seed;
    EXPECT_GE(f.m.now(), 10 * kStep);
    EXPECT_EQ(f.m.outcome(f.main), Outcome::Ok);
  }
}

// The sleeper alone: time jumps to its deadline at once.
TEST(Time, WhenNobodyElseCanRunTimeJumpsToTheEarliestDeadline) {
  Fixture f;
  f.m.end(f.child);
  f.m.arrive(f.main, sleep_until(5'000'000'000));
  EXPECT_FALSE(f.m.deadlocked());
  auto next = f.m.step();
  ASSERT_EQ(next, f.main);
  EXPECT_GE(f.m.now(), 5'000'000'000);
}

// A timed park (borrowObject with maxWait, tryLock(t)) times out while another thread keeps
// working, once time has passed its deadline; before that it waits.
TEST(Time, ATimeoutComesWhileOthersWorkOnceItsTimeIsReached) {
  Fixture f;
  f.m.arrive(f.main, park_until(3 * kStep));
  int child_steps = 0;
  for (;;) {
    auto next = f.m.step();
    ASSERT_TRUE(next.has_value());
    if (*next == f.main) break;
    ++child_steps;
    f.m.arrive(f.child, Op::of(OpKind::Continue));
  }
  EXPECT_GE(child_steps, 3);
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
}

// A timeout the others' steps reached is one the program's own speed decided
// (Model::step_timeout_ns); one that came by a jump (nobody else could run), or by a sleep of
// the others for most of its time, is not.
TEST(Time, ATimeoutTheStepsReachedIsKnownAsSuch) {
  Fixture f;
  f.m.arrive(f.main, park_until(3 * kStep));
  while (f.m.step() != f.main) f.m.arrive(f.child, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.outcome(f.main), Outcome::Timeout);
  EXPECT_EQ(f.m.step_timeout_ns(f.main), 3 * kStep);
  EXPECT_EQ(f.m.step_timeout_ns(f.child), 0);  // the thread that timed out, not the others

  Fixture alone;
  alone.m.end(alone.child);
  alone.m.arrive(alone.main, park_until(3 * kStep));
  ASSERT_EQ(alone.m.step(), alone.main);
  ASSERT_EQ(alone.m.outcome(alone.main), Outcome::Timeout);
  EXPECT_EQ(alone.m.step_timeout_ns(alone.main), 0);

  // main waits 10 steps' worth; the child sleeps 8 of them, then works.
  Fixture sleeper;
  sleeper.m.arrive(sleeper.main, park_until(10 * kStep));
  sleeper.m.arrive(sleeper.child, sleep_until(8 * kStep));
  while (sleeper.m.step() != sleeper.main)
    sleeper.m.arrive(sleeper.child, Op::of(OpKind::Continue));
  ASSERT_EQ(sleeper.m.outcome(sleeper.main), Outcome::Timeout);
  EXPECT_EQ(sleeper.m.step_timeout_ns(sleeper.main), 0);
}

// A sleep the others' steps passed is known as such too (Model::step_sleep_ns): what the sleeper
// sees when it wakes (how far they got) depends on the cost of a step. A sleep alone is not.
TEST(Time, ASleepTheOthersStepsPassedIsKnownAsSuch) {
  Fixture f;
  f.m.arrive(f.main, sleep_until(3 * kStep));
  while (f.m.step() != f.main) f.m.arrive(f.child, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.outcome(f.main), Outcome::Ok);
  EXPECT_EQ(f.m.step_sleep_ns(f.main), 3 * kStep);
  EXPECT_EQ(f.m.step_timeout_ns(f.main), 0);  // a sleep, not a timeout
  EXPECT_EQ(f.m.step_sleep_ns(f.child), 0);

  Fixture alone;
  alone.m.end(alone.child);
  alone.m.arrive(alone.main, sleep_until(3 * kStep));
  ASSERT_EQ(alone.m.step(), alone.main);
  EXPECT_EQ(alone.m.step_sleep_ns(alone.main), 0);
}

// Once the deadline has passed and the unpark is on its way, both orders happen.
TEST(Time, TimeoutOrEventFirstIsTheStrategysChoice) {
  std::set<Outcome> seen;
  for (uint64_t seed = 1; seed <= 100 && seen.size() < 2; ++seed) {
    Fixture f(seed);
    f.m.arrive(f.main, park_until(2 * kStep));
    // The child takes two steps (time passes the deadline), then unparks main.
    for (int k = 0; k < 2; ++k) {
      f.m.arrive(f.child, Op::of(OpKind::Continue));
      auto next = f.m.step();
      ASSERT_EQ(next, f.child);  // main's deadline is not reached yet
    }
    f.m.arrive(f.child, Op::thread(OpKind::Yield, kNoThread));
    auto next = f.m.step();
    ASSERT_TRUE(next.has_value());
    if (*next == f.child) {
      f.m.unpark(f.child, f.main);
      f.m.end(f.child);
      ASSERT_EQ(f.m.step(), f.main);
    }
    seen.insert(f.m.outcome(f.main));
  }
  EXPECT_EQ(seen, (std::set<Outcome>{Outcome::Ok, Outcome::Timeout}));
}

// timeouts=early: a timed park may time out at any step (time jumps to it); a sleep never.
TEST(Time, EarlyTimeoutsComeAtAnyStepButSleepsDoNot) {
  bool early = false;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Fixture f(seed, true);
    f.m.arrive(f.main, park_until(1'000'000 * kStep));
    auto next = f.m.step();
    ASSERT_TRUE(next.has_value());
    if (*next == f.main) {
      early = true;
      EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
      EXPECT_GE(f.m.now(), 1'000'000 * kStep);
    }
  }
  EXPECT_TRUE(early);
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Fixture f(seed, true);
    f.m.arrive(f.main, sleep_until(1'000'000 * kStep));
    f.m.arrive(f.child, Op::of(OpKind::Continue));
    EXPECT_EQ(f.m.step(), f.child) << "seed " << seed;
  }
}

// A thread detached where the model cannot see (a lock of the JVM's, a long safepoint) may come
// back and wake the waiter: time does not jump past it until released, as for threads outside.
TEST(Time, ADetachedThreadHoldsTheJumpUntilReleased) {
  Fixture f;
  f.m.arrive(f.main, park_until(50 * kStep));
  f.m.detach(f.child);
  EXPECT_FALSE(f.m.step().has_value());
  EXPECT_TRUE(f.m.held_for_outside());
  EXPECT_LT(f.m.now(), 50 * kStep);
  // It comes back before the deadline (and could wake the waiter now).
  f.m.arrive(f.child, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.step(), std::optional<ThreadId>(f.child));
  EXPECT_LT(f.m.now(), 50 * kStep);
  // Detached again, and never back: once released, time moves on to the deadline.
  f.m.detach(f.child);
  f.m.arrive(f.main, park_until(100 * kStep));
  EXPECT_FALSE(f.m.step().has_value());
  f.m.release_outside();
  ASSERT_EQ(f.m.step(), std::optional<ThreadId>(f.main));
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
  EXPECT_GE(f.m.now(), 100 * kStep);
}

// Threads outside the model that may still act (Model::set_outside): no jump to a deadline and
// no deadlock while they may, until released; without them, time jumps at once.
TEST(Time, OutsideThreadsThatMayActHoldTheJumpUntilReleased) {
  Fixture f;
  bool may_act = true;
  f.m.set_outside([&] { return may_act; });
  f.m.end(f.child);
  f.m.arrive(f.main, park_until(50 * kStep));
  EXPECT_FALSE(f.m.step().has_value());
  EXPECT_TRUE(f.m.held_for_outside());
  EXPECT_FALSE(f.m.deadlocked());
  EXPECT_LT(f.m.now(), 50 * kStep);
  f.m.release_outside();
  ASSERT_EQ(f.m.step(), std::optional<ThreadId>(f.main));
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
  EXPECT_GE(f.m.now(), 50 * kStep);
  // Released once: the next wait is held again.
  f.m.arrive(f.main, park_until(100 * kStep));
  EXPECT_FALSE(f.m.step().has_value());
  EXPECT_TRUE(f.m.held_for_outside());
  // An unpark from outside wakes it before its deadline.
  f.m.unpark(kNoThread, f.main);
  ASSERT_EQ(f.m.step(), std::optional<ThreadId>(f.main));
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Ok);
  EXPECT_LT(f.m.now(), 100 * kStep);
  // Once they cannot act, time jumps at once, and an untimed park is a deadlock.
  may_act = false;
  f.m.arrive(f.main, park_until(200 * kStep));
  ASSERT_EQ(f.m.step(), std::optional<ThreadId>(f.main));
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
  f.m.arrive(f.main, Op::of(OpKind::Park));
  EXPECT_FALSE(f.m.step().has_value());
  EXPECT_TRUE(f.m.deadlocked());
  may_act = true;
  EXPECT_FALSE(f.m.deadlocked()) << "an outside thread may still unpark it";
}

namespace {
bool g_io_ready = false;
bool io_ready(int, uint32_t) {
  return g_io_ready;
}
bool nothing_in_flight(int, uint32_t) {
  return false;
}
// An untimed wait for descriptor 9 to be readable.
Op read_wait() {
  Op read = Op::of(OpKind::IoWait);
  read.obj = 9;
  read.var = 1;
  return read;
}
int g_io_asks = 0;
bool counted_io_ready(int, uint32_t) {
  ++g_io_asks;
  return g_io_ready;
}
}  // namespace

// A waiter whose descriptor was not ready is asked again every kIoRecheckSteps steps while
// another thread runs, not at each step (a poll() each); data that arrives is noticed within
// that many steps, and at once when no other thread could run.
TEST(Time, AQuietDescriptorIsAskedAgainEverySoManyStepsAndAtOnceWhenNothingElseRuns) {
  const uint64_t k = Model::kIoRecheckSteps;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Fixture f(seed);
    f.m.set_io_ready(&counted_io_ready);
    g_io_ready = false;
    g_io_asks = 0;
    f.m.arrive(f.main, read_wait());
    f.m.arrive(f.child, Op::of(OpKind::Continue));
    const uint64_t steps = 20 * k;
    for (uint64_t i = 0; i < steps; ++i) {
      ASSERT_EQ(f.m.step(), f.child);
      f.m.arrive(f.child, Op::of(OpKind::Continue));
    }
    EXPECT_LE(g_io_asks, int(steps / k) + 2) << "seed " << seed;
    EXPECT_GE(g_io_asks, int(steps / k) - 1) << "seed " << seed;
    // Ready now: chosen within k steps (the random strategy picks among the two).
    g_io_ready = true;
    uint64_t until = 0;
    while (f.m.step() == f.child) {
      ++until;
      ASSERT_LT(until, 40 * k) << "seed " << seed;
      f.m.arrive(f.child, Op::of(OpKind::Continue));
    }
    EXPECT_EQ(f.m.outcome(f.main), Outcome::Ok);
  }
  // The only other thread parks: the waiter is asked at once, whatever it was told before.
  Fixture f;
  f.m.set_io_ready(&counted_io_ready);
  g_io_ready = false;
  f.m.arrive(f.main, read_wait());
  f.m.arrive(f.child, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.step(), f.child);
  g_io_ready = true;
  f.m.arrive(f.child, Op::of(OpKind::Park));
  ASSERT_EQ(f.m.step(), f.main);
  EXPECT_EQ(f.m.outcome(f.main), Outcome::Ok);
}

// A client's timed read of a loopback socket whose server thread is parked: what the server
// wrote may still be on its way in the kernel, so time does not jump to the read's deadline at
// once (it timed out while the answer was in flight), nor is a deadlock called, until the wait
// is released (the agent does so after a short grace); a descriptor ready meanwhile runs it.
TEST(Time, AnIoWaitHoldsTimeUntilReleasedOrReady) {
  for (bool becomes_ready : {false, true}) {
    Fixture f;
    f.m.set_io_ready(&io_ready);
    g_io_ready = false;
    Op read = read_wait();
    read.timed = true;
    read.slot = 30'000'000'000;
    f.m.arrive(f.main, read);
    f.m.arrive(f.child, Op::of(OpKind::Park));  // untimed: only the read's deadline is left
    EXPECT_FALSE(f.m.step().has_value());
    EXPECT_TRUE(f.m.held_for_io());
    EXPECT_FALSE(f.m.deadlocked());
    EXPECT_LT(f.m.now(), 30'000'000'000) << "no jump while the data may be on its way";
    if (becomes_ready) {
      g_io_ready = true;
      ASSERT_EQ(f.m.step(), f.main);
      EXPECT_EQ(f.m.outcome(f.main), Outcome::Ok);
      EXPECT_LT(f.m.now(), 30'000'000'000);
    } else {
      f.m.release_outside();
      ASSERT_EQ(f.m.step(), f.main);
      EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
      EXPECT_GE(f.m.now(), 30'000'000'000);
    }
  }
}

// With nothing on its way to the descriptor (the other end wrote nothing that has not arrived),
// there is nothing to wait for: time moves on at once, here to the read's deadline, and two
// untimed readers would be a deadlock without the watchdog's grace.
TEST(Time, AnIoWaitWithNothingOnItsWayHoldsNothing) {
  for (bool timed : {true, false}) {
    Fixture f;
    f.m.set_io_ready(&io_ready, &nothing_in_flight);
    g_io_ready = false;
    Op read = read_wait();
    read.timed = timed;
    read.slot = timed ? 30'000'000'000 : -1;
    f.m.arrive(f.main, read);
    f.m.arrive(f.child, Op::of(OpKind::Park));
    if (timed) {
      ASSERT_EQ(f.m.step(), f.main);
      EXPECT_EQ(f.m.outcome(f.main), Outcome::Timeout);
      EXPECT_GE(f.m.now(), 30'000'000'000);
    } else {
      EXPECT_FALSE(f.m.step().has_value());
      EXPECT_FALSE(f.m.held_for_io());
      EXPECT_TRUE(f.m.deadlocked());
    }
  }
}
