// The agent on the real JVM: options, bug and deadlock reports, replay, hidden blocks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/integration/agent_runner.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using test::run_agent;

namespace {

std::string cp() {
  return test::data_dir() + "/agent";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::string json_field(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  at += key.size() + 3;
  if (json[at] == '"') {
    std::string out;
    for (size_t i = at + 1; i < json.size() && json[i] != '"'; ++i) {
      if (json[i] == '\\' && i + 1 < json.size()) ++i;
      out += json[i];
    }
    return out;
  }
  return json.substr(at, json.find_first_of(",}", at) - at);
}

}  // namespace

TEST(AgentOptions, BadOptionsStopTheJvmWithOneLineAndStatus2) {
  for (const char* opts : {"strategy=bogus", "seed=12x", "nonsense=1", "timeout=", "accesses=some",
                           "include=com/example/", "replay=/nonexistent/schedule"}) {
    test::ProcessResult r = run_agent(opts, cp(), "LockOrder");
    EXPECT_EQ(r.status, 2) << opts;
    EXPECT_EQ(test::count_lines(r.err, "jsched: error:"), 1) << opts << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << opts << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << opts;
  }
}

TEST(Detection, DeadlockIsExit4WithEveryThreadsStack) {
  int deadlocks = 0;
  for (int seed = 1; seed <= 60 && deadlocks < 3; ++seed) {
    test::ProcessResult r = run_agent("seed=" + std::to_string(seed), cp(), "LockOrder");
    if (r.status == 0) continue;
    ASSERT_EQ(r.status, 4) << r.err;
    ++deadlocks;
    EXPECT_NE(r.err.find("DEADLOCK (strategy random, seed " + std::to_string(seed) + ")"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("LockOrder.lambda$main$0(LockOrder.java:5)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("LockOrder.lambda$main$1(LockOrder.java:6)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("held by thread 0.1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("held by thread 0.2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("replay: "), std::string::npos);
  }
  EXPECT_GE(deadlocks, 1);
}

TEST(Detection, AssertionIsExit3AndTheReplayCommandReproducesIt) {
  test::TempDir dir;
  std::string report = dir.path() + "/r.json";
  int found = 0;
  for (int seed = 1; seed <= 100 && !found; ++seed) {
    test::ProcessResult r =
        run_agent("seed=" + std::to_string(seed) + ",report=" + report, cp(), "LostUpdate");
    if (r.status == 0) continue;
    ASSERT_EQ(r.status, 3) << r.err;
    found = seed;
    std::string j = slurp(report);
    EXPECT_EQ(json_field(j, "outcome"), "bug");
    EXPECT_EQ(json_field(j, "seed"), std::to_string(seed));
    EXPECT_NE(json_field(j, "detail").find("AssertionError: lost update"), std::string::npos) << j;
    std::string replay = json_field(j, "replay");
    ASSERT_NE(replay.find("seed=" + std::to_string(seed)), std::string::npos) << replay;
    // Replay by the printed command (no shell metacharacters in it here).
    std::vector<std::string> argv;
    std::istringstream words(replay);
    for (std::string w; words >> w;) argv.push_back(w);
    for (int k = 0; k < 3; ++k) {
      test::ProcessResult again = test::run(argv);
      EXPECT_EQ(again.status, 3) << again.err;
    }
  }
  EXPECT_GT(found, 0) << "no lost update in 100 seeds";
}

// A program's own System.out whose flush would wait for ever: the report comes and the JVM
// ends (jsched flushes only the streams the JVM started with), under every strategy.
TEST(Detection, AProgramsOwnStdoutNeverHoldsTheReport) {
  for (const char* strategy : {"random", "pct", "portfolio"}) {
    test::ProcessResult r =
        test::run({"timeout", "60", test::java_bin(),
                   "-agentpath:" + test::agent_path() + "=strategy=" + strategy + ",seed=1", "-cp",
                   cp(), "OwnStdout"});
    ASSERT_EQ(r.status, 3) << strategy << ": " << r.err;  // 124: timeout ended it
    EXPECT_NE(r.err.find("uncaught java.lang.IllegalStateException: worker failed"),
              std::string::npos)
        << r.err;
  }
}

TEST(Replay, RecordedRunsReplayToTheSameOutcomeAndSameSeedsGiveTheSameSchedule) {
  test::TempDir dir;
  for (int seed : {3, 11, 29}) {
    std::string sched = dir.path() + "/s" + std::to_string(seed);
    std::string rep = dir.path() + "/r" + std::to_string(seed);
    test::ProcessResult first = run_agent(
        "seed=" + std::to_string(seed) + ",record=" + sched + ",report=" + rep, cp(), "LostUpdate");
    std::string fp = json_field(slurp(rep), "fingerprint");
    std::string schedule = slurp(sched);
    ASSERT_FALSE(schedule.empty());
    for (int k = 0; k < 3; ++k) {
      test::ProcessResult again =
          run_agent("seed=" + std::to_string(seed) + ",record=" + sched + "b", cp(), "LostUpdate");
      EXPECT_EQ(again.status, first.status);
      EXPECT_EQ(slurp(sched + "b"), schedule) << "seed " << seed;
      test::ProcessResult rep2 =
          run_agent("replay=" + sched + ",report=" + rep + "b", cp(), "LostUpdate");
      EXPECT_EQ(rep2.status, first.status) << rep2.err;
      EXPECT_EQ(json_field(slurp(rep + "b"), "fingerprint"), fp);
    }
  }
}

TEST(Replay, CorruptOrMismatchedScheduleFilesAreRejected) {
  test::TempDir dir;
  std::string bad = dir.path() + "/bad";
  std::ofstream(bad) << "jsched-schedule 1\noptions x\ndecisions 3\nt 0\nq 1\n";
  test::ProcessResult r = run_agent("replay=" + bad, cp(), "LostUpdate");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(":5: bad decision 'q 1'"), std::string::npos) << r.err;
  // A schedule of another program diverges at a named step, with a status of its own.
  std::string other = dir.path() + "/other";
  run_agent("seed=5,record=" + other, cp(), "WaitNotify");
  test::ProcessResult d = run_agent("replay=" + other, cp(), "LostUpdate");
  EXPECT_EQ(d.status, 6) << d.err;
  EXPECT_NE(d.err.find("replay diverged at "), std::string::npos) << d.err;
}

TEST(CorrectPrograms, WaitNotifyInterruptsAndSleepsNeverReport) {
  for (int seed = 1; seed <= 40; ++seed) {
    test::ProcessResult r = run_agent("seed=" + std::to_string(seed), cp(), "WaitNotify");
    ASSERT_EQ(r.status, 0) << "seed " << seed << ": " << r.err;
    EXPECT_EQ(r.out, "stage 2\n");
  }
}

// Threads block on the JDK-internal mutex of a
// synchronized list while its holder is parked at a scheduling point inside equals().
TEST(HiddenBlocks, SynchronizedListWithSynchronizedEqualsCompletes) {
  test::TempDir dir;
  int hidden = 0;
  for (int seed = 1; seed <= 40; ++seed) {
    std::string rep = dir.path() + "/r";
    test::ProcessResult r =
        run_agent("seed=" + std::to_string(seed) + ",report=" + rep, cp(), "HiddenLock");
    ASSERT_EQ(r.status, 0) << "seed " << seed << ": " << r.err;
    EXPECT_EQ(r.out, "size 17\n");
    hidden += json_field(slurp(rep), "hidden_blocks") != "[]";
  }
  EXPECT_GT(hidden, 0) << "the scenario never blocked on the hidden mutex";
}

// A thread that spins inside a synchronized block runs: the report says so, and which monitor it
// holds, rather than that it waits for a monitor it holds itself.
TEST(AgentHang, ASpinHoldingALockIsDescribedAsRunning) {
  for (int seed = 1; seed <= 4; ++seed) {
    test::ProcessResult r = run_agent(
        "strategy=random,seed=" + std::to_string(seed) + ",timeout=300", cp(), "SpinHoldingLock");
    EXPECT_EQ(r.status, 5) << r.err;
    EXPECT_NE(r.err.find("thread 0.1 runs and has reached no scheduling point since its enter, "
                         "holding monitor "),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("held by thread 0.1"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("waits for nothing"), std::string::npos) << r.err;
    // It spins: runnable to the JVM and to the kernel, and it used the CPU.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.err, m,
        std::regex(R"(holding monitor [0-9a-f]+ \(JVMTI state 0x([0-9a-f]+), kernel state R, )"
                   R"(([0-9.]+) s of CPU\))")))
        << r.err;
    constexpr unsigned long kRunnable = 0x4;  // JVMTI_THREAD_STATE_RUNNABLE
    EXPECT_TRUE(std::stoul(m[1], nullptr, 16) & kRunnable) << m[0];
    EXPECT_GT(std::stod(m[2]), 0.1) << m[0];
  }
}

// With every access a point (no strategy named) the same spin makes steps, reading `stop` and
// writing a counter no other thread touches: nothing another thread could see changes, and it
// is a hang all the same, not a slow run.
TEST(AgentHang, ASpinOverPlainFieldsIsAHangThoughItMakesSteps) {
  for (int seed = 1; seed <= 4; ++seed) {
    test::ProcessResult r =
        run_agent("seed=" + std::to_string(seed) + ",timeout=300", cp(), "SpinHoldingLock");
    EXPECT_EQ(r.status, 5) << r.err;
    EXPECT_NE(r.err.find("no step another thread could see (only a spin over plain fields) for "
                         "300 ms: "),
              std::string::npos)
        << r.err;
  }
}

// accesses=all (rapos's default): reads of final fields are not scheduling points, those of the
// class being rewritten and of classes loaded before it; plain fields' are.
TEST(AgentAccesses, ReadsOfFinalFieldsAreNotPoints) {
  test::TempDir dir;
  for (const char* kind : {"final", "other", "plain"}) {
    const std::string report = dir.path() + "/" + kind + ".json";
    test::ProcessResult r =
        run_agent("strategy=rapos,seed=1,report=" + report, cp(), "FinalBound", {}, {kind});
    ASSERT_EQ(r.status, 0) << r.err;
    const long points = std::stol(json_field(slurp(report), "scheduling_points"));
    if (std::string(kind) == "plain")
      EXPECT_GT(points, 20000) << kind << ": " << r.err;
    else
      EXPECT_LT(points, 100) << kind << ": " << r.err;
  }
}
