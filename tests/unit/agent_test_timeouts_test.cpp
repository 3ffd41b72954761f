// A test's own timeout reached by jsched's step count alone is told from one the program's
// waits reached (jvmti-agent/executions/test_timeouts.h).
#include <gtest/gtest.h>

#include "jvmti-agent/executions/test_timeouts.h"

using namespace jsched::agent;

TEST(TestTimeouts, JUnitsMessagesNameTheirTimeout) {
  EXPECT_EQ(timeout_in("uncaught org.junit.runners.model.TestTimedOutException: test timed out "
                       "after 200 milliseconds in thread 0"),
            200000u);
  EXPECT_EQ(timeout_in("java.util.concurrent.TimeoutException: heavy() timed out after 10 seconds"),
            10000000u);
  EXPECT_EQ(timeout_in("org.opentest4j.AssertionFailedError: execution timed out after 200 ms"),
            200000u);
  EXPECT_EQ(timeout_in("timed out after 2 minutes"), 120000000u);
  EXPECT_FALSE(timeout_in("java.lang.AssertionError: expected:<2> but was:<1>"));
  EXPECT_FALSE(timeout_in("timed out after a while"));
}

TEST(TestTimeouts, StepsThatTakeHalfTheTimeoutAreJschedsClock) {
  const std::string d = "TimeoutException: t() timed out after 1000 milliseconds";
  EXPECT_TRUE(timed_out_by_steps(d, 3000000));  // 3 s of steps past a 1 s timeout
  EXPECT_TRUE(timed_out_by_steps(d, 500000));   // half of it
  EXPECT_FALSE(timed_out_by_steps(d, 400000));  // the program's waits took the rest
  EXPECT_FALSE(timed_out_by_steps(d, 20));      // a sleep past its timeout
  EXPECT_FALSE(timed_out_by_steps("expected:<2> but was:<1>", 10000000));
}
