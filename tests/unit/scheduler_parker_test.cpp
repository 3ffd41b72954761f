// The futex permit behind every handoff, and the yields before it sleeps: a thread passed over
// for one of a few others that could go yields its CPU first, so that the turn handed back to
// it soon costs neither side a futex call.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "scheduler/core/model.h"
#include "scheduler/core/parker.h"
#include "scheduler/random/random_strategy.h"

using namespace jsched::sched;

TEST(Parker, APermitGivenWhileTheOwnerYieldsNeedsNoWakeUp) {
  Parker p;
  std::atomic<bool> back{false};
  // Enough yields to outlast any delay of this thread on a loaded machine (each takes the
  // CPU's turn once; the permit ends them at once).
  std::thread owner([&] {
    p.park(50'000'000);
    back = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(p.give()) << "the owner, still yielding, was asleep";
  owner.join();
  EXPECT_TRUE(back);
  EXPECT_FALSE(p.pending()) << "the permit was taken";
}

TEST(Parker, AnOwnerOutOfYieldsSleepsAndIsWoken) {
  Parker p;
  std::thread owner([&] { p.park(3); });
  // Its few yields are soon over, and it sleeps on the futex: the giver must wake it.
  while (!p.sleeping()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(p.give());
  p.wake();
  owner.join();
}

TEST(Parker, APermitGivenBeforeTheParkIsKept) {
  Parker p;
  EXPECT_FALSE(p.give());
  p.park(0);  // returns at once
  EXPECT_FALSE(p.pending());
}

TEST(Model, TheLastStepSaysWhetherItChoseAmongAFewThreads) {
  RandomStrategy strategy{3};
  Model m{strategy};
  const ThreadId main = m.add_main();
  const ThreadId a = m.spawn(main);
  m.arrive(main, Op::of(OpKind::Continue));
  m.arrive(a, Op::of(OpKind::Continue));
  ASSERT_TRUE(m.step().has_value());
  EXPECT_TRUE(m.chose_among_few(main));
  EXPECT_TRUE(m.chose_among_few(a));
  // Five could go: too many for their waiters to take turns yielding.
  std::vector<ThreadId> all = {main, a};
  while (all.size() < Model::kFewCandidates + 1) all.push_back(m.spawn(main));
  for (ThreadId t : all) m.arrive(t, Op::of(OpKind::Continue));
  ASSERT_TRUE(m.step().has_value());
  for (ThreadId t : all) EXPECT_FALSE(m.chose_among_few(t)) << "five could go";
}
