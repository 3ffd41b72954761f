#include "scheduler/strategy_registry.h"

#include <iterator>

#include "scheduler/pct/pct_strategy.h"
#include "scheduler/random/random_strategy.h"
#include "scheduler/random/rapos_strategy.h"
#include "scheduler/sampling/pos_strategy.h"
#include "scheduler/sampling/surw_strategy.h"

namespace jsched::sched {

namespace {

// The strategies wired in the agent: searches, listed after rapos (the papers' order: random and
// RAPOS, PCT, PCTVB, TSCA, HaPSet, then the newer samplers), and the rest, listed last.
const std::vector<std::string_view> kBuiltinSearches = {"pct", "pctvb", "tsca", "hapset"};
const std::vector<std::string_view> kBuiltinOthers = {"replay", "follow", "none"};

// The portfolio's members, one per execution in turn (seed modulo their number): every kind of
// search, so that a user who does not know which to pick gets what each finds.
struct Member {
  std::string_view name;
  uint32_t pct_depth;  // pct's d (0: not pct)
};
constexpr Member kMembers[] = {{"random", 0}, {"pos", 0},  {"pct", 2},
                               {"pct", 3},    {"surw", 0}, {"rapos", 0}};

const Member& member_of(const StrategyArgs& a) {
  return kMembers[a.seed % std::size(kMembers)];
}

uint64_t pct_steps(const StrategyArgs& a) {
  return a.steps ? a.steps : 1000;
}

std::unique_ptr<Strategy> portfolio_member(const StrategyArgs& a) {
  const Member& m = member_of(a);
  if (m.pct_depth) {
    PctOptions p;
    p.depth = m.pct_depth;
    p.steps = pct_steps(a);
    return std::make_unique<PctStrategy>(a.seed, p);
  }
  if (m.name == "random") return std::make_unique<RandomStrategy>(a.seed);
  if (m.name == "pos") return std::make_unique<PosStrategy>(a.seed);
  if (m.name == "surw") return std::make_unique<SurwStrategy>(a.seed, a.thread_events);
  return std::make_unique<RaposStrategy>(a.seed);
}

std::string portfolio_member_options(const StrategyArgs& a) {
  const Member& m = member_of(a);
  std::string opts = "strategy=" + std::string(m.name);
  if (m.pct_depth)
    opts += ",depth=" + std::to_string(m.pct_depth) + ",steps=" + std::to_string(pct_steps(a));
  return opts;
}

}  // namespace

const std::vector<StrategyEntry>& registered_strategies() {
  static const std::vector<StrategyEntry> kEntries = {
      {"random",
       "CalFuzzer-style random runs: at each scheduling point an enabled thread uniformly at "
       "random",
       true,
       false,
       false,
       {},
       [](const StrategyArgs& a) -> std::unique_ptr<Strategy> {
         return std::make_unique<RandomStrategy>(a.seed);
       }},
      {"rapos",
       "random partial-order sampling (Sen): independent enabled events in one round, the rest "
       "delayed; field accesses are points by default",
       true,
       true,
       false,
       {{"wake", "0.1", 0, 1,
         "the probability that a delayed transition becomes schedulable again in a round (0 is "
         "Sen's algorithm)"}},
       [](const StrategyArgs& a) -> std::unique_ptr<Strategy> {
         auto wake = a.options.find("wake");  // filled in by the option parser
         return std::make_unique<RaposStrategy>(
             a.seed, wake == a.options.end() ? RaposStrategy::kDefaultWake : wake->second);
       }},
      {"pos",
       "partial order sampling (Yuan et al.): random priorities per event, redrawn for the events "
       "that race with the one that ran",
       true,
       false,
       false,
       {},
       [](const StrategyArgs& a) -> std::unique_ptr<Strategy> {
         return std::make_unique<PosStrategy>(a.seed);
       }},
      {"surw",
       "selectively uniform random walk (Zhao et al.): a thread with probability proportional to "
       "the events it has left (from profile runs)",
       true,
       false,
       true,
       {},
       [](const StrategyArgs& a) -> std::unique_ptr<Strategy> {
         return std::make_unique<SurwStrategy>(a.seed, a.thread_events);
       }},
      {"portfolio",
       "successive executions cycle through random, pos, pct d=2, pct d=3, surw and rapos; reports "
       "and replay commands name the one that ran",
       true,
       false,
       true,
       {},
       portfolio_member,
       portfolio_member_options},
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
  std::vector<std::string_view> out;
  for (const StrategyEntry& e : registered_strategies()) {
    out.push_back(e.name);
    if (e.name == "rapos") out.insert(out.end(), kBuiltinSearches.begin(), kBuiltinSearches.end());
  }
  out.insert(out.end(), kBuiltinOthers.begin(), kBuiltinOthers.end());
  return out;
}

std::string strategy_name_list() {
  std::string out;
  for (std::string_view n : all_strategy_names()) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace jsched::sched
