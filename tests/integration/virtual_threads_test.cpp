// Virtual threads (JDK 21+) as threads of the model: the samples of samples/virtual/suite.xml
// under the real agent on a JDK that has them (the test command's run on JDK 21 or later; on
// JDK 17 every test here is skipped, and says so).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <set>

#include "protocol/json.h"
#include "runner/batch/suite.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/maven_project.h"
#include "tests/integration/results.h"
#include "tests/support/test_paths.h"

using namespace jsched;

namespace jsched::runner {
void PrintTo(const SuiteProgram& p, std::ostream* os);  // samples_test.cpp
}  // namespace jsched::runner

namespace {

// Why the tests here cannot run ("" when they can).
std::string cannot_run() {
  if (test::jdk_feature() < 21)
    return "jsched: skip: virtual threads need JDK 21 or later; the tests run on JDK " +
           std::to_string(test::jdk_feature());
  if (!std::ifstream(std::string(JSCHED_VIRTUAL_SAMPLES_CLASSES) +
                     "/jsched/samples/virtual/lockorder/Main.class"))
    return "jsched: skip: the virtual-thread samples were not built (no JDK 21 when the build "
           "was configured)";
  return "";
}

#define SKIP_UNLESS_VIRTUAL_THREADS()     \
  do {                                    \
    const std::string why = cannot_run(); \
    if (!why.empty()) {                   \
      std::printf("%s\n", why.c_str());   \
      GTEST_SKIP() << why;                \
    }                                     \
  } while (0)

const std::string kSuite = std::string(JSCHED_SAMPLES_DIR) + "/virtual/suite.xml";

std::vector<runner::SuiteProgram> programs() {
  return runner::Suite::load(kSuite).programs;
}

std::string name_of(const ::testing::TestParamInfo<runner::SuiteProgram>& i) {
  std::string n = i.param.name;
  for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

std::string cp() {
  return JSCHED_VIRTUAL_SAMPLES_CLASSES;
}

// The exit statuses a sample's expected finding may end with ("any": a bug or a deadlock).
std::set<int> expected_status(const std::string& expect) {
  if (expect == "bug") return {3};
  if (expect == "deadlock") return {4};
  if (expect == "any") return {3, 4};
  return {0};
}

}  // namespace

class VirtualSample : public ::testing::TestWithParam<runner::SuiteProgram> {};

// A buggy sample's bug is found by the default strategy among the first 100 seeds and its
// recorded schedule replays it, three times of three; a correct one runs 30 seeds clean.
TEST_P(VirtualSample, FoundAndReplayedOrClean) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  const runner::SuiteProgram& p = GetParam();
  test::TempDir d;
  const std::set<int> want = expected_status(p.expect);
  const bool correct = want.count(0) > 0;
  for (int seed = 1; seed <= (correct ? 30 : 100); ++seed) {
    const std::string sched = d.path() + "/s";
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed) + ",record=" + sched,
                                            cp(), p.main, {}, p.args);
    if (correct) {
      ASSERT_EQ(r.status, 0) << p.name << " seed " << seed << ": " << r.err;
      continue;
    }
    if (r.status == 0) continue;
    ASSERT_TRUE(want.count(r.status)) << p.name << " seed " << seed << ":\n" << r.err;
    for (int k = 0; k < 3; ++k) {
      test::ProcessResult again = test::run_agent("replay=" + sched, cp(), p.main, {}, p.args);
      EXPECT_EQ(again.status, r.status) << again.err << "\nthe recorded run:\n" << r.err;
    }
    return;
  }
  if (!correct) FAIL() << p.name << ": no " << p.expect << " finding in 100 seeds";
}

INSTANTIATE_TEST_SUITE_P(VirtualSamples, VirtualSample, ::testing::ValuesIn(programs()), name_of);

// Each virtual thread is a thread of the model: 2,000 of them make 2,001 threads of the report,
// and the same seed gives the same schedule (fingerprint) in every JVM, with the machine's two
// cores kept busy by other processes.
TEST(VirtualThreads, EveryOneIsAThreadOfTheModelAndASeedGivesOneScheduleUnderLoad) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  test::TempDir d;
  // Two processes that keep the cores busy, killed however the test ends.
  struct Load {
    std::vector<pid_t> pids;
    Load() {
      for (int i = 0; i < 2; ++i) {
        pid_t pid = fork();
        if (pid == 0) {
          execl("/bin/sh", "sh", "-c", "while :; do :; done", nullptr);
          _exit(127);
        }
        pids.push_back(pid);
      }
    }
    ~Load() {
      for (pid_t pid : pids) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } load;
  for (const char* options : {"strategy=random", "strategy=pct,steps=20000"}) {
    for (int seed = 1; seed <= 2; ++seed) {
      std::set<std::string> prints;
      for (int k = 0; k < 3; ++k) {
        const std::string report = d.path() + "/r.json";
        test::ProcessResult r = test::run_agent(
            std::string(options) + ",seed=" + std::to_string(seed) + ",report=" + report, cp(),
            "jsched.samples.virtual.many.Main", {}, {"2000"});
        ASSERT_EQ(r.status, 0) << options << " seed " << seed << ": " << r.err;
        json::Value rep = json::parse(test::slurp(report));
        EXPECT_EQ(rep.num("threads"), 2001);
        prints.insert(rep.str("fingerprint"));
      }
      EXPECT_EQ(prints.size(), 1u) << options << " seed " << seed;
    }
  }
}

// Every kind of scheduling point in virtual threads: sleeps and timed waits on the virtual clock
// (a minute's sleep interrupted), timed parks, a latch, a semaphore, a barrier, a VarHandle and
// a volatile field, with no finding under any seed; a virtual thread that waits for a socket is
// a hidden block (the report says so), never a deadlock.
TEST(VirtualThreads, EveryPointWorksAndASocketWaitIsAHiddenBlock) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  test::TempDir d;
  const std::string classes = test::data_dir() + "/agent21";
  int io_waits = 0;
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 5; ++seed) {
      const std::string report = d.path() + "/r.json";
      const std::string options = std::string("strategy=") + strategy +
                                  ",seed=" + std::to_string(seed) + ",report=" + report;
      test::ProcessResult p = test::run_agent(options, classes, "VtPoints", {}, {"points"});
      EXPECT_EQ(p.status, 0) << strategy << " seed " << seed << ": " << p.err;
      EXPECT_EQ(p.out, "points ok\n");
      EXPECT_LT(json::parse(test::slurp(report)).num("elapsed_ms"), 30000);
      test::ProcessResult s = test::run_agent(options, classes, "VtPoints", {}, {"socket"});
      EXPECT_EQ(s.status, 0) << strategy << " seed " << seed << ": " << s.err;
      EXPECT_EQ(s.out, "socket ok\n");
      io_waits += test::slurp(report).find("waiting for I/O") != std::string::npos;
    }
  }
  EXPECT_GE(io_waits, 8) << "the socket waits recorded as hidden blocks";
}

// A deadlock between a virtual and a platform thread is a deadlock (never a hang, a thread of
// the JDK's virtual-thread machinery never holding its confirmation), reported with each
// thread's stack and what it waits for; its timeline marks the virtual thread, and its minimal
// schedule, followed, deadlocks again.
TEST(VirtualThreads, AMixedDeadlockIsReportedWithBothStacksAndDrawnWithTheVirtualLane) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  test::TempDir d;
  for (int seed = 1; seed <= 100; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed), cp(),
                                            "jsched.samples.virtual.mixeddeadlock.Main");
    if (r.status == 0) continue;
    ASSERT_EQ(r.status, 4) << r.err;
    EXPECT_NE(r.err.find("jsched: DEADLOCK"), std::string::npos) << r.err;
    EXPECT_GE(test::count_lines(r.err, " waits for "), 2) << r.err;
    EXPECT_NE(r.err.find("at java.lang.VirtualThread.run"), std::string::npos) << r.err;
    test::ProcessResult m =
        test::run_jsched({"minimize", "--out", d.path() + "/m", "--", test::java_bin(),
                          "-agentpath:" + test::agent_path() + "=seed=" + std::to_string(seed),
                          "-cp", cp(), "jsched.samples.virtual.mixeddeadlock.Main"});
    ASSERT_EQ(m.status, 0) << m.out << m.err;
    const std::string page = test::slurp(d.path() + "/m/timeline.html");
    EXPECT_EQ(test::count_lines(page, "(virtual)</th>"), 1) << page;
    // The minimal schedule, followed, deadlocks again.
    test::ProcessResult f = test::run_agent("follow=" + d.path() + "/m/minimal.sched", cp(),
                                            "jsched.samples.virtual.mixeddeadlock.Main");
    EXPECT_EQ(f.status, 4) << f.err;
    return;
  }
  FAIL() << "no deadlock in 100 seeds";
}

// In one JVM, executions follow each other with virtual threads left deadlocked by the one
// before: each ends like a platform thread, and every execution ends in a verdict.
TEST(VirtualThreads, InJvmIterationsEndTheirVirtualThreads) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  for (const char* main :
       {"jsched.samples.virtual.lockorder.Main", "jsched.samples.virtual.missedsignal.Main"}) {
    test::ProcessResult r =
        test::run_agent("strategy=random,seed=1,iterations=200,explore", cp(), main);
    EXPECT_TRUE(r.status == 3 || r.status == 4) << main << ": " << r.err;
    EXPECT_NE(r.err.find("200 iterations in"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("HANG"), std::string::npos) << r.err;
  }
}

// The correct samples under every strategy, through the runner (in one JVM where the strategy
// allows): nothing found.
TEST(VirtualThreads, EveryStrategyRunsTheCorrectSamplesClean) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  test::TempDir d;
  const std::set<std::string> in_jvm = {"random", "rapos",  "pct",      "pos",
                                        "surw",   "hapset", "portfolio"};
  int batch = 0;
  for (const runner::SuiteProgram& p : programs()) {
    if (p.expect != "none" || p.main.find(".many.") != std::string::npos) continue;
    for (const char* s :
         {"random", "rapos", "pct", "pctvb", "pos", "surw", "portfolio", "hapset", "tsca"}) {
      std::vector<std::string> args = {
          "run", "--strategy",    s,       "--runs",
          "20",  "--jobs",        "2",     "--seed",
          "1",   "--no-minimize", "--out", d.path() + "/b" + std::to_string(++batch)};
      if (in_jvm.count(s)) args.insert(args.end(), {"--in-jvm", "10"});
      args.insert(args.end(), {"--", test::java_bin(), "-cp", cp(), p.main});
      test::ProcessResult r = test::run_jsched(args);
      EXPECT_EQ(r.status, 0) << p.name << " under " << s << ":\n" << r.out << r.err;
    }
  }
}

// Under Surefire, a JUnit 5 test whose body starts virtual threads: the lost update of the demo's
// account, deposited from two virtual threads, fails with its seed; the atomic deposit from a
// virtual-thread-per-task executor passes.
TEST(VirtualThreads, SurefireFailsTheVirtualLostUpdateAndPassesTheSafeOne) {
  SKIP_UNLESS_VIRTUAL_THREADS();
  test::TempDir dir;
  const std::string tests = dir.path() + "/maven-demo-junit5/src/test/java/demo/";
  std::filesystem::create_directories(tests);
  std::ofstream(tests + "VirtualAccountTest.java") << R"(package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class VirtualAccountTest {
  @Test
  void concurrentVirtualDepositsAreAllCounted() throws InterruptedException {
    Account account = new Account(100);
    Thread a = Thread.ofVirtual().start(() -> account.deposit(10));
    Thread b = Thread.startVirtualThread(() -> account.deposit(20));
    a.join();
    b.join();
    assertEquals(130, account.balance());
  }
}
)";
  std::ofstream(tests + "SafeVirtualAccountTest.java") << R"(package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
class SafeVirtualAccountTest {
  @Test
  void virtualDepositsAreAllCounted() throws Exception {
    Account account = new Account(100);
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      executor.submit(() -> account.depositAtomically(10));
      executor.submit(() -> account.depositAtomically(20));
    }
    assertEquals(130, account.balance());
  }
}
)";
  test::ProcessResult r = test::mvn_test(
      "maven-demo-junit5", dir,
      {"-Dmaven.compiler.release=21", "-Dtest=VirtualAccountTest,SafeVirtualAccountTest"});
  EXPECT_NE(r.status, 0) << r.out << r.err;
  const std::string reports = dir.path() + "/maven-demo-junit5/target/surefire-reports/";
  const std::string buggy = test::read_text(reports + "TEST-demo.VirtualAccountTest.xml");
  const std::string safe = test::read_text(reports + "TEST-demo.SafeVirtualAccountTest.xml");
  EXPECT_NE(buggy.find("jsched found a bug in iteration"), std::string::npos) << buggy << r.out;
  EXPECT_NE(buggy.find("expected: &lt;130&gt;"), std::string::npos) << buggy;
  EXPECT_NE(safe.find("tests=\"1\""), std::string::npos) << safe;
  EXPECT_NE(safe.find("failures=\"0\""), std::string::npos) << safe;
  EXPECT_NE(safe.find("errors=\"0\""), std::string::npos) << safe;
}
