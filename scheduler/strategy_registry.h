// Every strategy as a table row: its name, what the agent and the runner must know of it
// (several executions in one JVM, a profile phase first, learning across JVMs, field accesses as
// points by default), its options with their defaults and checks, and a factory. The agent's
// option parser, the scheduler's factory and the runner read this table; a new strategy is a
// strategy file and one entry in strategy_registry.cpp. What a strategy needs of the agent
// beyond its seed, options and plan counts (variable tracking, TSCA's planner, HaPSet's learner,
// a schedule file) its factory asks of StrategyHost (scheduler/core/strategy_host.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/core/strategy.h"
#include "scheduler/core/strategy_args.h"

namespace jsched::sched {

struct StrategyOption {
  std::string_view key;
  std::string_view default_value;
  double min = 0, max = 1;  // the value's range (a number)
  std::string_view doc;
  bool whole = false;  // a whole number (depth=2, not 2.5)
};

struct StrategyEntry {
  std::string_view name;
  std::string_view summary;
  bool several_per_jvm = true;   // iterations=N and --in-jvm
  bool all_accesses = false;     // accesses=all by default (else volatile)
  bool shared_accesses = false;  // accesses=shared by default (its profile runs find them)
  bool profile = false;  // the runner makes a plan first (profile runs) unless plan= is given
  // With `profile`: an option that stands in for the plan (pct's steps=), and whether the
  // strategy runs without a plan, on its defaults (then a profile phase that fails only warns).
  std::string_view plan_option = {};
  bool plan_optional = false;
  // It reads the plan's access count of each variable (pctvb's k_q): a profile run whose counts
  // went up teaches it something. The others read steps, threads and which variables are shared.
  bool variable_counts = false;
  // Each JVM learns from the executions before it (hapset's pairs): the runner runs them in
  // order and hands each JVM what the earlier ones learned.
  bool learns = false;
  bool controls = true;   // false: the program runs as it would without jsched (none)
  bool in_suites = true;  // a suite or the runner's --strategy may name it (not replay)
  std::vector<StrategyOption> options = {};
  // Null only for none, which controls nothing. May throw std::invalid_argument (a plan the
  // strategy cannot use).
  std::unique_ptr<Strategy> (*make)(const StrategyArgs&) = nullptr;
  // A strategy that delegates each execution to another (portfolio): the agent options of the
  // strategy that ran, for reports and replay commands ("strategy=pct,depth=2,steps=40"); null
  // for the others.
  std::string (*member)(const StrategyArgs&) = nullptr;
};

// The runner's strategy when none is named (jsched run, a suite without <strategy>): the one
// that found every bug of the strategies table (docs/strategies.md). The agent's own default,
// with no plan to lean on, is random.
inline constexpr std::string_view kRunnerDefault = "portfolio";

// Every strategy, in the order --help lists them.
const std::vector<StrategyEntry>& registered_strategies();
// nullptr if there is no strategy `name`.
const StrategyEntry* find_strategy(std::string_view name);
// Every strategy name the agent accepts, in the order --help and messages list them.
std::vector<std::string_view> all_strategy_names();
// "random, rapos, ..." for messages.
std::string strategy_name_list();
// Whether strategy `name` runs several executions in one JVM (iterations, test methods,
// --in-jvm): each execution then reproduces from its seed alone, with the same instrumentation.
bool runs_several_per_jvm(std::string_view name);
// Those strategies' names, "random, rapos, ..." (messages).
std::string several_per_jvm_names();

}  // namespace jsched::sched
