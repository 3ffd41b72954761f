#include "scheduler/strategy_registry.h"

#include "scheduler/pos_strategy.h"

namespace jsched::sched {

namespace {

const std::vector<std::string_view> kBuiltin = {"random", "rapos", "pct",    "pctvb",
                                                "tsca",   "hapset", "replay", "none"};

}  // namespace

const std::vector<StrategyEntry>& registered_strategies() {
  static const std::vector<StrategyEntry> kEntries = {
      {"pos", "partial order sampling (Yuan et al.): random priorities per event, redrawn for the events that race with the one that ran",
       true, false, {},
       [](const StrategyArgs& a) -> std::unique_ptr<Strategy> {
         return std::make_unique<PosStrategy>(a.seed);
       }},
  };
  return kEntries;
}

const StrategyEntry* find_strategy(std::string_view name) {
  for (const StrategyEntry& e : registered_strategies()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<std::string_view> all_strategy_names() {
  std::vector<std::string_view> out = kBuiltin;
  for (const StrategyEntry& e : registered_strategies()) out.push_back(e.name);
  return out;
}

std::string strategy_name_list() {
  std::string out;
  for (std::string_view n : all_strategy_names()) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace jsched::sched
