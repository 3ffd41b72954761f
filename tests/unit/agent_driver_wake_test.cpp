// The driver's one wait between executions: woken when what it waits for holds, not at every
// change on the way there (each wake-up on the execution's CPU costs a round trip).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "jvmti-agent/executions/driver_wake.h"

namespace wake = jsched::agent::driver_wake;
using namespace std::chrono_literals;

TEST(DriverWake, NotifiesWhileTheConditionIsFalseDoNotWakeTheDriver) {
  std::atomic<int> changes{0};
  std::atomic<int> driver_looks{0};
  std::atomic<bool> waiting{false};
  std::thread::id driver;
  bool held = false;
  std::thread d([&] {
    driver = std::this_thread::get_id();
    held = wake::wait_for(10s, [&] {
      if (std::this_thread::get_id() == driver) ++driver_looks;
      waiting = true;
      return changes.load() >= 200;
    });
  });
  while (!waiting) std::this_thread::yield();
  for (int i = 0; i < 200; ++i) {
    ++changes;
    wake::notify();
    if (i % 20 == 0) std::this_thread::sleep_for(1ms);  // time for a wrongly woken driver to look
  }
  d.join();
  EXPECT_TRUE(held);
  // Its first look, and at most one after the last change (the kernel may wake a waiter
  // spuriously, rarely): not one per change.
  EXPECT_LE(driver_looks.load(), 3);
}

TEST(DriverWake, AConditionThatNeverHoldsTimesOut) {
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(wake::wait_for(30ms, [] { return false; }));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
}

TEST(DriverWake, AConditionThatHoldsReturnsAtOnceAndANotifyWithoutADriverIsHarmless) {
  wake::notify();
  EXPECT_TRUE(wake::wait_for(10s, [] { return true; }));
  wake::notify();
}
