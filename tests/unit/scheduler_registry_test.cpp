// The strategy registry's factories: every strategy that controls a run is made from its row,
// and what a strategy needs of the agent it asks of the host.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scheduler/hapset/hapset.h"
#include "scheduler/pct/pct_strategy.h"
#include "scheduler/replay/schedule_log.h"
#include "scheduler/strategy_registry.h"

using namespace jsched::sched;

namespace {

class FakeHost : public StrategyHost {
 public:
  void note(const std::string& line) override { notes.push_back(line); }
  bool several_executions() const override { return false; }
  void track_variables(PctStrategy& pct) override { tracked = &pct; }
  const std::vector<ThreadId>& tsca_schedule() const override { return schedule; }
  std::string site_name(int32_t site) const override { return "site" + std::to_string(site); }
  const HapsetLearner& hapset() const override { return learner; }
  const ScheduleLog& schedule_log() const override { return log; }

  std::vector<std::string> notes;
  PctStrategy* tracked = nullptr;
  std::vector<ThreadId> schedule;
  HapsetLearner learner;
  ScheduleLog log;
};

StrategyArgs args_for(const StrategyEntry& e, StrategyHost* host) {
  StrategyArgs a;
  a.seed = 7;
  for (const StrategyOption& o : e.options) a.options[std::string(o.key)] = 1;
  a.variables = {{11, 4}};
  a.host = host;
  return a;
}

}  // namespace

TEST(Registry, EveryStrategyThatControlsIsMadeFromItsRow) {
  FakeHost host;
  for (const StrategyEntry& e : registered_strategies()) {
    if (!e.controls) {
      EXPECT_EQ(e.make, nullptr) << e.name;
      continue;
    }
    ASSERT_NE(e.make, nullptr) << e.name;
    EXPECT_NE(e.make(args_for(e, &host)), nullptr) << e.name;
  }
}

TEST(Registry, PctvbHasTheVariablesOfTheStrategyItMadeTracked) {
  FakeHost host;
  const StrategyEntry* e = find_strategy("pctvb");
  ASSERT_NE(e, nullptr);
  std::unique_ptr<Strategy> made = e->make(args_for(*e, &host));
  EXPECT_EQ(static_cast<Strategy*>(host.tracked), made.get());
  // No candidate variable: a plan pctvb cannot use.
  StrategyArgs none = args_for(*e, &host);
  none.variables.clear();
  EXPECT_THROW(e->make(none), std::invalid_argument);
}

TEST(Registry, StrategiesThatNeedTheAgentRefuseToBeMadeWithoutIt) {
  for (std::string_view name : {"pctvb", "tsca", "hapset", "replay", "follow"}) {
    const StrategyEntry* e = find_strategy(name);
    ASSERT_NE(e, nullptr) << name;
    try {
      e->make(args_for(*e, nullptr));
      ADD_FAILURE() << name << " was made without a host";
    } catch (const std::invalid_argument& x) {
      EXPECT_NE(std::string(x.what()).find(std::string(name)), std::string::npos) << x.what();
    }
  }
  // The others need nothing of it.
  for (std::string_view name : {"random", "rapos", "pct", "pos", "surw", "portfolio"}) {
    const StrategyEntry* e = find_strategy(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_NE(e->make(args_for(*e, nullptr)), nullptr) << name;
  }
}
