// A faithful model of the JVM on the real JVM: virtual time, the program's sources of chance.
// (VarHandles, spurious wake-ups and the rest have their samples in samples/suite.xml, which
// samples_test runs and replays.)
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/one_cpu.h"
#include "tests/support/test_paths.h"

using namespace jsched;

namespace {

std::string cp() {
  return test::data_dir() + "/agent";
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

// Every clock (nanoTime, currentTimeMillis, Instant.now, the system Clocks, new Date) after
// every timed operation of the JDK (sleep, timed wait and join, parkNanos, Condition.await,
// BlockingQueue.poll, Future.get, a scheduled executor): at least 100 ms later, never back.
// Sleeps take no real time under jsched, so with real clocks every run failed.
// Virtual time passes with the program's steps: a sleep lets the others run as long (a start-
// order hint holds), and a timeout comes while others work once its time has passed, not
// before; under every strategy, in every seed.
TEST(Model, TimePassesWithTheStepsOfTheThreadsThatRun) {
  for (const char* strategy : {"random", "pct", "rapos", "pos", "surw", "portfolio"}) {
    for (int seed = 1; seed <= 8; ++seed) {
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy + ",seed=" + std::to_string(seed),
                          cp(), "TimeLikeTime");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "time ok\n");
    }
  }
}

// Thread and Object operations through method references are the model's: the started threads
// are controlled (five in the report), the interrupt and the notifyAll reach their waiters
// (without it the waiter stayed parked: a deadlock).
TEST(Model, MethodReferencesToThreadOperationsAreHooked) {
  test::TempDir d;
  for (int seed = 1; seed <= 10; ++seed) {
    const std::string report = d.path() + "/r.json";
    test::ProcessResult r = test::run_agent(
        "strategy=random,seed=" + std::to_string(seed) + ",report=" + report, cp(), "MethodRefs");
    ASSERT_EQ(r.status, 0) << "seed " << seed << ": " << r.err;
    EXPECT_EQ(r.out, "references ok\n");
    EXPECT_EQ(json::parse(test::slurp(report)).num("threads"), 5) << test::slurp(report);
  }
}

// A thread JDK code starts for the program where jsched does not hook the start is not
// controlled, but it may wake a controlled thread: while it runs, no deadlock is called and
// time does not jump past a timed wait (a printer lookup that ran a command on JDK 25 was
// reported as a deadlock: the process reaper it needed was such a thread).
TEST(Model, AThreadStartedWhereJschedDoesNotSeeIsWaitedFor) {
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 5; ++seed) {
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy + ",seed=" + std::to_string(seed),
                          cp(), "HiddenHelper");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "helper ok\n");
    }
  }
}

namespace {

// Starts HiddenHelperHeld and waits until its main waits for the helper; the JVM's pid, or -1.
// The helper wakes main once `go` exists, a few milliseconds of real work later.
int start_held(const std::string& dir, const std::string& go, int seed) {
  const int pid = test::start_process(
      {test::java_bin(), "-agentpath:" + test::agent_path() + "=seed=" + std::to_string(seed),
       "-cp", cp(), "HiddenHelperHeld", go},
      dir + "/out", dir + "/err");
  const auto start = std::chrono::steady_clock::now();
  while (test::slurp(dir + "/out").find("waiting") == std::string::npos) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(30)) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pid;
}

void touch(const std::string& path) {
  std::ofstream(path) << "go\n";
}

// The Linux id of process `pid`'s thread named `name`, or 0.
int thread_named(int pid, const std::string& name) {
  std::error_code ec;
  for (const auto& t :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream comm(t.path() / "comm");
    std::string n;
    if (std::getline(comm, n) && n == name) return std::stoi(t.path().filename().string());
  }
  return 0;
}

}  // namespace

// The 50 ms a thread outside the execution gets to act before virtual time jumps count only
// time the process ran: stopped for 300 ms (as a paused VM or an overloaded machine stops it)
// while main waits 5 s for the hidden helper, the execution ends well. Before, the time jump came
// at the first look after the stop: main's wait timed out, a false bug in every run.
TEST(Model, AHiddenHelperKeepsItsChanceWhileTheProcessIsStopped) {
  for (int seed = 1; seed <= 3; ++seed) {
    test::TempDir d;
    const std::string go = d.path() + "/go";
    const int pid = start_held(d.path(), go, seed);
    ASSERT_GT(pid, 0) << test::slurp(d.path() + "/err");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGSTOP);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    touch(go);
    kill(pid, SIGCONT);
    EXPECT_EQ(test::wait_status(pid), 0)
        << "seed " << seed << ": " << test::slurp(d.path() + "/err");
    EXPECT_EQ(test::slurp(d.path() + "/out"), "waiting\nhelper ok\n");
  }
}

// Nor does time the kernel kept the helper from a CPU count: on one core with a busy process,
// the helper made an idle-priority thread (SCHED_IDLE, which runs only when nothing else
// would) for 300 ms, main's wait does not time out. Before, a false bug in every run.
TEST(Model, AHiddenHelperKeepsItsChanceWhileTheMachineStarvesIt) {
  for (int seed = 1; seed <= 3; ++seed) {
    test::TempDir d;
    const std::string go = d.path() + "/go";
    // The busy process and the JVM share one CPU.
    test::OneCpu one_cpu;
    ASSERT_TRUE(one_cpu.on());
    const pid_t busy = fork();
    if (busy == 0) {
      std::atomic<uint64_t> spin{0};
      for (;;) spin.fetch_add(1, std::memory_order_relaxed);
    }
    const int pid = start_held(d.path(), go, seed);
    one_cpu.leave();
    const int helper = pid > 0 ? thread_named(pid, "held-helper") : 0;
    sched_param idle{};
    const bool starved = helper != 0 && sched_setscheduler(helper, SCHED_IDLE, &idle) == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    touch(go);
    kill(busy, SIGKILL);
    waitpid(busy, nullptr, 0);
    ASSERT_GT(pid, 0) << test::slurp(d.path() + "/err");
    ASSERT_TRUE(starved) << "no thread held-helper in " << pid;
    EXPECT_EQ(test::wait_status(pid), 0)
        << "seed " << seed << ": " << test::slurp(d.path() + "/err");
    EXPECT_EQ(test::slurp(d.path() + "/out"), "waiting\nhelper ok\n");
  }
}

// The same thread waking main as soon as it starts: between the JVM's start of it and the event
// that tells jsched of it, main waits and the model sees no thread that could wake it. That is
// no deadlock while the JVM has a thread whose start jsched has not seen yet (a deadlock with
// none is called at once, not after a grace period).
TEST(Model, NoDeadlockIsCalledWhileAThreadJschedHasNotSeenIsStarting) {
  for (const char* strategy : {"random", "pct"}) {
    test::ProcessResult r = test::run_agent(
        std::string("strategy=") + strategy + ",seed=1,iterations=30", cp(), "HiddenStartWakes");
    ASSERT_EQ(r.status, 0) << strategy << ": " << r.err;
    EXPECT_EQ(test::count_lines(r.out, "woken 10 times"), 30) << strategy;
  }
}

// A thread blocked for good inside a native method of the JVM's own is RUNNABLE to JVMTI, not
// in native code: still a block outside jsched's view (recorded as one), so the others go on
// instead of a hang after the watchdog's window (JDK 21+'s virtual-thread unblocker).
TEST(Model, AThreadBlockedInsideTheVmIsAHiddenBlock) {
  test::TempDir d;
  int recorded = 0;  // a schedule that runs main to its end first needs no hidden block
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 4; ++seed) {
      const std::string report = d.path() + "/r.json";
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) +
              ",report=" + report,
          cp(), "VmNativeBlock", {"--add-opens", "java.base/java.lang.ref=ALL-UNNAMED"});
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "vm-native ok\n");
      recorded += test::slurp(report).find("waitForReferencePendingList") != std::string::npos;
    }
  }
  EXPECT_GE(recorded, 4) << "the blocked thread recorded as a hidden block";
}

// With the JDK instrumented, the threads it starts only to serve virtual threads (unblocker,
// pollers, virtual sub-pollers) stay outside the model: the program ends, with its own main and
// the JDK's cleaner as its only threads (they hung the run: pollers sit in epoll_wait, the
// sub-pollers pinned the carriers waiting for their turn).
TEST(Model, TheJdksVirtualThreadServiceIsNotTheProgramsThreads) {
  test::TempDir d;
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      const std::string report = d.path() + "/r.json";
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy +
                              ",include=*,seed=" + std::to_string(seed) + ",report=" + report,
                          cp(), "VtService");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      if (r.out == "no virtual threads before JDK 21\n") GTEST_SKIP() << "needs JDK 21+";
      EXPECT_EQ(r.out, "service ok\n");
      EXPECT_EQ(json::parse(test::slurp(report)).num("threads"), 2) << test::slurp(report);
    }
  }
}

// Virtual threads are threads of the model when the program starts them with start() or through
// an executor: the run is ok and checked (five threads in the model). One started where jsched
// does not see it (Thread.startVirtualThread called by reflection) runs outside the execution:
// the verdict says it cannot be trusted (an error; a warning and its own verdict with
// on-unsupported=warn), never "ok" as if jsched had checked it, and never a hang of its making.
TEST(Model, VirtualThreadsAreTheModelsThreadsOrSaidUncontrolled) {
  test::TempDir d;
  for (const char* how : {"unstarted", "executor", "static"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      const std::string report = d.path() + "/r.json";
      const std::string options =
          "strategy=random,seed=" + std::to_string(seed) + ",report=" + report;
      test::ProcessResult r = test::run_agent(options, cp(), "VirtualStarts", {}, {how});
      if (r.out == "no virtual threads before JDK 21\n") GTEST_SKIP() << "needs JDK 21+";
      EXPECT_EQ(r.out, "n=12\n") << how << " seed " << seed;
      if (std::string(how) != "static") {
        EXPECT_EQ(r.status, 0) << how << " seed " << seed << ": " << r.err;
        EXPECT_EQ(r.err.find("virtual thread"), std::string::npos) << r.err;
        EXPECT_EQ(json::parse(test::slurp(report)).num("threads"), 5) << test::slurp(report);
        continue;
      }
      EXPECT_EQ(r.status, 2) << how << " seed " << seed << ": " << r.err;
      EXPECT_NE(r.err.find("error: the program started a virtual thread"), std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("jsched: ERROR"), std::string::npos) << r.err;
      test::ProcessResult w =
          test::run_agent(options + ",on-unsupported=warn", cp(), "VirtualStarts", {}, {how});
      EXPECT_EQ(w.status, 0) << how << " seed " << seed << ": " << w.err;
      EXPECT_EQ(w.out, "n=12\n") << how << " seed " << seed;
      EXPECT_NE(w.err.find("warning: the program started a virtual thread"), std::string::npos)
          << w.err;
    }
  }
}

// A join of a thread jsched does not control (a virtual thread started by reflection) waits
// outside the model, as the JVM's join: the virtual thread here runs only once main waits in
// the join (VirtualJoinLate). Left to the model, the join's park was one nothing in the model
// could end: a false HANG here every time, and a false DEADLOCK in VirtualStarts' runs whenever
// the machine was loaded (its virtual threads not yet run when main joined them).
TEST(Model, AJoinOfAThreadJschedDoesNotSeeWaitsOutsideTheModel) {
  for (int seed = 1; seed <= 3; ++seed) {
    test::ProcessResult r =
        test::run_agent("strategy=random,seed=" + std::to_string(seed), cp(), "VirtualJoinLate",
                        {"-Djdk.virtualThreadScheduler.parallelism=1"});
    if (r.out == "no virtual threads before JDK 21\n") GTEST_SKIP() << "needs JDK 21+";
    EXPECT_EQ(r.out, "joined\n") << "seed " << seed << ": " << r.err;
    EXPECT_EQ(r.status, 2) << "seed " << seed << ": " << r.err;
    EXPECT_NE(r.err.find("jsched: ERROR"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("DEADLOCK"), std::string::npos) << r.err;
  }
}

// A thread that starts itself in its constructor is the model's thread, its object one monitor
// (the allocation's naming, after the constructor, renamed them: in JDK mode the thread never
// began in the model and every seed hung; then a thread ending inside ThreadGroup's monitor
// held it against the real start of the next).
TEST(Model, AThreadStartedInItsOwnConstructorIsTheModelsThread) {
  test::TempDir d;
  for (const char* options :
       {"strategy=random", "strategy=pct", "strategy=random,include=*", "strategy=pct,include=*"}) {
    for (int seed = 1; seed <= 5; ++seed) {
      const std::string report = d.path() + "/r.json";
      test::ProcessResult r = test::run_agent(
          std::string(options) + ",seed=" + std::to_string(seed) + ",report=" + report, cp(),
          "SelfStart");
      ASSERT_EQ(r.status, 0) << options << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "self-start ok\n");
      // (In JDK mode the JDK's cleaner thread the program's classes start is one more.)
      if (std::string(options).find("include") == std::string::npos) {
        EXPECT_EQ(json::parse(test::slurp(report)).num("threads"), 4) << test::slurp(report);
      }
    }
  }
}

// Thread.isAlive() is a scheduling point and says what the model saw.
TEST(Model, IsAliveLetsTheThreadRunAndSeesItsEnd) {
  for (const char* strategy : {"random", "pct", "portfolio"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed), cp(), "IsAlive");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "alive ok\n");
    }
  }
}

// Thread.getState() is a scheduling point and says what the model knows: WAITING for a parked
// thread, BLOCKED on a monitor another holds, TIMED_WAITING in a sleep, TERMINATED at its end.
TEST(Model, GetStateSaysWhatTheModelKnows) {
  for (const char* strategy : {"random", "pct", "portfolio"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) + ",timeout=5000",
          cp(), "GetState");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "state ok\n");
    }
  }
}

// Thread.suspend()/resume() are the model's: a suspended thread takes no step, its timed park
// included, until resumed (no false hang); JDK 20 and later refuse them, under jsched too.
TEST(Model, ASuspendedThreadTakesNoStepUntilResumed) {
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) + ",timeout=5000",
          cp(), "SuspendResume");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_TRUE(r.out == "suspend ok\n" || r.out == "suspend unsupported\n") << r.out;
    }
  }
}

// Up to JDK 19 the ThreadDeath of Thread.stop() ends its thread silently (ThreadGroup ignores
// it): a thread the program stopped on purpose is no finding.
TEST(Model, AThreadStoppedOnPurposeIsNoFinding) {
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy + ",seed=" + std::to_string(seed),
                          cp(), "StopSpinning");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_TRUE(r.out == "stopped\n" || r.out == "stop unsupported\n") << r.out;
    }
  }
}

// The JVM's stop() wakes a thread from wait, sleep, join and park and throws ThreadDeath in it;
// a thread waiting in the model is woken by the model, and ends the same way (guava's TestThread
// stops its threads as they wait for requests). On JDK 20+ stop() throws, under jsched too.
TEST(Model, AThreadStoppedAsItWaitsEnds) {
  const std::string stopped =
      "awaiter: ended\nblocked: ThreadDeath\njoiner: ThreadDeath\nsleeper: ThreadDeath\n"
      "taker: ended\nwaiter: ThreadDeath\n";
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) + ",timeout=5000",
          cp(), "StopWaiting");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_TRUE(r.out == stopped || r.out == "stop unsupported\n") << r.out;
    }
  }
}

// TimeUnit.timedWait(obj, t) waits on its caller's monitor: the model releases it and wakes the
// waiter on a notify (a JVM wait the model did not see once left the monitor held for ever).
TEST(Model, TimeUnitWaitsAreTheModels) {
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r = test::run_agent(
          std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) + ",timeout=5000",
          cp(), "TimeUnitWaits");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "ok\n");
    }
  }
}

TEST(Model, EveryClockSeesEveryTimedOperationTakeItsTime) {
  for (const char* strategy : {"random", "pct,steps=400", "rapos"}) {
    for (int seed = 1; seed <= 10; ++seed) {
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy + ",seed=" + std::to_string(seed),
                          cp(), "ClockChecks");
      ASSERT_EQ(r.status, 0) << strategy << " seed " << seed << ": " << r.err;
      EXPECT_EQ(r.out, "clocks agree\n");
    }
  }
  // Several executions in one JVM: each starts with a fresh clock and still passes.
  test::ProcessResult it = test::run_agent("seed=1,iterations=5", cp(), "ClockChecks");
  EXPECT_EQ(it.status, 0) << it.err;
  EXPECT_EQ(lines(it.out).size(), 5u);
}

// Class.hashCode is an identity hash, which the JVM draws from a generator of the hashing
// thread seeded by how many threads were created before it, the JVM's own (started lazily, at
// moments real time decides) included; JDK tables keyed by classes then took other monitors in
// another JVM under the same seed. Under jsched a class's hash does not depend on the threads
// created before it. (Plain java is the control: there it does.)
TEST(Model, AClassHashDoesNotDependOnTheThreadsCreatedBeforeIt) {
  std::set<std::string> plain, agent;
  for (const char* n : {"0", "5", "20"}) {
    test::ProcessResult p = test::run({test::java_bin(), "-cp", cp(), "ClassHashChecks", n});
    ASSERT_EQ(p.status, 0) << p.err;
    plain.insert(p.out);
    for (const char* seed : {"1", "2"}) {
      test::ProcessResult r =
          test::run_agent(std::string("seed=") + seed, cp(), "ClassHashChecks", {}, {n});
      ASSERT_EQ(r.status, 0) << r.err;
      agent.insert(r.out);
    }
  }
  EXPECT_EQ(plain.size(), 3u) << "the control: plain java's hashes change with the threads";
  EXPECT_EQ(agent.size(), 1u) << *agent.begin() << " / " << *agent.rbegin();
}

// new Random(), ThreadLocalRandom, Math.random, UUID.randomUUID, new SplittableRandom,
// Collections.shuffle and a HashSet of objects without hashCode: one seed, one line, in every
// JVM and in an iteration as in the single run of its seed.
TEST(Model, ASeedDeterminesEverySourceOfChance) {
  std::set<std::string> seen;
  for (int seed = 1; seed <= 6; ++seed) {
    std::string opts = "seed=" + std::to_string(seed);
    test::ProcessResult a = test::run_agent(opts, cp(), "ChanceSources");
    test::ProcessResult b = test::run_agent(opts, cp(), "ChanceSources");
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out) << "seed " << seed;
    seen.insert(a.out);
  }
  EXPECT_GE(seen.size(), 5u) << "other seeds draw otherwise";
  test::ProcessResult it = test::run_agent("seed=11,iterations=3", cp(), "ChanceSources");
  ASSERT_EQ(it.status, 0) << it.err;
  std::vector<std::string> runs = lines(it.out);
  ASSERT_EQ(runs.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    test::ProcessResult single =
        test::run_agent("seed=" + std::to_string(11 + i), cp(), "ChanceSources");
    EXPECT_EQ(single.out, runs[size_t(i)] + "\n") << "iteration " << i;
  }
  // Plain java draws differently every time (the control: the program really is random).
  test::ProcessResult p1 = test::run({test::java_bin(), "-cp", cp(), "ChanceSources"});
  test::ProcessResult p2 = test::run({test::java_bin(), "-cp", cp(), "ChanceSources"});
  EXPECT_NE(p1.out, p2.out);
}
