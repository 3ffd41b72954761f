// The controller with real threads: one at a time, deterministic for a seed, replayable, and
// deadlocks detected.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "scheduler/core/controller.h"
#include "scheduler/random/random_strategy.h"

using namespace jsched::sched;

namespace {

struct Result {
  std::string fingerprint;
  long counter = 0;
  int max_concurrent = 0;
  bool deadlock = false;
};

// `threads` workers each take monitor 1 `iters` times and bump a counter; the main thread
// starts and joins them, as a Java program would.
Result run_counter(uint64_t seed, int threads, int iters, ScheduleLog* record = nullptr,
                   std::unique_ptr<Strategy> strategy = nullptr) {
  if (!strategy) strategy = std::make_unique<RandomStrategy>(seed);
  Controller c(std::move(strategy), record);
  Result r;
  std::atomic<int> inside{0};
  long counter = 0;
  ThreadId main = c.attach_main();
  std::vector<std::thread> os;
  std::vector<ThreadId> ids;
  auto enter_body = [&] {
    int now = ++inside;
    r.max_concurrent = std::max(r.max_concurrent, now);
  };
  for (int k = 0; k < threads; ++k) {
    ThreadId t = c.spawn(main, false);
    ids.push_back(t);
    os.emplace_back([&, t] {
      c.begin(t);
      enter_body();
      for (int i = 0; i < iters; ++i) {
        --inside;
        c.point(t, Op::monitor(OpKind::Enter, 1));
        ++inside;
        long v = counter;  // a lost update would show if two threads ran at once
        std::this_thread::yield();
        counter = v + 1;
        --inside;
        c.release(t, 1, 0);
        ++inside;
      }
      --inside;
      c.end(t);
    });
    c.started(main, t);
  }
  for (ThreadId t : ids) {
    --inside;
    c.point(main, Op::thread(OpKind::Join, t));
    ++inside;
  }
  --inside;
  c.end(main);
  for (auto& t : os) t.join();
  r.counter = counter;
  r.fingerprint = c.inspect([](Model& m) { return m.fingerprint().hex(); });
  return r;
}

}  // namespace

TEST(Controller, OneThreadAtATimeAndNoLostUpdates) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Result r = run_counter(seed, 4, 50);
    EXPECT_EQ(r.counter, 200);
    EXPECT_LE(r.max_concurrent, 1);
  }
}

TEST(Controller, SameSeedSameScheduleAndRecordedRunsReplay) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    ScheduleLog a, b;
    Result ra = run_counter(seed, 3, 20, &a);
    Result rb = run_counter(seed, 3, 20, &b);
    EXPECT_EQ(ra.fingerprint, rb.fingerprint);
    EXPECT_EQ(a.decisions, b.decisions);
    Result rc = run_counter(0, 3, 20, nullptr, std::make_unique<ReplayStrategy>(a));
    EXPECT_EQ(rc.fingerprint, ra.fingerprint);
  }
}

TEST(Controller, LockOrderInversionIsReportedAsDeadlock) {
  int found = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Controller c(std::make_unique<RandomStrategy>(seed), nullptr);
    std::atomic<bool> deadlock{false};
    c.on_deadlock([&] {
      deadlock = true;
      c.abort();
    });
    ThreadId main = c.attach_main();
    std::vector<std::thread> os;
    for (int k = 0; k < 2; ++k) {
      ThreadId t = c.spawn(main, false);
      ObjectId first = k == 0 ? 1 : 2, second = k == 0 ? 2 : 1;
      os.emplace_back([&c, t, first, second] {
        c.begin(t);
        if (c.point(t, Op::monitor(OpKind::Enter, first)) == Outcome::Aborted) return;
        if (c.point(t, Op::monitor(OpKind::Enter, second)) == Outcome::Aborted) return;
        c.release(t, second, 0);
        c.release(t, first, 0);
        c.end(t);
      });
      c.started(main, t);
    }
    c.end(main);
    for (auto& t : os) t.join();
    found += deadlock;
  }
  EXPECT_GT(found, 0);
  EXPECT_LT(found, 40);
}

// Several executions in one process: the execution is over when its last thread that is not a
// daemon ends, and its daemons never run again.
TEST(Controller, DoneWhenTheLastUserThreadEndsAndDaemonsStayFrozen) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Controller c(std::make_unique<RandomStrategy>(seed), nullptr);
    std::atomic<int> done{0};
    std::atomic<long> daemon_steps{0}, at_done{-1};
    c.on_done([&] {
      at_done = daemon_steps.load();
      ++done;
    });
    ThreadId main = c.attach_main();
    ThreadId daemon = c.spawn(main, true);
    std::thread d([&] {
      c.begin(daemon);
      while (c.point(daemon, Op::of(OpKind::Yield)) != Outcome::Aborted) ++daemon_steps;
    });
    c.started(main, daemon);
    ThreadId worker = c.spawn(main, false);
    std::thread w([&] {
      c.begin(worker);
      for (int i = 0; i < 5; ++i) c.point(worker, Op::of(OpKind::Yield));
      c.end(worker);
    });
    c.started(main, worker);
    c.end(main);
    w.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(done.load(), 1);
    EXPECT_EQ(daemon_steps.load(), at_done.load()) << "a daemon ran after the end, seed " << seed;
    c.abort();
    d.join();
  }
}

// accesses=shared: a plain access of a thread holding a monitor is no scheduling point, only
// observed (the race detector sees it); outside every monitor, or once a wait gave it up, it is
// a point again. Nested holds of one monitor count once.
TEST(Controller, APlainAccessInsideAMonitorIsObservedNotAPoint) {
  Controller c(std::make_unique<RandomStrategy>(1), nullptr);
  RaceDetector races;
  c.inspect([&](Model& m) {
    m.detect_races(&races);
    return 0;
  });
  ThreadId main = c.attach_main();
  const Op access = Op::variable(true, 9, 1, 3);
  EXPECT_FALSE(c.observe_if_locked(main, access));
  c.point(main, Op::monitor(OpKind::Enter, 1));
  c.point(main, Op::monitor(OpKind::Enter, 1));
  EXPECT_TRUE(c.observe_if_locked(main, access));
  c.release(main, 1, 0);
  EXPECT_TRUE(c.observe_if_locked(main, access)) << "still held once";
  c.release(main, 1, 0);
  EXPECT_FALSE(c.observe_if_locked(main, access));
  c.end(main);
}
