// The strategies that plug in by a table row: each has a name, what the agent and the runner
// must know of it (several executions in one JVM, a profile phase first, field accesses as
// points by default), its options with their defaults and checks, and a factory. The agent's
// option parser, the scheduler's factory and the runner read this table; a new strategy is a
// strategy file and one entry in strategy_registry.cpp.
//
// The strategies that need more of the agent than a Strategy object (pct, pctvb, tsca, hapset,
// replay, follow, none: plans, trackers, learners, schedule files) are wired in the agent itself
// and are listed here by name only (all_strategy_names names every strategy).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/core/strategy.h"

namespace jsched::sched {

struct StrategyOption {
  std::string_view key;
  std::string_view default_value;
  double min = 0, max = 1;  // the value's range (a number)
  std::string_view doc;
};

// What a factory gets: the execution's seed, the option values (every key of the entry's
// options, defaults filled in), and what profile runs counted (0: unknown).
struct StrategyArgs {
  uint64_t seed = 0;
  std::map<std::string, double> options;
  uint64_t steps = 0;                   // scheduling points of one execution (a plan's `steps`)
  std::vector<uint64_t> thread_events;  // events of each thread (a plan's `thread-events`)
};

struct StrategyEntry {
  std::string_view name;
  std::string_view summary;
  bool several_per_jvm = true;  // iterations=N and --in-jvm
  bool all_accesses = false;    // accesses=all by default (else volatile)
  bool profile = false;  // the runner makes a plan first (profile runs) unless plan= is given
  std::vector<StrategyOption> options;
  std::unique_ptr<Strategy> (*make)(const StrategyArgs&);
  // A strategy that delegates each execution to another (portfolio): the agent options of the
  // strategy that ran, for reports and replay commands ("strategy=pct,depth=2,steps=40"); null
  // for the others.
  std::string (*member)(const StrategyArgs&) = nullptr;
};

// The registered strategies, in the order --help lists them.
const std::vector<StrategyEntry>& registered_strategies();
// nullptr if `name` is not registered.
const StrategyEntry* find_strategy(std::string_view name);
// Every strategy name the agent accepts, in the order --help and messages list them.
std::vector<std::string_view> all_strategy_names();
// "random, rapos, ..." for messages.
std::string strategy_name_list();

}  // namespace jsched::sched
