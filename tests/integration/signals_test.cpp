// Ctrl-C and SIGTERM end jsched within 2 s whatever it is doing (profile runs, executions,
// minimizing, a search of millions of pre-emptions), with its JVMs, and leave records that
// --resume continues. Each phase is reached with LongRace, whose length is its argument.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string cp() {
  return test::data_dir() + "/agent";
}

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// JVMs other than `self` whose command line mentions `text` (a batch's results directory is
// in each of its JVMs' report= option): their command lines. (Not jsched's own detached
// removal, which may still carry jsched's command line for a moment before it becomes `rm`.)
std::vector<std::string> processes_naming(const std::string& text, pid_t self) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos || std::stoi(pid) == self)
      continue;
    std::string cmd = test::slurp(e.path().string() + "/cmdline");
    std::replace(cmd.begin(), cmd.end(), '\0', ' ');
    if (has(cmd, text) && has(cmd, "-agentpath:")) found.push_back(pid + ": " + cmd.substr(0, 300));
  }
  return found;
}

struct Interruption {
  int status = -1;
  double seconds = 0;  // from the signal to jsched's end
  std::string err;
};

// Starts jsched with `args`, waits until its stderr shows `phase`, lets it work `after`
// seconds more, sends `sig` and waits for its end.
Interruption interrupt(const std::vector<std::string>& args, const std::string& phase, double after,
                       int sig, const std::string& dir) {
  const std::string err = dir + "/err";
  pid_t pid = test::start_jsched(args, err);
  const auto started = Clock::now();
  while (!has(test::slurp(err), phase) && since(started) < 120)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(has(test::slurp(err), phase)) << test::slurp(err);
  std::this_thread::sleep_for(std::chrono::duration<double>(after));
  Interruption r;
  kill(pid, sig);
  const auto signalled = Clock::now();
  r.status = test::wait_status(pid);
  r.seconds = since(signalled);
  r.err = test::slurp(err);
  return r;
}

}  // namespace

TEST(Signals, EveryPhaseOfABatchEndsWithinTwoSecondsAndResumes) {
  // What the tests before wrote (the minimization's 190 MB schedules run just before, in the
  // same process) goes to disk first: the clock measures jsched's end, not the disk's.
  sync();
  struct Phase {
    const char* name;
    std::vector<std::string> options;
    const char* rounds;
    const char* shows;
    double after;
    int sig;
  } phases[] = {
      // Profile runs of several seconds each.
      {"profile runs", {}, "2000000", "profiling LongRace", 2, SIGTERM},
      // Executions of about a second, two at a time (300,000 rounds took 1.3 s while every
      // execution computed its HaPSet coverage, and under 0.7 s without); twelve of them, since
      // six of 900,000 rounds (0.8 s each once two threads' turns cost no futex calls) could
      // all end before the signal.
      {"executions",
       {"--strategy", "random", "--runs", "12", "--no-minimize"},
       "900000",
       "runs of",
       2.5,
       SIGINT},
      // The minimizer's JVMs, each following a schedule of 200,000 pre-emptions.
      {"minimizing",
       {"--strategy", "random", "--runs", "1"},
       "100000",
       "minimizing finding",
       1.5,
       SIGTERM},
  };
  for (const Phase& p : phases) {
    SCOPED_TRACE(p.name);
    test::TempDir d;
    const std::string out = d.path() + "/r";
    std::vector<std::string> args = {"run", "--jobs", "2", "--seed", "5", "--out", out};
    args.insert(args.end(), p.options.begin(), p.options.end());
    args.insert(args.end(), {"--", "java", "-cp", cp(), "LongRace", p.rounds});
    Interruption r = interrupt(args, p.shows, p.after, p.sig, d.path());
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_LE(r.seconds, 2.0);
    EXPECT_TRUE(has(r.err, "interrupted: ")) << r.err;
    EXPECT_TRUE(has(r.err, "continue with: jsched run --resume " + out)) << r.err;
    EXPECT_EQ(processes_naming(out, getpid()), std::vector<std::string>{})
        << "the batch's JVMs end with it";
    const size_t recorded = test::records(out).size();    // throws on a torn line
    if (std::string(p.name) == "profile runs") continue;  // resuming runs 16 s executions
    test::ProcessResult resumed = test::run_jsched({"run", "--resume", out});
    EXPECT_EQ(resumed.status, 1) << resumed.err << "(the lost update is found)";
    EXPECT_GE(test::records(out).size(), recorded);
    if (std::string(p.name) == "minimizing") {
      EXPECT_TRUE(has(resumed.out, "minimal schedule: ")) << resumed.out;
    }
  }
}

// jsched minimize in its search over 2 million pre-emptions, and jsched bench's executions.
TEST(Signals, MinimizeAndBenchEndWithinTwoSeconds) {
  sync();
  {
    test::TempDir d;
    const std::string out = d.path() + "/m";
    Interruption r = interrupt({"minimize", "--out", out, "--", test::java_bin(),
                                "-agentpath:" + test::agent_path() + "=strategy=random,seed=1",
                                "-cp", cp(), "LongRace", "2100000"},
                               "searching", 3, SIGTERM, d.path());
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_LE(r.seconds, 2.0);
    EXPECT_FALSE(fs::exists(out)) << "an interrupted minimization leaves nothing half-written";
  }
  {
    test::TempDir d;
    const std::string out = d.path() + "/b";
    const std::string suite = d.path() + "/suite.xml";
    std::ofstream(suite) << "<suite name=\"long\" runs=\"4\" timeout=\"60000\">\n<classpath>"
                         << cp()
                         << "</classpath>\n<strategy name=\"random\"/>\n<program name=\"long\" "
                            "main=\"LongRace\" args=\"2000000\" expect=\"bug\"/>\n</suite>\n";
    Interruption r =
        interrupt({"bench", suite, "--jobs", "2", "--out", out}, "runs", 2, SIGINT, d.path());
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_LE(r.seconds, 2.0);
    EXPECT_EQ(processes_naming(out, getpid()), std::vector<std::string>{});
  }
}
