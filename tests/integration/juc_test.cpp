// java.util.concurrent under the real agent: a ReentrantLock deadlock is a deadlock
// with both stacks, a pool with futures and a latch runs clean, idle pool workers left at the
// end are not a deadlock, and accesses=volatile means volatile fields only.
#include <gtest/gtest.h>

#include <regex>

#include "tests/integration/agent_runner.h"
#include "tests/support/test_paths.h"

using namespace jsched;

namespace {

std::string cp() {
  return test::data_dir() + "/agent";
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

// P(deadlock) is about 0.28 per run (samples/README.md): 60 seeds all missing it has
// probability below 1e-8.
TEST(Juc, ReentrantLockDeadlockIsADeadlockWithBothStacksNeverAHang) {
  int deadlocks = 0;
  for (int seed = 1; seed <= 60 && deadlocks < 3; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed), JSCHED_SAMPLES_CLASSES,
                                            "jsched.samples.lockorder.Main");
    ASSERT_TRUE(r.status == 0 || r.status == 4) << "seed " << seed << ": " << r.err;
    if (r.status != 4) continue;
    ++deadlocks;
    EXPECT_NE(r.err.find("DEADLOCK (strategy random, seed " + std::to_string(seed)),
              std::string::npos);
    // Each transfer thread waits for the lock the other holds, named with its owner.
    EXPECT_EQ(count(r.err, "waits for a ReentrantLock$NonfairSync held by thread 0."), 2u) << r.err;
    EXPECT_EQ(count(r.err, "at java.util.concurrent.locks.ReentrantLock.lock("), 2u) << r.err;
    EXPECT_GE(count(r.err, "at jsched.samples.lockorder.Main$"), 2u) << r.err;
    EXPECT_NE(r.err.find("replay: "), std::string::npos);
  }
  EXPECT_GE(deadlocks, 3);
}

TEST(Juc, ThreadPoolFuturesAndLatchRunCleanUnderAHundredSeeds) {
  for (int seed = 1; seed <= 100; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed), JSCHED_SAMPLES_CLASSES,
                                            "jsched.samples.executors.Main");
    ASSERT_EQ(r.status, 0) << "seed " << seed << ": " << r.err;
    EXPECT_NE(r.out.find("sum of squares 1..6 = 91"), std::string::npos) << r.out;
  }
}

TEST(Juc, IdleWorkersOfAPoolNeverShutDownAreNotADeadlock) {
  for (int seed = 1; seed <= 10; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed), cp(), "IdlePool");
    ASSERT_EQ(r.status, 0) << "seed " << seed << ": " << r.err;
    EXPECT_NE(r.out.find("result=42"), std::string::npos);
    EXPECT_NE(r.err.find("waiting for work (its executor or timer was never shut down"),
              std::string::npos)
        << r.err;
  }
}

TEST(Juc, VolatileAccessesAreThePointsAndPlainOnesAreNot) {
  // strategy=random's default, and the option given (with no strategy named, every access is a
  // point: below).
  for (const char* accesses : {",strategy=random", ",accesses=volatile"}) {
    test::ProcessResult r =
        test::run_agent(std::string("seed=1,verbose") + accesses, cp(), "VolatileOnly");
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, std::regex("getField=(\\d+) putField=(\\d+)")))
        << r.err;
    EXPECT_EQ(m[1], "6") << r.err;  // b.hot read six times; b.cold and System.out not counted
    EXPECT_EQ(m[2], "5") << r.err;
  }
  test::ProcessResult all = test::run_agent("seed=1,verbose,accesses=all", cp(), "VolatileOnly");
  // Both fields, and the getstatic of System.out (final, but accesses=all looks up only the
  // declarations of classes it rewrites).
  EXPECT_NE(all.err.find("getField=13 putField=10"), std::string::npos) << all.err;
}
