// The watchdog's clock for its short windows: polls on time count in full, a late one (the
// process stopped or starved) counts as one poll of at most five milliseconds.
#include <gtest/gtest.h>

#include "jvmti-agent/executions/grace_clock.h"

using jsched::agent::GraceClock;

TEST(GraceClock, PollsOnTimeCountInFull) {
  GraceClock c;
  const uint64_t ms = 1000000;
  uint64_t now = 123 * ms;
  EXPECT_EQ(c.advance(now), 0u);
  for (int i = 0; i < 50; ++i) c.advance(now += ms);
  EXPECT_EQ(c.now(), 50 * ms);
}

TEST(GraceClock, APollAfterAStopCountsAsOneLatePollOnly) {
  GraceClock c;
  const uint64_t ms = 1000000;
  uint64_t now = 7 * ms;
  c.advance(now);
  c.advance(now += ms);
  EXPECT_EQ(c.advance(now += 300 * ms), ms + GraceClock::kMaxStepNs);
  EXPECT_EQ(c.advance(now += 2 * ms), 3 * ms + GraceClock::kMaxStepNs);
  EXPECT_EQ(c.advance(now - ms), 3 * ms + GraceClock::kMaxStepNs) << "a clock read out of order";
}
