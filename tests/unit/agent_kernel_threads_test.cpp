// What the kernel says of a thread: the watchdog tells a spin from a block and a starved thread
// from one that had its chance by it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "jvmti-agent/model/kernel_threads.h"

using jsched::agent::kernel_thread;

TEST(KernelThreads, ARunningThreadIsRunnableAndGainsCpuTime) {
  const int me = int(gettid());
  const auto before = kernel_thread(me);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->state, 'R');
  volatile double x = 1;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(100))
    x = x * 1.000001;
  const auto after = kernel_thread(me);
  ASSERT_TRUE(after.has_value());
  EXPECT_GT(after->cpu_s, before->cpu_s) << "100 ms of work in ticks of 10 ms";
}

TEST(KernelThreads, AThreadAsleepIsSoAndAnUnknownOneIsNothing) {
  std::atomic<int> tid{0};
  std::thread sleeper([&] {
    tid = int(gettid());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto k = kernel_thread(tid);
  sleeper.join();
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->state, 'S');
  EXPECT_FALSE(kernel_thread(0).has_value());
  EXPECT_FALSE(kernel_thread(tid).has_value()) << "ended";
}
