// The virtual clock's rules (docs/agent.md, "Time"): controlled threads read only virtual time,
// which moves by timeouts (to their deadlines) and by a microsecond per read, never back.
#include <gtest/gtest.h>

#include <thread>

#include "jvmti-agent/model/virtual_clock.h"

using jsched::agent::VirtualClock;

TEST(VirtualClock, RealTimeDoesNotLeakIntoControlledReads) {
  VirtualClock c;
  int64_t a = c.nanos(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int64_t b = c.nanos(true);
  EXPECT_GT(b, a) << "each read moves it a little";
  EXPECT_LT(b - a, 100000) << "twenty real milliseconds did not pass in virtual time";
  int64_t m = c.millis(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(c.millis(true), m);
}

TEST(VirtualClock, ATimeoutMovesTheClockToItsDeadlineAndNeverBack) {
  VirtualClock c;
  const int64_t t0 = c.nanos(true), m0 = c.millis(true);
  const int64_t d1 = c.deadline(false, VirtualClock::span(100, 0));
  const int64_t d2 = c.deadline(false, VirtualClock::span(50, 0));  // taken at the same moment
  c.advance_to(d1);
  EXPECT_GE(c.nanos(true) - t0, 100'000'000);
  EXPECT_GE(c.millis(true) - m0, 100);
  const int64_t after = c.nanos(true);
  c.advance_to(d2);  // an earlier deadline: the clock stays
  EXPECT_GE(c.nanos(true), after);
  EXPECT_LT(c.nanos(true) - t0, 101'000'000) << "two sleeps at once take 100 ms, not 150";
}

TEST(VirtualClock, SpansSaturateAndDeadlinesDoNotOverflow) {
  EXPECT_EQ(VirtualClock::span(INT64_MAX, 0), INT64_MAX);
  EXPECT_EQ(VirtualClock::span(INT64_MAX / 1000000 + 1, 0), INT64_MAX);
  EXPECT_EQ(VirtualClock::span(3, 5), 3000005);
  EXPECT_EQ(VirtualClock::span(-1, 0), 0);
  VirtualClock c;
  c.advance_to(1000);
  EXPECT_EQ(c.deadline(false, INT64_MAX), INT64_MAX);
}
