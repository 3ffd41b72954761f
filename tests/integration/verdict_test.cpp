// A verdict is a promise: "nothing found" only for programs that ran, no result lost, no
// endless run. Each test is a regression test for one way the runner or the agent used to
// give a wrong or silent answer.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/one_cpu.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;

namespace {

using test::records;
using test::run_jsched;
using test::slurp;
using test::start_jsched;
using test::wait_status;

std::string cp() {
  return test::data_dir() + "/agent";
}

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

}  // namespace

// A typo in the main class, a missing class path, no class at all: refused before any run.
TEST(Verdict, AProgramThatCannotStartIsRefusedBeforeAnyRun) {
  test::TempDir d;
  struct Case {
    std::vector<std::string> command;
    const char* says;
  } cases[] = {
      {{"java", "-cp", cp(), "no.Such"}, "no class no.Such on the class path"},
      {{"java", "-cp", d.path() + "/nothing", "LostUpdate"}, "no class LostUpdate"},
      {{"java"}, "no main class"},
      {{"java", "-cp", cp()}, "no main class"},
      {{"java", "-jar", d.path() + "/missing.jar"}, "no jar file"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run",   "--runs",        "5", "--jobs", "1",
                                     "--out", d.path() + "/o", "--"};
    args.insert(args.end(), c.command.begin(), c.command.end());
    test::ProcessResult p = run_jsched(args);
    EXPECT_EQ(p.status, 2) << c.says;
    EXPECT_TRUE(has(p.err, c.says)) << p.err;
    EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << "one line: " << p.err;
    EXPECT_FALSE(fs::exists(d.path() + "/o")) << "nothing is written for a refused batch";
  }
}

// Options only the agent understands are checked by the agent's own parser, and numbers out of
// range are refused: before, `--jobs 0` spun for ever and `--runs 0` ran nothing and passed.
TEST(Verdict, BadOptionsAndNumbersOutOfRangeAreUsageErrors) {
  test::TempDir d;
  const std::vector<std::string> prog = {"--", "java", "-cp", cp(), "WaitNotify"};
  struct Case {
    std::vector<std::string> opts;
    const char* says;
  } cases[] = {
      {{"--strategy", "foo"}, "unknown strategy 'foo'"},
      {{"--params", "foo=1"}, "unknown option 'foo'"},
      {{"--params", "depth=x"}, "depth"},
      {{"--timeout", "0"}, "--timeout: '0'"},
      {{"--jobs", "0"}, "--jobs: '0'"},
      {{"--runs", "0"}, "--runs: '0'"},
      {{"--runs", "99999999999999999999"}, "--runs: '99999999999999999999'"},
      {{"--runs", "-3"}, "--runs: '-3'"},
      {{"--in-jvm", "0"}, "--in-jvm: '0'"},
      {{"--t", "9", "--strategy", "tsca"}, "--t: '9'"},
      {{"--t", "2"}, "--t and --explore belong to --strategy tsca"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "--out", d.path() + "/o"};
    args.insert(args.end(), c.opts.begin(), c.opts.end());
    args.insert(args.end(), prog.begin(), prog.end());
    auto t0 = std::chrono::steady_clock::now();
    test::ProcessResult p = run_jsched(args);
    EXPECT_EQ(p.status, 2) << c.says << ": " << p.err;
    EXPECT_TRUE(has(p.err, c.says)) << p.err;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << c.says;
  }
  for (const char* jobs : {"0", "x"}) {
    test::ProcessResult b =
        run_jsched({"bench", test::data_dir() + "/suites/mini.xml", "--jobs", jobs});
    EXPECT_EQ(b.status, 2) << b.err;
  }
}

// Keys the runner sets for each run cannot come through --params: every run used seed 5 while
// the records showed distinct seeds, pct runs were labelled random.
TEST(Verdict, ParamsCannotOverrideWhatTheRunnerRecords) {
  for (const char* kv : {"seed=5", "strategy=pct", "report=/tmp/x", "iterations=3", "timeout=5"}) {
    test::ProcessResult p =
        run_jsched({"run", "--params", kv, "--", "java", "-cp", cp(), "WaitNotify"});
    EXPECT_EQ(p.status, 2) << kv;
    EXPECT_TRUE(has(p.err, std::string(kv).substr(0, std::string(kv).find('=') + 1))) << p.err;
  }
  test::TempDir d;
  std::string suite = d.path() + "/s.xml";
  std::ofstream(suite) << "<suite>\n<classpath>" << cp()
                       << "</classpath>\n<strategy name='random' params='seed=5'/>\n"
                          "<program name='w' main='WaitNotify'/>\n</suite>\n";
  test::ProcessResult b = run_jsched({"bench", suite, "--out", d.path() + "/o"});
  EXPECT_EQ(b.status, 2);
  EXPECT_TRUE(has(b.err, suite + ":3: strategy 'random'")) << b.err;
}

// A suite program whose main class is not on its class path is refused before anything runs.
TEST(Verdict, BenchChecksEveryProgramBeforeAnythingRuns) {
  test::TempDir d;
  std::string suite = d.path() + "/s.xml";
  std::ofstream(suite) << "<suite>\n<classpath>" << cp()
                       << "</classpath>\n<program name='ok' main='WaitNotify'/>\n"
                          "<program name='typo' main='WaitNotfy' expect='none'/>\n</suite>\n";
  test::ProcessResult b = run_jsched({"bench", suite, "--out", d.path() + "/o"});
  EXPECT_EQ(b.status, 2);
  EXPECT_TRUE(has(b.err, suite + ":4: program 'typo': no class WaitNotfy")) << b.err;
  EXPECT_FALSE(fs::exists(d.path() + "/o"));
}

// A program that ends the JVM with System.exit(7) never ran to its end: every run is an error
// that says so, the batch exits 3 (not 0), junit.xml has errors, and expect="none" is not met.
TEST(Verdict, RunsThatDidNotRunToTheirEndAreErrorsWithTheirReason) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  test::ProcessResult p =
      run_jsched({"run", "--strategy", "random", "--runs", "4", "--jobs", "2", "--seed", "1",
                  "--out", out, "--", "java", "-cp", cp(), "ExitInWorker"});
  EXPECT_EQ(p.status, 3) << p.err << p.out;
  std::vector<json::Value> recs = records(out);
  ASSERT_EQ(recs.size(), 4u);
  for (const json::Value& r : recs) {
    EXPECT_EQ(r.str("outcome"), "error");
    EXPECT_EQ(r.num("exit_status"), 7);
    EXPECT_TRUE(has(r.str("detail"), "System.exit(7) in thread 0.1")) << r.str("detail");
    EXPECT_TRUE(has(r.str("detail"), "ExitInWorker")) << "the program's frame";
  }
  EXPECT_TRUE(has(p.out, "System.exit(7)")) << p.out;
  std::string junit = slurp(out + "/junit.xml");
  EXPECT_TRUE(has(junit, "errors=\"1\"")) << junit;
  EXPECT_TRUE(has(junit, "<error message=\"4 of 4 runs did not run the program to its end"))
      << junit;

  std::string suite = d.path() + "/s.xml";
  std::ofstream(suite) << "<suite runs='3'>\n<classpath>" << cp()
                       << "</classpath>\n<program name='exits' main='ExitInWorker' "
                          "expect='none'/>\n</suite>\n";
  test::ProcessResult b = run_jsched({"bench", suite, "--jobs", "2", "--out", d.path() + "/b"});
  EXPECT_EQ(b.status, 3) << b.out;
  EXPECT_TRUE(has(b.out, "NOT MET: 3 runs errored")) << b.out;
  EXPECT_FALSE(has(b.out, "(met)")) << b.out;
}

// A JVM option the JVM refuses: the runs are errors carrying the JVM's own line.
TEST(Verdict, AJvmThatDoesNotStartIsAnErrorWithTheJvmsLine) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  test::ProcessResult p =
      run_jsched({"run", "--strategy", "random", "--runs", "3", "--jobs", "1", "--seed", "1",
                  "--out", out, "--", "java", "-XX:+NoSuchJvmOption", "-cp", cp(), "WaitNotify"});
  EXPECT_EQ(p.status, 3) << p.err;
  std::vector<json::Value> recs = records(out);
  ASSERT_FALSE(recs.empty());
  EXPECT_EQ(recs[0].str("outcome"), "error");
  EXPECT_TRUE(has(recs[0].str("detail"), "exit status 1: "));
  EXPECT_TRUE(has(recs[0].str("detail"), "NoSuchJvmOption")) << recs[0].str("detail");
}

// `main` under the agent with `options`, its stdout and stderr in `log`, once the agent has
// greeted (the program runs). SIGINT as a terminal gives it (a background job's is ignored, and
// the JVM then leaves it so).
pid_t start_greeted(const std::string& log, const std::string& options, const char* main) {
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::string java = test::java_bin();
    std::string agent = "-agentpath:" + test::agent_path() + "=" + options;
    std::string c = cp();
    execl(java.c_str(), java.c_str(), agent.c_str(), "-cp", c.c_str(), main, nullptr);
    _exit(127);
  }
  for (int i = 0; i < 500 && !has(slurp(log), "jsched: strategy"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return pid;
}

// A JVM ended by SIGTERM used to report "ok" with exit status 0; among iterations, stderr said
// the program had called System.exit.
TEST(Verdict, AJvmKilledBySigtermSaysSo) {
  for (std::string more : {"", ",iterations=1000"}) {
    test::TempDir d;
    std::string report = d.path() + "/r.json", log = d.path() + "/out.log";
    pid_t pid = start_greeted(log, "seed=1,timeout=120000,report=" + report + more, "Endless");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << more;
    EXPECT_EQ(WEXITSTATUS(status), 143) << more;
    json::Value r = json::parse(slurp(report));
    EXPECT_EQ(r.str("outcome"), "killed") << more;
    EXPECT_EQ(r.num("exit_status"), 143) << more;
    EXPECT_TRUE(has(r.str("detail"), "killed by signal SIGTERM")) << r.str("detail");
    if (!more.empty()) {
      EXPECT_TRUE(has(slurp(log), "killed by signal SIGTERM (exit status 143) in iteration 0"))
          << slurp(log);
      EXPECT_FALSE(has(slurp(log), "System.exit")) << slurp(log);
    }
  }
}

// The same among executions a few hundred microseconds long, for Ctrl-C too: the signal comes
// while an execution runs, while one ends by itself, or while none does (the driver between
// two). Stderr said the program had called System.exit in about half of such runs, or nothing.
TEST(Verdict, ASignalAmongShortExecutionsSaysSo) {
  for (int sig : {SIGTERM, SIGINT}) {
    const std::string name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    for (int round = 0; round < 6; ++round) {
      test::TempDir d;
      std::string log = d.path() + "/out.log";
      pid_t pid = start_greeted(log, "seed=1,iterations=100000000,explore", "LostUpdate");
      std::this_thread::sleep_for(std::chrono::milliseconds(400 + 37 * round));
      kill(pid, sig);
      int status = 0;
      for (int i = 0; i < 300 && waitpid(pid, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ADD_FAILURE() << name << ": the JVM had not ended 30 s after the signal\n" << slurp(log);
        continue;
      }
      ASSERT_TRUE(WIFEXITED(status)) << name;
      EXPECT_EQ(WEXITSTATUS(status), 128 + sig) << name;
      const std::string out = slurp(log);
      const std::string tail = out.substr(out.size() > 4000 ? out.size() - 4000 : 0);
      const std::string said =
          "jsched: killed by signal " + name + " (exit status " + std::to_string(128 + sig) + ") ";
      EXPECT_EQ(test::count_lines(out, said), 1) << tail;
      EXPECT_EQ(test::count_lines(out, "the iterations stop there"), 1) << tail;
      EXPECT_FALSE(has(out, "System.exit")) << tail;
    }
  }
}

// A full disk (here a file-size limit, RLIMIT_FSIZE) used to leave runs.jsonl cut short and the
// reports empty while jsched printed its "results:" line. Now the failed write stops the batch
// with status 4 naming the file, every recorded line is whole, and --resume completes it.
TEST(Verdict, AFullDiskStopsTheBatchNamingTheFileAndLosesNothingRecorded) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  std::string cmd = "ulimit -f 12 && exec " + std::string(JSCHED_BIN) +
                    " run --strategy random --runs 60 --jobs 2 --seed 3 --out " + out +
                    " -- java -cp " + cp() + " WaitNotify";
  test::ProcessResult p = test::run({"sh", "-c", cmd});
  EXPECT_EQ(p.status, 4) << p.err;
  EXPECT_TRUE(has(p.err, "cannot write " + out + "/runs.jsonl")) << p.err;
  EXPECT_FALSE(has(p.out, "results: ")) << "no claim of results that were not written";
  std::vector<json::Value> before = records(out);  // throws on a torn or malformed line
  EXPECT_GT(before.size(), 5u);
  EXPECT_LT(before.size(), 60u);
  EXPECT_EQ(slurp(out + "/runs.jsonl").back(), '\n');
  test::ProcessResult r = run_jsched({"run", "--resume", out});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<json::Value> after = records(out);
  ASSERT_EQ(after.size(), 60u);
  std::set<uint64_t> seen;
  for (const json::Value& x : after) EXPECT_TRUE(seen.insert(uint64_t(x.num("index"))).second);
  EXPECT_TRUE(has(slurp(out + "/junit.xml"), "<testsuite"));
}

// Two batches into one results directory used to interleave their records. The directory is
// locked while a batch writes it; Ctrl-C stops a batch saying how to resume it.
TEST(Verdict, AResultsDirectoryHasOneWriterAndCtrlCSaysHowToResume) {
  test::TempDir d;
  std::string out = d.path() + "/r", err = d.path() + "/err";
  pid_t first =
      start_jsched({"run", "--strategy", "random", "--runs", "4", "--jobs", "1", "--timeout",
                    "60000", "--out", out, "--", "java", "-cp", cp(), "Endless"},
                   err);
  for (int i = 0; i < 500 && slurp(out + "/.lock").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  test::ProcessResult second = run_jsched({"run", "--strategy", "random", "--runs", "4", "--out",
                                           out, "--", "java", "-cp", cp(), "WaitNotify"});
  EXPECT_EQ(second.status, 2);
  EXPECT_TRUE(has(second.err, "in use by another jsched batch (pid " + std::to_string(first)))
      << second.err;
  test::ProcessResult resume = run_jsched({"run", "--resume", out});
  EXPECT_EQ(resume.status, 2) << "a running batch cannot be resumed beside it";
  EXPECT_TRUE(has(resume.err, "in use")) << resume.err;
  kill(first, SIGINT);
  EXPECT_EQ(wait_status(first), 130);
  EXPECT_TRUE(has(slurp(err), "interrupted: 0 runs are recorded in " + out +
                                  "; continue with: jsched run --resume " + out))
      << slurp(err);
  EXPECT_TRUE(records(out).empty());
}

// --until-bug with --in-jvm and --jobs 2 reported the run index of whichever JVM reported first
// (1 or 101 on identical invocations). The first finding is the smallest run index with a finding,
// whatever --jobs and --in-jvm.
TEST(Verdict, UntilBugReportsTheSmallestRunWithAFindingWhateverTheJobs) {
  for (int rep = 0; rep < 4; ++rep) {
    for (const char* in_jvm : {"100", "1"}) {
      test::TempDir d;
      std::string out = d.path() + "/r";
      test::ProcessResult p = run_jsched({"run", "--until-bug", "--runs", "400", "--in-jvm", in_jvm,
                                          "--jobs", "2", "--seed", std::to_string(rep), "--out",
                                          out, "--", "java", "-cp", cp(), "AlwaysDeadlocks"});
      EXPECT_EQ(p.status, 1) << p.err;
      bool first = false;
      for (const json::Value& r : records(out)) first = first || r.num("run") == 0;
      EXPECT_TRUE(first) << "run 0 deadlocks too, and comes first (--in-jvm " << in_jvm << ")";
      std::string table = p.out.substr(0, p.out.find('\n', p.out.find("AlwaysDeadlocks")));
      EXPECT_TRUE(has(table, " 1.0 ")) << "first finding at run 1: " << p.out;
    }
  }
}

// With --in-jvm, nothing was recorded until the JVM's B executions ended (a hang costs the
// whole timeout each), and every finding's log was a copy of the whole JVM's output. Each
// execution is recorded as it ends, and the findings of one JVM share its one log.
TEST(Verdict, InJvmExecutionsAreRecordedAsTheyEndAndShareOneLog) {
  test::TempDir d;
  std::string out = d.path() + "/r", err = d.path() + "/err";
  pid_t batch = start_jsched(
      {"run",  "--strategy", "random", "--runs",        "10", "--in-jvm", "10", "--jobs",
       "1",    "--timeout",  "700",    "--seed",        "2",  "--out",    out,  "--",
       "java", "-cp",        cp(),     "HangsSometimes"},
      err);
  size_t seen_midway = 0;
  for (int i = 0; i < 600; ++i) {
    size_t n = fs::exists(out + "/runs.jsonl") ? records(out).size() : 0;
    if (n > 0 && n < 10) seen_midway = std::max(seen_midway, n);
    int status = 0;
    if (waitpid(batch, &status, WNOHANG) == batch) {
      batch = 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  if (batch) {
    kill(batch, SIGKILL);
    waitpid(batch, nullptr, 0);
  }
  EXPECT_GT(seen_midway, 0u) << "records appear while the JVM still runs: " << slurp(err);
  std::vector<json::Value> recs = records(out);
  ASSERT_EQ(recs.size(), 10u);
  std::set<std::string> logs;
  int hangs = 0;
  for (const json::Value& r : recs) {
    if (r.str("outcome") == "hang") ++hangs;
    if (!r.str("log").empty()) logs.insert(r.str("log"));
  }
  EXPECT_GT(hangs, 1);
  EXPECT_EQ(logs.size(), 1u) << "one log for the JVM";
  EXPECT_EQ(fs::directory_iterator(out + "/logs") == fs::directory_iterator(), false);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(out + "/logs")) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

// A correct program whose daemon polls under a lock with sleep(10) while main ends: under pct the
// daemon with the top priority used to starve main, a false hang. Sleeping now gives way.
TEST(Verdict, PctDoesNotStarveAThreadBehindOneThatSleeps) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  test::ProcessResult p = run_jsched(
      {"run", "--strategy", "pct",  "--params",  "steps=40", "--runs",      "60", "--in-jvm",
       "60",  "--jobs",     "1",    "--timeout", "3000",     "--seed",      "11", "--out",
       out,   "--",         "java", "-cp",       cp(),       "SleepyDaemon"});
  EXPECT_EQ(p.status, 0) << p.out;
  std::vector<json::Value> recs = records(out);
  EXPECT_EQ(recs.size(), 60u);
  for (const json::Value& r : recs) EXPECT_EQ(r.str("outcome"), "ok") << r.str("detail");
}

// PCT's profile phase gave its runs ten times the timeout and did not report their hangs: on a
// program whose every run hangs, no real execution started for minutes. Now the phase stops
// after three hangs, records them as findings (profile runs of the batch's strategy), and the
// batch goes on.
TEST(Verdict, TheProfilePhaseIsBoundedAndItsFindingsCount) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  auto t0 = std::chrono::steady_clock::now();
  test::ProcessResult p = run_jsched({"run", "--strategy", "pct", "--runs", "2", "--jobs", "2",
                                      "--timeout", "800", "--no-minimize", "--seed", "1", "--out",
                                      out, "--", "java", "-cp", cp(), "Endless"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(p.status, 1) << p.err;
  EXPECT_TRUE(has(p.err, "profile phase of Endless stopped after 3 hangs")) << p.err;
  int profile_hangs = 0, planned = 0;
  for (const json::Value& r : records(out)) {
    EXPECT_EQ(r.str("strategy"), "pct");
    if (r["profile_run"].as_bool()) {
      profile_hangs += r.str("outcome") == "hang";
    } else {
      ++planned;
    }
  }
  EXPECT_GE(profile_hangs, 3);
  EXPECT_EQ(planned, 2) << "the planned runs still ran";
  EXPECT_TRUE(has(p.out, "Endless / pct: its profile runs found " + std::to_string(profile_hangs) +
                             " hangs before its runs"))
      << p.out;
  EXPECT_LT(secs, 25) << "ten profile runs of 10 x 800 ms each would take 40 s";
}

// A replay that departs from its recording used to go on silently and could exit 0. Every
// choice is checked against the recording (thread, operation, site); the first mismatch, or a
// run that ends before its schedule, is reported with status 6.
TEST(Verdict, AReplayThatDepartsFromItsRecordingSaysWhere) {
  test::TempDir d;
  std::string sched = d.path() + "/s.sched";
  int recorded = -1;
  for (int seed = 1; seed <= 20 && recorded != 0; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed) + ",record=" + sched,
                                            cp(), "DivergingPath", {"-Dpath=1"});
    recorded = r.status;
  }
  ASSERT_EQ(recorded, 0);
  EXPECT_TRUE(has(slurp(sched), "jsched-schedule 2")) << slurp(sched);
  // The same path replays.
  test::ProcessResult same =
      test::run_agent("replay=" + sched, cp(), "DivergingPath", {"-Dpath=1"});
  EXPECT_EQ(same.status, 0) << same.err;
  // Another path departs: at a choice, or by ending early.
  test::ProcessResult other =
      test::run_agent("replay=" + sched, cp(), "DivergingPath", {"-Dpath=2"});
  EXPECT_EQ(other.status, 6) << other.err;
  EXPECT_TRUE(has(other.err, "replay diverged at step ")) << other.err;
  EXPECT_TRUE(has(other.err, "expected thread ")) << other.err;
  EXPECT_TRUE(has(other.err, ", got thread ") || has(other.err, "not enabled")) << other.err;
  test::ProcessResult early =
      test::run_agent("replay=" + sched, cp(), "DivergingPath", {"-Dpath=3"});
  EXPECT_EQ(early.status, 6) << early.err;
  EXPECT_TRUE(has(early.err, "replay diverged")) << early.err;
  // The replay names the recorded run's seed, not a new one.
  std::string opts = slurp(sched).substr(slurp(sched).find("seed="));
  std::string seed = opts.substr(5, opts.find_first_of(",\n") - 5);
  EXPECT_TRUE(has(same.err, "seed " + seed)) << same.err;
}

// Under --until-bug, the runs after a cell's finding used to be recorded when another JVM had
// already run them, so the table's runs and findings depended on --jobs. Records now go out in
// index order and stop at the finding: the same results for --jobs 1 and 2.
TEST(Verdict, UntilBugTablesCountRunsUpToTheFindingWhateverTheJobs) {
  test::TempDir d;
  std::string suite = d.path() + "/s.xml";
  std::ofstream(suite) << "<suite runs='200' repetitions='3'>\n<classpath>" << cp()
                       << "</classpath>\n<strategy name='random'/>\n"
                          "<program name='lost' main='LostUpdate' expect='bug'/>\n"
                          "<program name='lock' main='LockOrder' expect='deadlock'/>\n</suite>\n";
  std::map<std::string, std::string> csv;
  for (const char* jobs : {"1", "2"}) {
    std::string out = d.path() + "/j" + jobs;
    test::ProcessResult p = run_jsched({"bench", suite, "--until-bug", "--in-jvm", "25", "--jobs",
                                        jobs, "--seed", "8", "--out", out});
    EXPECT_EQ(p.status, 0) << p.out << p.err;
    std::vector<json::Value> recs = records(out);
    // One finding per cell (program x repetition), and nothing after it.
    struct Cell {
      int hits = 0, last_run = -1, hit_run = -1;
    };
    std::map<std::string, Cell> cells;
    for (const json::Value& r : recs) {
      Cell& c = cells[r.str("program") + std::to_string(int(r.num("repetition")))];
      c.last_run = std::max(c.last_run, int(r.num("run")));
      if (r.str("outcome") == "bug" || r.str("outcome") == "deadlock") {
        ++c.hits;
        c.hit_run = int(r.num("run"));
      }
    }
    for (const auto& [k, c] : cells) {
      EXPECT_EQ(c.hits, 1) << k;
      EXPECT_EQ(c.hit_run, c.last_run) << k << ": no run recorded after the finding";
    }
    std::string text = slurp(out + "/summary.csv"), cut;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) cut += l.substr(0, l.rfind(',')) + "\n";
    csv[jobs] = cut;
  }
  EXPECT_EQ(csv["1"], csv["2"]);
}

// A java.util.concurrent deadlock's one-line summary names where the program waits, not
// LockSupport.park.
TEST(Verdict, AJucDeadlockSummaryNamesTheProgramsFrame) {
  int deadlocks = 0;
  for (int seed = 1; seed <= 40 && deadlocks < 3; ++seed) {
    test::ProcessResult r = test::run_agent("seed=" + std::to_string(seed), JSCHED_SAMPLES_CLASSES,
                                            "jsched.samples.lockorder.Main");
    if (r.status != 4) continue;
    ++deadlocks;
    std::string summary = r.err.substr(r.err.find("DEADLOCK"));
    summary = summary.substr(0, summary.find('\n'));
    EXPECT_FALSE(has(summary, "LockSupport")) << summary;
    EXPECT_TRUE(has(summary, "0.1 at jsched.samples.lockorder.Main.transfer")) << summary;
  }
  EXPECT_GT(deadlocks, 0);
}

// The HTML report: whole-number ticks on count axes, "none (as expected)" rather than a miss for
// a correct program, and contents linking each program's section in a big suite.
TEST(Verdict, TheHtmlReportReadsRightForBigSuites) {
  test::TempDir d;
  std::string suite = d.path() + "/s.xml";
  std::ofstream s(suite);
  s << "<suite runs='2'>\n<classpath>" << cp() << "</classpath>\n";
  for (int i = 0; i < 5; ++i) {
    s << "<program name='lost" << i << "' main='LostUpdate' expect='any'/>\n"
      << "<program name='fine" << i << "' main='WaitNotify' expect='none'/>\n";
  }
  s << "</suite>\n";
  s.close();
  std::string out = d.path() + "/r";
  test::ProcessResult p = run_jsched({"bench", suite, "--seed", "3", "--out", out});
  ASSERT_LE(p.status, 1) << p.err;
  std::string html = slurp(out + "/report.html");
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(has(html, "<a href=\"#p-lost" + std::to_string(i) + "\">")) << "contents";
    EXPECT_TRUE(has(html, "<div id=\"p-fine" + std::to_string(i) + "\">"));
  }
  EXPECT_TRUE(has(html, "none (as expected)"));
  // Runs to a first finding are whole numbers: no tick such as 0.25 or 0.5.
  std::string first = html.substr(html.find("id=\"first\""),
                                  html.find("id=\"orders\"") - html.find("id=\"first\""));
  for (const char* frac : {">0.2<", ">0.25<", ">0.5<", ">0.75<", ">1.5<"})
    EXPECT_FALSE(has(first, frac)) << frac;
}

// report=, record= and profile= used to be written only at the end: the whole program ran, then
// "cannot write" and exit status 0. They are checked before main; so are duplicate keys.
TEST(Verdict, TheAgentChecksItsOutputFilesAndKeysBeforeMain) {
  test::TempDir d;
  for (const char* key : {"report", "record", "profile"}) {
    std::string opts = std::string("seed=1,") + key + "=" + d.path() + "/no/such/dir/f";
    test::ProcessResult r = test::run_agent(opts, cp(), "WaitNotify");
    EXPECT_EQ(r.status, 2) << key << ": " << r.err;
    EXPECT_TRUE(has(r.err, std::string("jsched: error: ") + key + ": cannot write")) << r.err;
    EXPECT_EQ(r.out, "") << "the program did not run";
  }
  std::string fresh = d.path() + "/r.json";
  test::ProcessResult ok = test::run_agent("seed=1,report=" + fresh, cp(), "WaitNotify");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(has(slurp(fresh), "\"outcome\":\"ok\""));
  test::ProcessResult twice = test::run_agent("seed=1,seed=2", cp(), "WaitNotify");
  EXPECT_EQ(twice.status, 2);
  EXPECT_TRUE(has(twice.err, "option 'seed' given twice")) << twice.err;
  std::string long_value(500, 'x');
  test::ProcessResult longv = test::run_agent("strategy=" + long_value, cp(), "WaitNotify");
  EXPECT_EQ(longv.status, 2);
  EXPECT_LT(longv.err.size(), 300u) << "a long value is cut: " << longv.err;
}

// A hang comes when real time runs out, at no particular step: the run and its replay used to
// name different holders. A hang now stops at a step, the recording says which, and the replay
// stops there too: the same diagnosis.
TEST(Verdict, AHangAndItsReplayDescribeTheSameState) {
  test::TempDir d;
  std::string sched = d.path() + "/s";
  test::ProcessResult r =
      test::run_agent("seed=3,timeout=1000,record=" + sched, cp(), "SpinHoldingLock");
  ASSERT_EQ(r.status, 5) << r.err;
  auto head = [](const std::string& err, const std::string& after) {
    size_t at = err.find(after);
    if (at == std::string::npos) return std::string("(none)");
    at += after.size();
    return err.substr(at, err.find('\n', at) - at);
  };
  std::string original = head(r.err, " ms: ");
  EXPECT_TRUE(has(slurp(sched), "\nhang ")) << "the recording says where it hung";
  for (int i = 0; i < 3; ++i) {
    test::ProcessResult again =
        test::run_agent("replay=" + sched + ",timeout=60000", cp(), "SpinHoldingLock");
    EXPECT_EQ(again.status, 5) << again.err;
    EXPECT_EQ(head(again.err, "here at the same step: "), original);
  }
}

// Slow is not hung: threads that keep making steps when the time budget runs out end the
// execution as a timeout (status 7), no finding, with the steps they made; a hang is no step
// for the hang window. (Two threads taking turns on a monitor for ever, with no clock in their
// loop, look like a long computation to the model and end so too; a livelock on timed waits is
// below.)
TEST(Verdict, StepsStillMadeAtTheEndOfTheBudgetAreATimeoutNotAHang) {
  test::TempDir d;
  const std::string report = d.path() + "/r.json";
  test::ProcessResult r =
      test::run_agent("seed=3,timeout=500,budget=1500,report=" + report, cp(), "Livelock");
  EXPECT_EQ(r.status, 7) << r.err;
  EXPECT_TRUE(has(r.err, "jsched: TIMEOUT")) << r.err;
  EXPECT_TRUE(has(r.err, "no end after 1500 ms, still making steps (")) << r.err;
  EXPECT_FALSE(has(r.err, "HANG")) << r.err;
  json::Value rep = json::parse(slurp(report));
  EXPECT_EQ(rep.str("outcome"), "timeout");
  // Where the loop turns: each spinning thread at its line.
  EXPECT_GE(test::count_lines(rep.str("detail"), "at Livelock.lambda$main$0(Livelock.java:1"), 2)
      << rep.str("detail");
  EXPECT_GT(rep.num("scheduling_points"), 1000);
  // The runner: not a finding, counted apart.
  test::ProcessResult b = run_jsched({"run", "--runs", "2", "--jobs", "2", "--strategy", "random",
                                      "--timeout", "500", "--params", "budget=1500", "--out",
                                      d.path() + "/o", "--", "java", "-cp", cp(), "Livelock"});
  std::vector<json::Value> recs = records(d.path() + "/o");
  ASSERT_EQ(recs.size(), 2u) << b.err;
  for (const json::Value& rec : recs) EXPECT_EQ(rec.str("outcome"), "timeout") << rec.dump();
  EXPECT_FALSE(has(b.out, "findings")) << b.out;
}

// A livelock: threads polling on timed waits for a flag nobody sets, main waiting for them.
// Nothing changes for the hang window while they turn: outcome `livelock` (status 8), a finding,
// with where each thread turns; its recording replays to the same end.
TEST(Verdict, ThreadsTurningOnTimedWaitsWithNothingChangingAreALivelock) {
  test::TempDir d;
  for (int seed = 1; seed <= 3; ++seed) {
    const std::string report = d.path() + "/r" + std::to_string(seed) + ".json";
    const std::string sched = d.path() + "/s" + std::to_string(seed);
    test::ProcessResult r = test::run_agent(
        "seed=" + std::to_string(seed) + ",timeout=500,report=" + report + ",record=" + sched, cp(),
        "TimedLivelock");
    ASSERT_EQ(r.status, 8) << r.err;
    EXPECT_TRUE(has(r.err, "jsched: LIVELOCK")) << r.err;
    json::Value rep = json::parse(slurp(report));
    EXPECT_EQ(rep.str("outcome"), "livelock");
    const std::string detail = rep.str("detail");
    EXPECT_TRUE(has(detail, "nothing changed for 500 ms while 2 threads turned on timed waits"))
        << detail;
    EXPECT_GE(test::count_lines(detail, "at TimedLivelock.lambda$main$0(TimedLivelock.java:11)"), 1)
        << detail;
    EXPECT_GE(test::count_lines(detail, "at TimedLivelock.lambda$main$1(TimedLivelock.java:19)"), 1)
        << detail;
    EXPECT_TRUE(has(slurp(sched), "\nlivelock ")) << "the recording says where it ended";
    test::ProcessResult again =
        test::run_agent("replay=" + sched + ",timeout=60000", cp(), "TimedLivelock");
    EXPECT_EQ(again.status, 8) << again.err;
    EXPECT_TRUE(has(again.err, "the recorded run livelocked after ")) << again.err;
  }
  // The runner: a finding, in a column of its own.
  test::ProcessResult b = run_jsched({"run", "--runs", "2", "--jobs", "2", "--strategy", "random",
                                      "--timeout", "500", "--no-minimize", "--out", d.path() + "/o",
                                      "--", "java", "-cp", cp(), "TimedLivelock"});
  EXPECT_EQ(b.status, 1) << b.err;
  std::vector<json::Value> recs = records(d.path() + "/o");
  ASSERT_EQ(recs.size(), 2u) << b.err;
  for (const json::Value& rec : recs) EXPECT_EQ(rec.str("outcome"), "livelock") << rec.dump();
  EXPECT_TRUE(has(b.out, " live ")) << b.out;
}

// Not a livelock: main polls on the clock for a worker that computes for seconds, reading a
// volatile at every round and writing nothing another thread sees until it is done. Nothing
// changes for longer than the hang window, but the worker never waits: slow work, which ends ok.
// (A budget of its own: the default, ten hang windows, is 3 s, which a loaded machine passes.)
TEST(Verdict, SlowWorkPolledOnTheClockIsNotALivelock) {
  for (const char* strategy : {"random", "pct"}) {
    for (int seed = 1; seed <= 2; ++seed) {
      test::ProcessResult r =
          test::run_agent(std::string("strategy=") + strategy + ",seed=" + std::to_string(seed) +
                              ",timeout=300,budget=60000",
                          cp(), "SlowWorkPolled");
      EXPECT_EQ(r.status, 0) << strategy << " " << seed << ": " << r.err;
      EXPECT_TRUE(has(r.out, "done true")) << r.out;
    }
  }
}

// Nor is time the machine kept the running thread from a CPU: with two busy processes on the
// JVM's one CPU, a worker computing 150 ms of CPU between steps takes longer than the 500 ms
// window in real time, and runs to its end (it had the CPU for less than a window between
// steps; before, a hang every time); a spin without steps under the same load is still a hang,
// once it has had its window of CPU.
TEST(Verdict, TimeTheMachineKeptTheThreadFromACpuIsNoHang) {
  // The busy processes and the JVMs share one CPU.
  test::OneCpu one_cpu;
  ASSERT_TRUE(one_cpu.on());
  struct Load {
    std::vector<pid_t> pids;
    ~Load() {
      for (pid_t pid : pids) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } load;
  for (int i = 0; i < 2; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", "while :; do :; done", nullptr);
      _exit(127);
    }
    load.pids.push_back(pid);
  }
  for (int seed = 1; seed <= 2; ++seed) {
    test::ProcessResult slow = test::run_agent(
        "seed=" + std::to_string(seed) + ",timeout=500,budget=120000", cp(), "LongStretches");
    EXPECT_EQ(slow.status, 0) << slow.err;
    EXPECT_TRUE(has(slow.out, "done true")) << slow.out;
    test::ProcessResult spin = test::run_agent(
        "strategy=random,seed=" + std::to_string(seed) + ",timeout=500", cp(), "SpinHoldingLock");
    EXPECT_EQ(spin.status, 5) << spin.err;
    EXPECT_TRUE(has(spin.err, "jsched: HANG")) << spin.err;
  }
}

// Time the process was not run is no hang: stopped (SIGSTOP) for three hang windows in the
// middle of a stretch of work without a scheduling point, the execution goes on and ends ok.
// (Before: a hang every time.) A budget of its own: the default, ten hang windows, is 5 s,
// which the 1.8 s of CPU of its stretches can pass on a loaded machine (a timeout, once in a
// run of the whole suite).
TEST(Verdict, TimeTheProcessWasStoppedIsNoHang) {
  test::TempDir d;
  for (int seed = 1; seed <= 3; ++seed) {
    const std::string out = d.path() + "/out", err = d.path() + "/err";
    int pid =
        test::start_process({test::java_bin(),
                             "-agentpath:" + test::agent_path() + "=seed=" + std::to_string(seed) +
                                 ",timeout=500,budget=120000",
                             "-cp", cp(), "LongStretches"},
                            out, err);
    const auto start = std::chrono::steady_clock::now();
    while (!has(slurp(out), "started") &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(pid, SIGSTOP);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGCONT);
    EXPECT_EQ(test::wait_status(pid), 0) << slurp(err);
    EXPECT_TRUE(has(slurp(out), "done true")) << slurp(out);
  }
}
