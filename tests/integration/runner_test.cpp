// The jsched runner end to end: batches, reports, stopping at the first finding, resuming
// after kill -9, shards merged with GNU parallel.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;

namespace {

using test::canonical;
using test::first_difference;
using test::records;
using test::run_jsched;
using test::slurp;

std::string jsched_bin() {
  return JSCHED_BIN;
}
std::string cp() {
  return test::data_dir() + "/agent";
}
std::string suite() {
  return test::data_dir() + "/suites/mini.xml";
}

}  // namespace

TEST(Runner, RunWritesEveryReportAndSaysWhetherSomethingWasFound) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  test::ProcessResult p = run_jsched({"run", "--runs", "12", "--jobs", "2", "--seed", "1", "--out",
                                      out, "--", "java", "-cp", cp(), "LostUpdate"});
  EXPECT_EQ(p.status, 1) << p.err;
  // The default strategy, portfolio, profiles the program first (3 to 10 runs, fewer once they
  // teach its plan nothing; each finds the lost update, so each is recorded, as such).
  size_t planned = 0, profile = 0;
  for (const json::Value& r : records(out)) {
    EXPECT_EQ(r.str("strategy"), "portfolio");
    (r["profile_run"].as_bool() ? profile : planned) += 1;
  }
  EXPECT_EQ(planned, 12u);
  EXPECT_GE(profile, 3u);
  EXPECT_LE(profile, 10u);
  EXPECT_NE(p.out.find("findings"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("replay: "), std::string::npos);
  EXPECT_NE(slurp(out + "/summary.csv").find("LostUpdate,portfolio,12,"), std::string::npos);
  EXPECT_NE(slurp(out + "/junit.xml").find("<failure"), std::string::npos);
  std::string html = slurp(out + "/report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("Distribution of partial orders"), std::string::npos);
  test::ProcessResult ok = run_jsched({"run", "--runs", "5", "--seed", "1", "--out",
                                       d.path() + "/w", "--", "java", "-cp", cp(), "WaitNotify"});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(Runner, UntilBugStopsAtTheFirstFindingAndNamesItsSeed) {
  test::TempDir d;
  std::string out = d.path() + "/u";
  test::ProcessResult p =
      run_jsched({"run", "--strategy", "random", "--until-bug", "--runs", "300", "--jobs", "2",
                  "--seed", "4", "--out", out, "--", "java", "-cp", cp(), "LockOrder"});
  EXPECT_EQ(p.status, 1) << p.err;
  std::vector<json::Value> recs = records(out);
  EXPECT_LT(recs.size(), 300u);
  int found = 0;
  for (const json::Value& r : recs) found += r.str("outcome") == "deadlock";
  EXPECT_EQ(found, 1);
  EXPECT_NE(p.out.find("seed "), std::string::npos);
}

TEST(Runner, ResumeAfterKill9LosesAndRepeatsNothing) {
  test::TempDir d;
  std::string ref = d.path() + "/ref", out = d.path() + "/k";
  std::vector<std::string> cmd = {"--runs", "30", "--jobs", "2", "--seed", "7"};
  std::vector<std::string> prog = {"--", "java", "-cp", cp(), "WaitNotify"};
  std::vector<std::string> a = {"run", "--strategy", "random"};
  a.insert(a.end(), cmd.begin(), cmd.end());
  a.insert(a.end(), {"--out", ref});
  a.insert(a.end(), prog.begin(), prog.end());
  ASSERT_EQ(run_jsched(a).status, 0);

  // The same batch, killed with SIGKILL once some executions finished.
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    std::vector<std::string> b = {jsched_bin(), "run", "--strategy", "random"};
    b.insert(b.end(), cmd.begin(), cmd.end());
    b.insert(b.end(), {"--out", out});
    b.insert(b.end(), prog.begin(), prog.end());
    std::vector<char*> argv;
    for (auto& s : b) argv.push_back(s.data());
    argv.push_back(nullptr);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 600 && records(out).size() < 8; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  size_t before = records(out).size();
  EXPECT_GE(before, 8u);
  EXPECT_LT(before, 30u) << "the batch ended before it could be killed";
  test::ProcessResult r = run_jsched({"run", "--resume", out});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<json::Value> recs = records(out);
  EXPECT_EQ(recs.size(), 30u);
  std::set<uint64_t> seen;
  for (const json::Value& x : recs)
    EXPECT_TRUE(seen.insert(uint64_t(x.num("index"))).second) << "repeated";
  EXPECT_EQ(first_difference(canonical(recs), canonical(records(ref))), "");
}

TEST(Runner, FourShardsThroughGnuParallelMergeToTheUnshardedResult) {
  test::TempDir d;
  std::string whole = d.path() + "/whole";
  test::ProcessResult w =
      run_jsched({"bench", suite(), "--seed", "9", "--jobs", "2", "--out", whole});
  ASSERT_LE(w.status, 1) << w.err << w.out;  // 1: an expectation not met in so few runs
  // Shards as a cluster would run them: GNU parallel (over ssh, or a Slurm array).
  std::string joblog = d.path() + "/joblog";
  test::run({"parallel", "--joblog", joblog, jsched_bin(), "bench", suite(), "--seed", "9",
             "--jobs", "1", "--shard", "{}/4", "--out", d.path() + "/s{}", ":::", "0", "1", "2",
             "3"});
  // Each shard exits 0 or 1 (its own subset meets its expectations or not), never 2.
  std::istringstream log(slurp(joblog));
  std::string line;
  std::getline(log, line);  // header
  int jobs = 0;
  while (std::getline(log, line)) {
    std::istringstream cols(line);
    std::string c[7];
    for (auto& x : c) cols >> x;
    EXPECT_LE(std::stoi(c[6]), 1) << line;
    ++jobs;
  }
  ASSERT_EQ(jobs, 4) << slurp(joblog);
  test::ProcessResult m = run_jsched({"merge", "--out", d.path() + "/merged", d.path() + "/s0",
                                      d.path() + "/s1", d.path() + "/s2", d.path() + "/s3"});
  ASSERT_LE(m.status, 1) << m.err;
  EXPECT_EQ(first_difference(canonical(records(d.path() + "/merged")), canonical(records(whole))),
            "");
  auto strip_time = [](std::string csv) {
    std::string out;
    std::istringstream in(csv);
    for (std::string l; std::getline(in, l);) out += l.substr(0, l.rfind(',')) + "\n";
    return out;
  };
  EXPECT_EQ(strip_time(slurp(d.path() + "/merged/summary.csv")),
            strip_time(slurp(whole + "/summary.csv")));
  EXPECT_EQ(records(whole).size(), 3u * 2 * 2 * 6);
}

TEST(Runner, MalformedSuitesAndOptionsAreRejectedWithTheReason) {
  test::TempDir d;
  std::string bad = d.path() + "/bad.xml";
  std::ofstream(bad) << "<suite>\n  <classpath>x</classpath>\n  <program name=\"p\" main=\"M\" "
                        "expect=\"later\"/>\n</suite>\n";
  test::ProcessResult p = run_jsched({"bench", bad, "--out", d.path() + "/o"});
  EXPECT_EQ(p.status, 2);
  EXPECT_NE(p.err.find(bad + ":3: expect must be"), std::string::npos) << p.err;
  EXPECT_FALSE(fs::exists(d.path() + "/o"));
  std::ofstream(bad) << "<suite><program name='a' main='M'></suite>";
  p = run_jsched({"bench", bad});
  EXPECT_EQ(p.status, 2);
  EXPECT_NE(p.err.find(bad + ":1: "), std::string::npos) << p.err;
  p = run_jsched({"run", "--runs", "ten", "--", "java", "X"});
  EXPECT_EQ(p.status, 2);
  EXPECT_NE(p.err.find("--runs: 'ten' is not a whole number"), std::string::npos) << p.err;
  p = run_jsched({"run", "--bogus", "--", "java", "X"});
  EXPECT_EQ(p.status, 2);
  EXPECT_NE(p.err.find("unknown option"), std::string::npos) << p.err;
}

// PCTVB needs a plan: the runner profiles the program first (10 runs by default), writes the
// merged plan into the results directory, passes it to every run, and reuses it on resume.
// Profile runs that all end without a profile (a JVM killed or crashed): the strategies that run
// without a plan do, on their defaults, with a warning; pctvb, which cannot, stops the batch.
TEST(Runner, WithoutAProfileSurwRunsOnItsDefaultsAndPctvbStops) {
  test::TempDir d;
  auto run = [&](const std::string& strategy) {
    return run_jsched({"run", "--strategy", strategy, "--runs", "2", "--profile-runs", "2",
                       "--jobs", "2", "--seed", "1", "--no-minimize", "--out",
                       d.path() + "/" + strategy, "--", "java", "-cp", cp(), "KillsItself"});
  };
  test::ProcessResult surw = run("surw");
  EXPECT_EQ(surw.status, 3) << surw.err;  // its runs did not end either: no verdict
  EXPECT_NE(surw.err.find("surw runs without a plan, on its defaults"), std::string::npos)
      << surw.err;
  int planned = 0;
  for (const json::Value& r : records(d.path() + "/surw"))
    planned += r.str("strategy") == "surw" && !r["profile_run"].as_bool();
  EXPECT_EQ(planned, 2);
  test::ProcessResult pctvb = run("pctvb");
  EXPECT_NE(pctvb.status, 0);
  EXPECT_NE(pctvb.err.find("wrote no profile"), std::string::npos) << pctvb.err;
}

TEST(Runner, PctvbRunsProfileFirstAndReuseThePlanOnResume) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  std::vector<std::string> program = {"--", "java", "-cp", JSCHED_SAMPLES_CLASSES,
                                      "jsched.samples.rarevariable.Main"};
  std::vector<std::string> args = {
      "run", "--strategy", "pctvb", "--params", "depth=2", "--runs", "40", "--profile-runs",
      "3",   "--jobs",     "2",     "--seed",   "5",       "--out",  out};
  args.insert(args.end(), program.begin(), program.end());
  test::ProcessResult p = run_jsched(args);
  ASSERT_TRUE(p.status == 0 || p.status == 1) << p.err;
  EXPECT_NE(p.err.find("profiling jsched.samples.rarevariable.Main: up to 3 runs"),
            std::string::npos)
      << p.err;
  std::vector<fs::path> plans;
  for (const auto& e : fs::directory_iterator(out + "/profile")) {
    if (e.path().extension() == ".plan") plans.push_back(e.path());
  }
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_NE(slurp(plans[0].string()).find("runs 3\n"), std::string::npos);
  std::vector<json::Value> recs = records(out);
  ASSERT_EQ(recs.size(), 40u);
  EXPECT_NE(recs[0].str("replay").find("plan=" + plans[0].string()), std::string::npos)
      << recs[0].str("replay");
  auto written = fs::last_write_time(plans[0]);
  // Lose the last ten executions, as a kill would, and resume: no new profile.
  std::string lines = slurp(out + "/runs.jsonl");
  size_t cut = 0;
  for (int i = 0; i < 30; ++i) cut = lines.find('\n', cut) + 1;
  std::ofstream(out + "/runs.jsonl", std::ios::trunc) << lines.substr(0, cut);
  test::ProcessResult r = run_jsched({"run", "--resume", out});
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  EXPECT_EQ(r.err.find("profiling"), std::string::npos) << r.err;
  EXPECT_EQ(fs::last_write_time(plans[0]), written);
  EXPECT_EQ(records(out).size(), 40u);
}

// --profile-runs is a maximum: a program whose runs repeat what the plan knows stops after
// two quiet runs, and where it stops (so the plan) does not depend on the order runs end in.
TEST(Runner, TheProfilePhaseStopsOnceRunsTeachNothingWhateverTheJobs) {
  test::TempDir d;
  auto plan_of = [&](const std::string& jobs) {
    std::string out = d.path() + "/j" + jobs;
    test::ProcessResult p =
        run_jsched({"run", "--strategy", "pct", "--runs", "1", "--jobs", jobs, "--seed", "5",
                    "--no-minimize", "--out", out, "--", "java", "-cp", JSCHED_SAMPLES_CLASSES,
                    "jsched.samples.download.Fixed", "2"});
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_NE(p.err.find("profiling jsched.samples.download.Fixed: up to 10 runs"),
              std::string::npos)
        << p.err;
    std::smatch m;
    EXPECT_TRUE(
        std::regex_search(p.err, m, std::regex(R"(stopped after (\d+) runs: the last 2 taught)")))
        << p.err;
    const int ran = m.empty() ? 0 : std::stoi(m[1]);
    EXPECT_GE(ran, 3);
    EXPECT_LT(ran, 10);
    std::string plan;
    for (const auto& e : fs::directory_iterator(out + "/profile"))
      if (e.path().extension() == ".plan") plan = slurp(e.path().string());
    EXPECT_NE(plan.find("runs " + std::to_string(ran) + "\n"), std::string::npos) << plan;
    return plan;
  };
  std::string one = plan_of("1");
  EXPECT_EQ(one, plan_of("2"));
}

// What a profile run finds is the batch's finding, named under the batch's strategy and marked
// as a profile run's, never a row of a strategy "profile" (which the user did not ask for),
// and not counted among the strategy's runs. PCT at depth 1 never pre-empts and cannot lose
// LongRace's update; the random profile runs always do.
TEST(Runner, AProfileRunsFindingIsTheBatchsUnderItsStrategy) {
  test::TempDir d;
  std::string out = d.path() + "/r";
  test::ProcessResult p = run_jsched({"run",      "--strategy",
                                      "pct",      "--params",
                                      "depth=1",  "--runs",
                                      "2",        "--profile-runs",
                                      "3",        "--no-minimize",
                                      "--seed",   "5",
                                      "--out",    out,
                                      "--",       "java",
                                      "-cp",      cp(),
                                      "LongRace", "1000"});
  EXPECT_EQ(p.status, 1) << "a finding of the batch: " << p.err;
  EXPECT_EQ(p.out.find("LongRace profile"), std::string::npos) << p.out;
  EXPECT_TRUE(std::regex_search(p.out, std::regex(R"(\nLongRace pct +2 +2 +0 )"))) << p.out;
  EXPECT_NE(p.out.find("LongRace / pct: its profile runs found 3 bugs before its runs"),
            std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("LongRace / pct (in a profile run): bug: uncaught java.lang.AssertionError"),
            std::string::npos)
      << p.out;
  int profile_runs = 0;
  for (const json::Value& r : records(out)) {
    EXPECT_EQ(r.str("strategy"), "pct");
    profile_runs += r["profile_run"].as_bool();
  }
  EXPECT_EQ(profile_runs, 3);
  std::string csv = slurp(out + "/summary.csv");
  EXPECT_NE(csv.find("\nLongRace,pct,2,2,0,"), std::string::npos) << csv;
  EXPECT_TRUE(std::regex_search(csv, std::regex(",3,[0-9.]+\n$"))) << csv << "profile_findings 3";
}

// A harness that prints its failure and exits 0: with --bug-output, a printed line the pattern
// finds is a bug whose detail is the line, in a JVM per execution and with --in-jvm, where each
// execution's output is its own: every recorded outcome is what its replay command, run alone,
// gives. Without the oracle the same runs say ok; the locked variant never fails.
TEST(Runner, BugOutputMakesAPrintedFailureABugOfItsExecution) {
  for (const char* in_jvm : {"1", "20"}) {
    SCOPED_TRACE(in_jvm);
    test::TempDir d;
    const std::string out = d.path() + "/r";
    test::ProcessResult p =
        run_jsched({"run", "--strategy", "random", "--runs", "40", "--in-jvm", in_jvm,
                    "--no-minimize", "--seed", "7", "--bug-output", "Bug has been,? reproduced",
                    "--out", out, "--", "java", "-cp", cp(), "PrintsFailure"});
    EXPECT_EQ(p.status, 1) << p.err;
    EXPECT_NE(p.out.find("PrintsFailure / random: bug: bug-output: printed in thread 0: Bug has "
                         "been reproduced, count = 1"),
              std::string::npos)
        << p.out;
    int bugs = 0, oks = 0, checked = 0;
    for (const json::Value& r : records(out)) {
      const std::string outcome = r.str("outcome");
      bugs += outcome == "bug";
      oks += outcome == "ok";
      if (checked >= 12) continue;
      ++checked;
      // The record's own replay command, alone: the same outcome (3: a bug, 0: ok).
      test::ProcessResult alone = test::run({"sh", "-c", r.str("replay") + " >/dev/null 2>&1"});
      EXPECT_EQ(alone.status, outcome == "bug" ? 3 : 0) << r.str("replay");
    }
    EXPECT_GT(bugs, 3);
    EXPECT_GT(oks, 3);
  }
  test::TempDir d;
  test::ProcessResult plain =
      run_jsched({"run", "--strategy", "random", "--runs", "20", "--seed", "7", "--out",
                  d.path() + "/a", "--", "java", "-cp", cp(), "PrintsFailure"});
  EXPECT_EQ(plain.status, 0) << "without the oracle a printed failure is invisible";
  test::ProcessResult locked = run_jsched({"run", "--strategy", "random", "--runs", "20", "--seed",
                                           "7", "--bug-output", "Bug has", "--out", d.path() + "/b",
                                           "--", "java", "-cp", cp(), "PrintsFailure", "lock"});
  EXPECT_EQ(locked.status, 0) << locked.out;
  test::ProcessResult bad =
      run_jsched({"run", "--bug-output", "(Bug", "--", "java", "-cp", cp(), "PrintsFailure"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bug-output: '(Bug' is not a regular expression"), std::string::npos)
      << bad.err;
  // A suite's program attribute, and bench's option for the programs without one.
  const std::string suite = d.path() + "/s.xml";
  std::ofstream(suite) << "<suite name='o' runs='30'>\n<classpath>" << cp()
                       << "</classpath>\n<strategy name='random'/>\n"
                          "<program name='attr' main='PrintsFailure' expect='bug' "
                          "bug-output='Bug has'/>\n"
                          "<program name='option' main='PrintsFailure' expect='bug'/>\n"
                          "<program name='locked' main='PrintsFailure' args='lock' "
                          "expect='none'/>\n</suite>\n";
  test::ProcessResult bench = run_jsched({"bench", suite, "--seed", "3", "--no-minimize",
                                          "--bug-output", "reproduced", "--out", d.path() + "/c"});
  EXPECT_EQ(bench.status, 0) << bench.out << bench.err;
  EXPECT_EQ(test::count_lines(bench.out, "bug (met)"), 2) << bench.out;
  EXPECT_EQ(test::count_lines(bench.out, "none (met)"), 1) << bench.out;
}

// Two JVMs of a batch opened one "database" in the shared working directory: all but one failed
// to start it, bugs of jsched's making. The runner says so, naming the file, and --workdir
// fresh (an empty directory per JVM) or copy:DIR (a fresh copy) keeps them apart; every JVM
// has a java.io.tmpdir of its own, which its replay command does not name (it is gone).
TEST(Runner, ParallelRunsInOneDirectoryAreWarnedAboutAndWorkdirKeepsThemApart) {
  test::TempDir d;
  auto jsched_in = [&](const std::string& args) {
    return test::run({"sh", "-c",
                      "cd " + d.path() + " && exec " + jsched_bin() +
                          " run --strategy random --runs 6 --jobs 2 --no-minimize --seed 1 " +
                          args + " -- java -cp " + cp() + " Database"});
  };
  test::ProcessResult shared = jsched_in("--out r1");
  // Seen either as two JVMs holding it open for writing at once, or as written since the batch
  // began (which of them the runner notices first depends on timing).
  const std::string db = d.path() + "/app.db";
  EXPECT_TRUE(shared.err.find("warning: " + db + " was written while runs ran side by side") !=
                  std::string::npos ||
              shared.err.find(" wrote " + db + " at the same time") != std::string::npos)
      << shared.err;
  EXPECT_NE(shared.err.find("give --workdir fresh"), std::string::npos) << shared.err;
  for (const json::Value& r : records(d.path() + "/r1")) {
    EXPECT_EQ(r.str("detail").find("scratch file in use"), std::string::npos)
        << "java.io.tmpdir is each JVM's own: " << r.str("detail");
    EXPECT_EQ(r.str("replay").find("java.io.tmpdir"), std::string::npos) << r.str("replay");
  }
  fs::remove(d.path() + "/app.db");
  test::ProcessResult fresh = jsched_in("--workdir fresh --out r2");
  EXPECT_EQ(fresh.status, 0) << fresh.out << fresh.err;
  EXPECT_EQ(fresh.err.find("warning"), std::string::npos) << fresh.err;
  EXPECT_FALSE(fs::exists(d.path() + "/app.db")) << "each JVM wrote in a directory of its own";
  EXPECT_FALSE(fs::exists(d.path() + "/r2/work/jvm-0")) << "and it is gone after the run";
  fs::create_directories(d.path() + "/src");
  std::ofstream(d.path() + "/src/seed.txt") << "42\n";
  test::ProcessResult copy =
      test::run({"sh", "-c",
                 "cd " + d.path() + " && exec " + jsched_bin() +
                     " run --strategy random --runs 4 --jobs 2 --in-jvm 2 --no-minimize --seed 1 "
                     "--workdir copy:src --out r3 -- java -cp " +
                     cp() + " Database seeded"});
  EXPECT_EQ(copy.status, 0) << copy.out << copy.err;
  // A resumed batch runs as the batch began.
  EXPECT_NE(slurp(d.path() + "/r3/batch.json").find("\"workdir\":\"copy:" + d.path() + "/src\""),
            std::string::npos)
      << slurp(d.path() + "/r3/batch.json");
  EXPECT_EQ(run_jsched({"run", "--resume", d.path() + "/r3"}).status, 0);
  test::ProcessResult bad =
      run_jsched({"run", "--workdir", "copy:/no/such", "--", "java", "-cp", cp(), "Database"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--workdir: no directory /no/such to copy"), std::string::npos) << bad.err;
}

// The profile runs of a batch ran side by side holding the runner's own runs.jsonl, inherited
// from it: every portfolio batch with --jobs 2 in a shared directory warned that two runs
// (named 1099511627776 and 1099511627777) wrote it at the same time.
TEST(Runner, ProfileRunsSideBySideAreNotTakenForProgramsWritingTheRunnersFiles) {
  test::TempDir d;
  test::ProcessResult r = test::run(
      {"sh", "-c",
       "cd " + d.path() + " && exec " + jsched_bin() +
           " run --strategy portfolio --runs 2 --jobs 2 --no-minimize --seed 1 --out r -- java "
           "-cp " +
           cp() + " LongStretches"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("profile runs of LongStretches"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

// The runner's last resort for a JVM that outlives its watchdog killed one after twice its hang
// window plus 10 s, while its executions may run for their budget: a slow program that made
// steps all along ended as an error. LongRace's 12 million turns take about 15 s here (4
// million took as long while every execution computed its HaPSet coverage).
TEST(Runner, ASlowRunWithinItsBudgetIsNotKilled) {
  test::TempDir d;
  test::ProcessResult p =
      run_jsched({"run",       "--strategy", "random",   "--runs",        "1",
                  "--timeout", "200",        "--params", "budget=90000",  "--no-minimize",
                  "--seed",    "1",          "--out",    d.path() + "/r", "--",
                  "java",      "-cp",        cp(),       "LongRace",      "12000000"});
  std::vector<json::Value> recs = records(d.path() + "/r");
  ASSERT_EQ(recs.size(), 1u) << p.err;
  EXPECT_EQ(recs[0].str("outcome"), "bug") << recs[0].str("detail");
  EXPECT_GT(recs[0].num("elapsed_ms"), 200 * 2 + 10000) << "it outlived the old limit";
}

// bench --until-bug: each program x strategy x repetition stops at its first finding, and a
// strategy's own runs= overrides the suite's.
TEST(Runner, BenchUntilBugStopsEachCellAtItsFirstFinding) {
  test::TempDir d;
  std::string s = d.path() + "/s.xml";
  std::ofstream(s) << "<suite name='u' runs='30' repetitions='3'>\n<classpath>" << cp()
                   << "</classpath>\n<strategy name='random'/>\n"
                      "<strategy name='random' label='short' runs='2'/>\n"
                      "<program name='lostupdate' main='LostUpdate' expect='bug'/>\n"
                      "<program name='waitnotify' main='WaitNotify' expect='none'/>\n</suite>\n";
  std::string out = d.path() + "/o";
  test::ProcessResult p =
      run_jsched({"bench", s, "--until-bug", "--jobs", "1", "--seed", "3", "--out", out});
  ASSERT_TRUE(p.status == 0 || p.status == 1) << p.err;
  std::map<std::string, std::vector<json::Value>> cells;
  for (const json::Value& r : records(out)) {
    cells[r.str("program") + "/" + r.str("strategy") + "/" +
          std::to_string(int(r.num("repetition")))]
        .push_back(r);
  }
  int stopped = 0;
  for (const auto& [cell, rs] : cells) {
    // --jobs 1: nothing runs after a cell's first finding, which is its last run
    uint32_t limit = cell.find("/short/") != std::string::npos ? 2 : 30;
    EXPECT_LE(rs.size(), limit) << cell;
    for (size_t i = 0; i + 1 < rs.size(); ++i) EXPECT_EQ(rs[i].str("outcome"), "ok") << cell;
    if (cell.rfind("waitnotify", 0) == 0) {
      EXPECT_EQ(rs.size(), limit) << cell;
    }
    stopped += rs.back().str("outcome") == "bug" && rs.size() < limit;
  }
  EXPECT_EQ(cells.size(), 12u);
  EXPECT_GE(stopped, 1) << "no lostupdate cell stopped early";
}

// bench --give-up K: a cell whose first K repetitions ran all their runs without its finding
// starts no other repetition; a cell that found its bug in one of them runs them all.
TEST(Runner, BenchGiveUpStopsACellWhoseFirstRepetitionsAllMissed) {
  test::TempDir d;
  std::string s = d.path() + "/s.xml";
  std::ofstream(s) << "<suite name='g' runs='6' repetitions='5'>\n<classpath>" << cp()
                   << "</classpath>\n<strategy name='random'/>\n"
                      "<program name='never' main='WaitNotify' expect='bug'/>\n"
                      "<program name='found' main='LostUpdate' expect='bug'/>\n</suite>\n";
  std::string out = d.path() + "/o";
  test::ProcessResult p = run_jsched(
      {"bench", s, "--until-bug", "--give-up", "2", "--jobs", "1", "--seed", "5", "--out", out});
  EXPECT_EQ(p.status, 1) << p.err;  // 'never' does not meet its expectation
  std::map<std::string, std::set<int>> reps;
  std::map<std::string, int> runs;
  for (const json::Value& r : records(out)) {
    reps[r.str("program")].insert(int(r.num("repetition")));
    ++runs[r.str("program")];
  }
  EXPECT_EQ(reps["never"], (std::set<int>{0, 1}));
  EXPECT_EQ(runs["never"], 12);  // two whole repetitions
  EXPECT_EQ(reps["found"].size(), 5u) << "LostUpdate's bug in none of 12 runs";
  std::string summary = slurp(out + "/summary.csv");
  EXPECT_NE(summary.find("never,random,12,"), std::string::npos) << summary;
  EXPECT_NE(summary.find(",2,0,"), std::string::npos) << summary;  // repetitions, found
  EXPECT_EQ(run_jsched({"bench", s, "--give-up", "2", "--out", d.path() + "/x"}).status, 2);
}

// A batch too big to plan in the memory the machine has is refused before anything is written,
// with one line, instead of being killed part way (a batch holds every execution it plans).
TEST(Runner, ABatchTooBigToPlanIsRefusedBeforeItStarts) {
  test::TempDir d;
  std::string s = d.path() + "/s.xml";
  std::ofstream(s) << "<suite name='big' runs='10000000' repetitions='100000'>\n<classpath>" << cp()
                   << "</classpath>\n<strategy name='random'/>\n"
                      "<program name='lostupdate' main='LostUpdate' expect='bug'/>\n</suite>\n";
  test::ProcessResult bench = run_jsched({"bench", s, "--out", d.path() + "/b"});
  EXPECT_EQ(bench.status, 2) << bench.err;
  EXPECT_NE(bench.err.find("executions needs about"), std::string::npos) << bench.err;
  EXPECT_FALSE(fs::exists(d.path() + "/b"));
  test::ProcessResult run = run_jsched({"run", "--runs", "1000000000", "--out", d.path() + "/r",
                                        "--", "java", "-cp", cp(), "LostUpdate"});
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("executions needs about"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(d.path() + "/r"));
}

// A program's finding= names its bug: other findings neither stop --until-bug nor count as the
// first finding; its params= reach the agent before the strategy's.
TEST(Runner, FindingNamesTheBugThatCountsAndProgramParamsReachTheAgent) {
  test::TempDir d;
  std::string s = d.path() + "/s.xml";
  std::ofstream(s) << "<suite name='f' runs='25' repetitions='1'>\n<classpath>" << cp()
                   << "</classpath>\n<strategy name='random'/>\n"
                      "<program name='other' main='LostUpdate' expect='bug' finding='NoSuchText'"
                      " params='accesses=all'/>\n"
                      "<program name='named' main='LostUpdate' expect='bug'"
                      " finding='lost update'/>\n</suite>\n";
  std::string out = d.path() + "/o";
  test::ProcessResult p =
      run_jsched({"bench", s, "--until-bug", "--jobs", "1", "--seed", "5", "--out", out});
  EXPECT_EQ(p.status, 1) << p.err;  // 'other' never meets its expectation
  std::map<std::string, std::vector<json::Value>> by_program;
  for (const json::Value& r : records(out)) by_program[r.str("program")].push_back(r);
  const auto& other = by_program["other"];
  ASSERT_EQ(other.size(), 25u);
  int bugs = 0;
  for (const json::Value& r : other) {
    bugs += r.str("outcome") == "bug";
    EXPECT_NE(r.str("replay").find(",accesses=all "), std::string::npos) << r.dump();
  }
  EXPECT_GE(bugs, 1) << "LostUpdate's bug never showed in 25 runs";
  const auto& named = by_program["named"];
  ASSERT_FALSE(named.empty());
  EXPECT_LT(named.size(), 25u);
  EXPECT_EQ(named.back().str("outcome"), "bug");
  std::string summary = slurp(out + "/summary.csv");
  EXPECT_NE(summary.find("other,random,25,"), std::string::npos) << summary;
  EXPECT_NE(p.out.find("bug (NOT MET)"), std::string::npos) << p.out;
}

// --in-jvm: executions run B to a JVM with consecutive seeds; every one is recorded as in a
// process-per-execution batch, and each finding's replay (a single JVM, its seed alone) finds
// it again. A batch cut in two by --jobs/--in-jvm records the same as one JVM for all.
TEST(Runner, InJvmBatchesRecordEveryExecutionAndTheirFindingsReplay) {
  test::TempDir d;
  auto batch = [&](const std::string& name, const std::string& b) {
    std::string out = d.path() + "/" + name;
    test::ProcessResult p =
        run_jsched({"run", "--strategy", "random", "--runs", "60", "--in-jvm", b, "--jobs", "2",
                    "--seed", "3", "--out", out, "--", "java", "-cp", cp(), "LostUpdate"});
    EXPECT_EQ(p.status, 1) << p.err;
    return out;
  };
  std::string whole = batch("whole", "60"), split = batch("split", "7");
  std::vector<json::Value> recs = records(whole);
  ASSERT_EQ(recs.size(), 60u);
  std::map<uint64_t, uint64_t> seeds;
  for (const json::Value& r : recs) seeds[uint64_t(r.num("index"))] = std::stoull(r.str("seed"));
  for (uint64_t i = 1; i < 60; ++i) EXPECT_EQ(seeds[i], seeds[0] + i);
  EXPECT_EQ(first_difference(canonical(recs), canonical(records(split))), "");
  int replayed = 0;
  for (const json::Value& r : recs) {
    if (r.str("outcome") != "bug" || replayed == 3) continue;
    ++replayed;
    std::string cmd = r.str("replay");
    EXPECT_EQ(cmd.find("iterations"), std::string::npos) << cmd;
    test::ProcessResult again = test::run({"sh", "-c", cmd});
    EXPECT_EQ(again.status, 3) << cmd << "\n" << again.err;
  }
  EXPECT_GT(replayed, 0);
  test::ProcessResult bad =
      run_jsched({"run", "--runs", "5", "--in-jvm", "5", "--strategy", "tsca", "--out",
                  d.path() + "/t", "--", "java", "-cp", cp(), "LostUpdate"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--in-jvm runs random, rapos, pct, hapset"), std::string::npos) << bad.err;
}
