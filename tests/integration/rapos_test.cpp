// RAPOS on the real JVM: the Figure 1 program of Sen's RAPOS paper (docs/references.md), and bugs
// inside java.util reached by instrumenting the JDK's collections.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "protocol/json.h"
#include "scheduler/random/rapos_strategy.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/binomial.h"
#include "tests/support/figure1.h"
#include "tests/support/test_paths.h"

using namespace jsched;

namespace {

std::string cp() {
  return test::data_dir() + "/agent";
}

int assertion_hits(const std::string& strategy, int seeds) {
  return test::bugs_in_one_jvm("strategy=" + strategy + ",accesses=volatile", seeds, cp(),
                               "Figure1");
}

}  // namespace

// The model's probabilities are 1/16 (random), 1/4 (the paper's
// RAPOS, wake=0) and about 0.20 (RAPOS's default wake, scheduler_model_test): each count must be
// consistent with its model, and RAPOS must hit at least twice as often as random.
TEST(RaposJvm, Figure1AssertionAtLeastTwiceAsOftenAsRandomOver200Seeds) {
  const int n = 200;
  const double q = sched::RaposStrategy::kDefaultWake;
  int random = assertion_hits("random", n);
  int paper = assertion_hits("rapos,wake=0", n);
  int rapos = assertion_hits("rapos", n);
  auto consistent = [&](int hits, double p, const char* what) {
    test::Interval ci = test::wilson(uint64_t(hits), n);
    EXPECT_LE(ci.lo, p) << what << ": " << hits << " of " << n;
    EXPECT_GE(ci.hi, p) << what << ": " << hits << " of " << n;
  };
  consistent(random, 1.0 / 16, "random");
  consistent(paper, test::figure1_rapos_hit_probability(0), "rapos wake=0");
  consistent(rapos, test::figure1_rapos_hit_probability(q), "rapos");
  EXPECT_GE(rapos, 2 * random) << "rapos " << rapos << ", random " << random << " of " << n;
  EXPECT_GE(paper, 2 * random) << "rapos wake=0 " << paper << ", random " << random;
}

// In JDK mode the hooks live in java.lang.Thread; a report's stacks start at the user's frame,
// not at a hook. (Seed 4 deadlocks the synchronized-list driver: addAll and removeAll take the
// two wrappers' locks in opposite orders; a seed's schedule changes with what the agent names
// and hooks, so this one is picked by a search over seeds 1-60.) The same seed repeats its
// deadlock, but not always on a loaded machine: a driver thread can block on a monitor held outside
// jsched's view (JVM threads share JDK classes), and the watchdog then lets another thread run. So:
// most runs.
// (JDK 21+: seed 52, picked the same way: there the agent also sets the virtual-thread
// scheduler's properties at VM init, through instrumented java.util code.)
TEST(JdkMode, ReportsShowNoHookFramesAndTheSameSeedRepeats) {
  const std::string seed = test::jdk_feature() >= 21 ? "52" : "4";
  int deadlocks = 0;
  for (int i = 0; i < 3; ++i) {
    test::ProcessResult r = test::run_agent("strategy=random,seed=" + seed + ",include=java.util.",
                                            JSCHED_SAMPLES_CLASSES,
                                            "jsched.samples.collections.Main", {}, {"arraylist"});
    ASSERT_TRUE(r.status == 4 || r.status == 0) << r.err;
    if (r.status != 4) continue;
    ++deadlocks;
    EXPECT_NE(r.err.find("at java.util.Collections$SynchronizedCollection."), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("java.lang.Thread.monitorEnter"), std::string::npos) << r.err;
  }
  EXPECT_GE(deadlocks, 2);
}

// With java.util instrumented, Set.of and Map.of iterate in an order drawn from the clock when
// ImmutableCollections initializes; the agent fixes that seed. And a controlled thread loading
// a class can reach a scheduling point while it holds the class loader's lock: the loaders'
// monitors are modelled, so a second thread loading the same class waits in the model, not in
// the JVM where only real time would decide (a hidden block). So every seed gives the same
// execution in (almost) every JVM, with no hidden block; different seeds still give different
// ones. Not in every JVM: identity hashes of JDK objects other than classes (arrays' classes,
// modules, loaders) still come from generators the JVM seeds by how many threads it has made,
// and JDK tables keyed by them take other bucket monitors now and then (about 1 run in 13 of
// seed 1's vector driver under no load, 2026-11-24). So: one execution in at least 3 of 5 JVMs
// (at that rate a case fails with probability about 10 * 0.08^3 = 0.5%; 5 of 5 would fail 34%
// of the time) -- measured, not a bound: docs/agent.md says what is left.
TEST(JdkMode, TheSameSeedGivesTheSameExecutionInEveryJvm) {
  test::TempDir d;
  std::set<std::string> across_seeds;
  struct Case {
    std::string options, driver;
  };
  std::vector<Case> cases = {
      {"strategy=pct,depth=3,steps=400,seed=11,accesses=all,"
       "exclude=java.util.concurrent.",
       "vector"}};
  for (int seed = 1; seed <= 4; ++seed) {
    for (const char* driver : {"vector", "hashset"})
      cases.push_back({"strategy=random,seed=" + std::to_string(seed), driver});
  }
  for (const Case& c : cases) {
    std::map<std::string, int> executions;
    for (int i = 0; i < 5; ++i) {
      std::string report = d.path() + "/r.json";
      test::ProcessResult r = test::run_agent(c.options + ",include=java.util.,report=" + report,
                                              JSCHED_SAMPLES_CLASSES,
                                              "jsched.samples.collections.Main", {}, {c.driver});
      ASSERT_TRUE(r.status == 0 || r.status == 3 || r.status == 4) << r.err;
      json::Value v = json::parse(test::slurp(report));
      EXPECT_EQ(v["hidden_blocks"].items().size(), 0u) << c.options << ": " << v.dump();
      ++executions[v.str("fingerprint") + " " + std::to_string(v.num("scheduling_points"))];
    }
    auto modal = std::max_element(executions.begin(), executions.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
    EXPECT_GE(modal->second, 3) << c.options << " " << c.driver << ": " << executions.size()
                                << " different executions in 5 JVMs";
    across_seeds.insert(c.driver + " " + modal->first);
  }
  EXPECT_GE(across_seeds.size(), 8u) << "different seeds gave the same executions";
}
