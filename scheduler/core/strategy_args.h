// What a strategy's factory (scheduler/strategy_registry.h) gets for one execution.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/core/strategy_host.h"

namespace jsched::sched {

// The execution's seed, the option values (every key of the entry's options, defaults filled
// in), what profile runs counted (0: unknown), and the host for what the factory needs beyond
// these (null where nothing provides it: unit tests).
struct StrategyArgs {
  uint64_t seed = 0;
  std::map<std::string, double> options;
  uint64_t steps = 0;                   // scheduling points of one execution (a plan's `steps`)
  std::vector<uint64_t> thread_events;  // events of each thread (a plan's `thread-events`)
  // PCTVB's candidate variables (a plan's variables): id and the most accesses of one run.
  std::vector<std::pair<uint64_t, uint64_t>> variables;
  std::string base = "random";  // hapset: the strategy it follows where it has no new pair
  StrategyHost* host = nullptr;

  double option(const std::string& key, double dflt) const {
    auto it = options.find(key);
    return it == options.end() ? dflt : it->second;
  }
};

}  // namespace jsched::sched
