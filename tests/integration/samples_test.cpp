// Every program of samples/suite.xml under the real agent: the same output as a plain JVM with
// strategy=none, its bug found by the random strategy (and replayed from a recorded schedule),
// or — for correct variants — no report.
#include <gtest/gtest.h>

#include <fstream>

#include "runner/batch/suite.h"
#include "tests/integration/agent_runner.h"
#include "tests/support/test_paths.h"

using namespace jsched;

namespace jsched::runner {
// Test names and ctest listings show the program's name, not the struct's bytes.
void PrintTo(const SuiteProgram& p, std::ostream* os) {
  *os << p.name;
}
}  // namespace jsched::runner

namespace {

std::vector<runner::SuiteProgram> programs() {
  return runner::Suite::load(JSCHED_SAMPLES_SUITE).programs;
}

std::string name_of(const ::testing::TestParamInfo<runner::SuiteProgram>& i) {
  std::string n = i.param.name;
  for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

bool matches(int status, const std::string& expect) {
  if (expect == "bug") return status == 3;
  if (expect == "deadlock") return status == 4;
  return status == 3 || status == 4 || status == 5;
}

}  // namespace

class Sample : public ::testing::TestWithParam<runner::SuiteProgram> {};

// strategy=none leaves the threads to the JVM, so a buggy program's race can really happen,
// with or without the agent (once in many runs; seen in CI on account, and deadlockjoin really
// deadlocked and hung the test). Such a run is the program's own failure (an uncaught
// throwable, exit 1, or a hang, stopped by timeout(1) with 124), not a difference jsched makes:
// a buggy program gets up to five tries, a correct one none.
namespace {
test::ProcessResult uncontrolled(const runner::SuiteProgram& p, bool agent) {
  const bool buggy = p.expect != "none";
  test::ProcessResult r;
  for (int attempt = 0; attempt < (buggy ? 5 : 1); ++attempt) {
    std::vector<std::string> argv = {test::java_bin()};
    if (agent) argv.push_back("-agentpath:" + test::agent_path() + "=strategy=none");
    argv.insert(argv.end(), {"-cp", p.classpath, p.main});
    if (buggy) argv.insert(argv.begin(), {"timeout", "-k", "5", "60"});
    r = test::run(argv);
    bool threw = r.status == 1 && r.err.find("Exception in thread") != std::string::npos;
    if (!threw && !(buggy && r.status == 124)) break;
  }
  return r;
}
}  // namespace

TEST_P(Sample, PrintsTheSameWithStrategyNoneAsWithoutTheAgent) {
  const runner::SuiteProgram& p = GetParam();
  test::ProcessResult plain = uncontrolled(p, false);
  test::ProcessResult none = uncontrolled(p, true);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(none.out, plain.out);
  EXPECT_FALSE(plain.out.empty());
}

TEST_P(Sample, RandomFindsTheBugAndTheRecordedScheduleReplaysIt) {
  const runner::SuiteProgram& p = GetParam();
  test::TempDir d;
  const std::string params = p.params.empty() ? "" : p.params + ",";
  if (p.expect == "none") {
    // 30 executions in one JVM, each the single run of its seed (iteration i is seed i + 1).
    test::ProcessResult r = test::run_agent(params + "seed=1,iterations=30", p.classpath, p.main);
    ASSERT_EQ(r.status, 0) << p.name << ": " << r.err;
    EXPECT_NE(r.err.find("seeds 1..30: no finding"), std::string::npos) << p.name << ": " << r.err;
    return;
  }
  // The first of 300 seeds whose execution finds the expected kind, searched in one JVM; that
  // seed alone, recorded, then its record replayed. The README's rates make a miss in 300 seeds
  // unlikely below 1e-7, but for a bug the default finds rarely: wronglock's under random with
  // every access a point, about 1 in 700 executions (2 and 3 of 2,000 with two agents), where
  // 20,000 seeds make a miss unlikely below 1e-10.
  const std::string kind = p.expect == "bug" ? "BUG" : p.expect == "deadlock" ? "DEADLOCK" : "";
  int seed = test::first_seed_with(p.params, 300, kind, p.classpath, p.main);
  if (seed < 0) seed = test::first_seed_with(p.params, 20000, kind, p.classpath, p.main);
  ASSERT_GT(seed, 0) << p.name << ": no " << p.expect << " in 300 seeds";
  std::string sched = d.path() + "/s";
  test::ProcessResult r = test::run_agent(
      params + "seed=" + std::to_string(seed) + ",record=" + sched, p.classpath, p.main);
  ASSERT_TRUE(matches(r.status, p.expect))
      << p.name << " seed " << seed << ": status " << r.status << "\n"
      << r.err;
  for (int k = 0; k < 3; ++k) {
    test::ProcessResult again = test::run_agent("replay=" + sched, p.classpath, p.main);
    EXPECT_EQ(again.status, r.status) << again.err << "\nthe recorded run:\n" << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, Sample, ::testing::ValuesIn(programs()), name_of);
