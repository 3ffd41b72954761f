// LockSupport's permit in the model: park proceeds only with a permit, an interrupt, or a
// timeout the strategy chooses; unpark before park is not lost; a parked thread nobody unparks
// is a deadlock.
#include <gtest/gtest.h>

#include "scheduler/core/model.h"
#include "scheduler/random/random_strategy.h"

using namespace jsched::sched;

namespace {

struct Fixture {
  RandomStrategy strategy{7};
  Model m{strategy};
  ThreadId main = m.add_main();
  ThreadId child = m.spawn(main);

  // Runs steps until `t` has executed its pending operation (others may run before it).
  void run_until_done(ThreadId t) {
    for (int i = 0; i < 100; ++i) {
      auto next = m.step();
      ASSERT_TRUE(next.has_value());
      if (*next == t) return;
      m.arrive(*next, Op::of(OpKind::Continue));
    }
    FAIL() << "thread " << t << " never ran";
  }
};

}  // namespace

TEST(Park, WithoutPermitTheThreadIsNotEnabledAndAloneItIsADeadlock) {
  Fixture f;
  f.m.end(f.child);
  f.m.arrive(f.main, Op::of(OpKind::Park));
  EXPECT_TRUE(f.m.enabled().empty());
  EXPECT_TRUE(f.m.deadlocked());
}

TEST(Park, AnUnparkBeforeTheParkIsNotLost) {
  Fixture f;
  f.m.unpark(f.main, f.child);
  f.m.end(f.main);
  f.m.arrive(f.child, Op::of(OpKind::Park));
  f.run_until_done(f.child);
  EXPECT_EQ(f.m.outcome(f.child), Outcome::Ok);
  EXPECT_FALSE(f.m.thread(f.child).permit);  // consumed
  f.m.arrive(f.child, Op::of(OpKind::Park));
  EXPECT_TRUE(f.m.deadlocked());  // one permit, one park
}

TEST(Park, UnparkEnablesAParkedThread) {
  Fixture f;
  f.m.arrive(f.child, Op::of(OpKind::Park));
  f.m.arrive(f.main, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.enabled().size(), 1u);
  f.m.unpark(f.main, f.child);
  EXPECT_EQ(f.m.enabled().size(), 2u);
}

TEST(Park, AnInterruptEnablesItAndStaysSet) {
  Fixture f;
  f.m.end(f.main);
  f.m.arrive(f.child, Op::of(OpKind::Park));
  EXPECT_TRUE(f.m.deadlocked());
  f.m.set_interrupt(f.child);
  f.run_until_done(f.child);
  EXPECT_EQ(f.m.outcome(f.child), Outcome::Ok);
  EXPECT_TRUE(f.m.interrupted(f.child));  // LockSupport.park leaves the flag to the caller
}

TEST(Park, ATimedParkMayTimeOut) {
  Fixture f;
  f.m.end(f.main);
  Op op = Op::of(OpKind::Park);
  op.timed = true;
  f.m.arrive(f.child, op);
  f.run_until_done(f.child);
  EXPECT_EQ(f.m.outcome(f.child), Outcome::Timeout);
}

TEST(Park, TimeRunsOutOnlyWhenNoThreadCanRunAndEarliestDeadlineFirst) {
  Fixture f;
  ThreadId third = f.m.spawn(f.main);
  auto timed = [](int64_t deadline) {
    Op op = Op::of(OpKind::Park);
    op.timed = true;
    op.slot = deadline;
    return op;
  };
  f.m.arrive(f.child, timed(500));
  f.m.arrive(third, timed(200));
  f.m.arrive(f.main, Op::of(OpKind::Continue));
  ASSERT_EQ(f.m.enabled().size(), 1u);  // main can run: no time passes
  EXPECT_EQ(f.m.enabled()[0].thread, f.main);
  f.m.arrive(f.main, Op::of(OpKind::Park));  // now nobody can run but by a timeout
  EXPECT_FALSE(f.m.deadlocked());
  ASSERT_EQ(f.m.enabled().size(), 1u);
  EXPECT_EQ(f.m.enabled()[0].thread, third);
  f.run_until_done(third);
  EXPECT_EQ(f.m.outcome(third), Outcome::Timeout);
}

TEST(Park, UnparkDependsOnTheTargetsParkAndSyncOnTheSameObject) {
  Op unpark = Op::thread(OpKind::Unpark, 2);
  EXPECT_TRUE(dependent(1, unpark, 2, Op::of(OpKind::Park)));
  EXPECT_FALSE(dependent(1, unpark, 3, Op::of(OpKind::Park)));
  EXPECT_TRUE(dependent(1, Op::sync(9, true, 0), 2, Op::sync(9, false, 0)));
  EXPECT_FALSE(dependent(1, Op::sync(9, false, 0), 2, Op::sync(9, false, 0)));
  EXPECT_FALSE(dependent(1, Op::sync(9, true, 0), 2, Op::sync(8, true, 0)));
  EXPECT_TRUE(dependent(1, Op::sync(9, true, 0), 2, Op::monitor(OpKind::Enter, 9)));
}
