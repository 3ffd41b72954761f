// TSCA on the real JVM: the blocks the agent records, plans it rejects, and the
// runner's covering loop on the Fig. 39 benchmark of Çalpur's TSCA thesis (docs/references.md).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/support/process.h"

using namespace jsched;

namespace {

json::Value read_json(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return json::parse(s.str());
}

// Executions `jsched run --strategy tsca` needed for full coverage (0: not reached).
int executions_to_full(const std::string& out, uint32_t m, uint32_t t, uint64_t seed) {
  test::ProcessResult r = test::run({JSCHED_BIN,
                                     "run",
                                     "--strategy",
                                     "tsca",
                                     "--t",
                                     std::to_string(t),
                                     "--runs",
                                     "200",
                                     "--seed",
                                     std::to_string(seed),
                                     "--jobs",
                                     "2",
                                     "--out",
                                     out,
                                     "--",
                                     test::java_bin(),
                                     "-cp",
                                     JSCHED_SAMPLES_CLASSES,
                                     "jsched.samples.tscabench.Main",
                                     std::to_string(m)});
  EXPECT_EQ(r.status, 0) << r.err;
  std::smatch mt;
  if (!std::regex_search(r.err, mt, std::regex("full coverage after ([0-9]+) executions")))
    return 0;
  return std::stoi(mt[1]);
}

}  // namespace

TEST(TscaJvm, ReportsFiveBlocksPerWorkerAndStartAndJoinOrders) {
  test::TempDir d;
  test::ProcessResult r =
      test::run_agent("strategy=tsca,seed=3,report=" + d.path() + "/r.json", JSCHED_SAMPLES_CLASSES,
                      "jsched.samples.tscabench.Main", {}, {"4"});
  ASSERT_EQ(r.status, 0) << r.err;
  json::Value t = read_json(d.path() + "/r.json")["tsca"];
  std::map<double, int> per_thread;
  for (const auto& b : t["blocks"].items()) ++per_thread[b.items()[0].as_number()];
  ASSERT_EQ(per_thread.size(), 5u);
  EXPECT_EQ(per_thread[0], 5);  // main: until the first join, between joins, after the last
  for (int w = 1; w <= 4; ++w) EXPECT_EQ(per_thread[w], 5) << w;
  EXPECT_EQ(t["edges"].items().size(), 8u);  // four starts, four joins
  // Without a plan everything this run covered is new; it knows more sequences than it ran
  // (both orders of blocks of different threads, where nothing orders them).
  EXPECT_GT(t.num("covered"), 0);
  EXPECT_EQ(t.num("new"), t.num("covered"));
  EXPECT_EQ(t.num("cumulative"), t.num("covered"));
  EXPECT_LT(t.num("covered"), t.num("known"));
}

TEST(TscaJvm, RejectsABadPlanBeforeMain) {
  test::TempDir d;
  std::ofstream(d.path() + "/p.txt") << "jsched-tsca-plan 1\nblock 1 a b\norder 0 3\nend\n";
  test::ProcessResult r = test::run_agent("strategy=tsca,plan=" + d.path() + "/p.txt",
                                          JSCHED_SAMPLES_CLASSES, "jsched.samples.tscabench.Main");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("jsched: error: plan: " + d.path() + "/p.txt:3: bad block id"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("tscabench"), std::string::npos);  // main never ran
}

// m = 5: the thesis needed 70 executions; the goal is 40.
TEST(TscaJvm, Figure39FullThreeWayCoverageWithinFortyExecutions) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    test::TempDir d;
    int n = executions_to_full(d.path() + "/r", 5, 3, seed);
    EXPECT_GT(n, 0) << "seed " << seed;
    EXPECT_LE(n, 40) << "seed " << seed;
    // Every record carries the cumulative coverage for the report's curve, ending at 100%.
    std::ifstream runs(d.path() + "/r/runs.jsonl");
    std::string line, last;
    int lines = 0;
    while (std::getline(runs, line)) {
      last = line;
      ++lines;
    }
    EXPECT_EQ(lines, n);
    EXPECT_EQ(json::parse(last)["extra"].num("coverage"), 100.0);
    std::ifstream html(d.path() + "/r/report.html");
    std::stringstream h;
    h << html.rdbuf();
    EXPECT_NE(h.str().find("coverage (%)"), std::string::npos);
  }
}

TEST(TscaJvm, TwoWayCoverageInAFewExecutions) {
  test::TempDir d;
  int n = executions_to_full(d.path() + "/r", 10, 2, 1);
  EXPECT_GT(n, 0);
  EXPECT_LE(n, 6);  // 2 exploration runs and the covering schedules (thesis: 3 tests)
}
