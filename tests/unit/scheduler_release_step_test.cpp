// The step after a release touches nothing the model sees, but the code behind it may touch
// what it cannot (an uninstrumented java.util collection): no strategy may always run it before
// the other threads' next steps, or a bug that needs another thread in between (a list appended
// to while another thread iterates over it) could never be found.
#include <gtest/gtest.h>

#include <string>

#include "scheduler/core/abstract_program.h"
#include "scheduler/strategy_registry.h"
#include "tests/unit/release_step_support.h"

using namespace jsched::sched;
using jsched::sched::test::Recording;
using jsched::sched::test::release_then_write;

namespace {

// Whether thread 2 ran a step between thread 1's lock step (the unlock follows on arrival) and
// thread 1's step after the release.
bool other_thread_in_between(const std::vector<Candidate>& steps) {
  bool locked = false, between = false;
  for (const Candidate& c : steps) {
    if (c.thread == 1 && c.op.kind == OpKind::Continue) return locked && between;
    if (c.thread == 1 && c.op.kind == OpKind::Enter) locked = true;
    if (locked && c.thread == 2) between = true;
  }
  return false;
}

}  // namespace

TEST(ReleaseStep, NoStrategyAlwaysRunsItBeforeTheOtherThreads) {
  const int n = 2000;
  for (const StrategyEntry& e : registered_strategies()) {
    if (!e.controls || e.name == "replay" || e.name == "follow") continue;      // no choices
    if (e.name == "tsca" || e.name == "hapset" || e.name == "pctvb") continue;  // need the agent
    // rapos still runs them at once: its rounds delay a transition until it depends on what ran,
    // and taking these steps into rounds (alone, or with the thread's next transition) let that
    // transition escape the delay (Sen's Figure 1 on the JVM: 0 hits in 200) or cost a round
    // per release (philosophers: 9 executions to 225). Known gap (docs/strategies.md, rapos).
    if (e.name == "rapos") continue;
    int between = 0;
    for (int seed = 1; seed <= n; ++seed) {
      StrategyArgs a;
      a.seed = uint64_t(seed);
      for (const StrategyOption& o : e.options) a.options[std::string(o.key)] = 0;
      a.options["depth"] = 3;
      a.options["wake"] = 0.1;
      a.steps = 8;
      Recording r(e.make(a));
      run_abstract(release_then_write(), r);
      between += other_thread_in_between(r.steps);
    }
    // Each of these strategies puts thread 2 in between in a good share of runs (a fifth to a
    // half); one in a hundred is far below that and far above the 0 of running it at once.
    EXPECT_GT(between, n / 100) << e.name;
  }
}
