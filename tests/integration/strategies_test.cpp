// The registered strategies (pos, surw, portfolio) on the real JVM, through the runner.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// The replay command's agent option, run against the same program.
test::ProcessResult replay(const std::string& command) {
  std::vector<std::string> argv;
  size_t start = 0;
  while (start < command.size()) {
    size_t end = command.find(' ', start);
    if (end == std::string::npos) end = command.size();
    argv.push_back(command.substr(start, end - start));
    start = end + 1;
  }
  return test::run(argv);
}

}  // namespace

TEST(Strategies, PosSurwAndPortfolioFindTheLostUpdateAndTheirFindingsReplay) {
  for (const char* strategy : {"pos", "surw", "portfolio"}) {
    test::TempDir d;
    std::string out = d.path() + "/r";
    test::ProcessResult p =
        test::run_jsched({"run", "--strategy", strategy, "--runs", "60", "--in-jvm", "30", "--jobs",
                          "2", "--seed", "4", "--out", out, "--", "java", "-cp",
                          JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main"});
    ASSERT_EQ(p.status, 1) << strategy << ": " << p.err << p.out;
    int replayed = 0;
    std::set<std::string> members;
    for (const json::Value& r : test::records(out)) {
      if (r.str("strategy") != strategy || r.str("outcome") != "bug") continue;
      std::string cmd = r.str("replay");
      if (std::string(strategy) == "portfolio") {
        EXPECT_FALSE(has(cmd, "strategy=portfolio")) << "the member replays: " << cmd;
        // surw weighs threads by the plan's counts: its replay must name the plan.
        if (has(cmd, "strategy=surw,")) {
          EXPECT_TRUE(has(cmd, "plan=")) << cmd;
        }
        // One finding of each member replays (the first ones alone could all be one member's).
        const size_t at = cmd.find("strategy=");
        if (!members.insert(cmd.substr(at, cmd.find(',', at) - at)).second) continue;
      } else if (replayed >= 3) {
        continue;
      }
      test::ProcessResult again = replay(cmd);
      EXPECT_EQ(again.status, 3) << cmd << "\n" << again.err;
      ++replayed;
    }
    EXPECT_GT(replayed, 0) << strategy;
    if (std::string(strategy) != "pos") {
      // The runner profiled first: the plan counts each thread's steps for surw.
      bool counts = false;
      for (const auto& e : fs::directory_iterator(out + "/profile"))
        counts = counts || has(test::slurp(e.path().string()), "thread-events ");
      EXPECT_TRUE(counts) << strategy;
    }
  }
}

TEST(Strategies, RegisteredStrategiesAreCheckedLikeTheOthers) {
  test::ProcessResult bad =
      test::run_agent("strategy=posx", JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "pos, surw, portfolio")) << "the list names them: " << bad.err;
  // Another strategy's option would be ignored, and the user misled: refused, naming its owners.
  test::ProcessResult foreign = test::run_agent("strategy=pos,depth=2", JSCHED_SAMPLES_CLASSES,
                                                "jsched.samples.account.Fixed");
  EXPECT_EQ(foreign.status, 2) << foreign.err;
  EXPECT_TRUE(has(foreign.err, "option 'depth' is not strategy pos's (it is pct, pctvb's)"))
      << foreign.err;
  test::ProcessResult base = test::run_agent("strategy=random,base=rapos", JSCHED_SAMPLES_CLASSES,
                                             "jsched.samples.account.Fixed");
  EXPECT_EQ(base.status, 2) << base.err;
}
