#include "scheduler/strategy_registry.h"

#include <iterator>
#include <stdexcept>
#include <utility>

#include "scheduler/hapset/hapset_strategy.h"
#include "scheduler/pct/pct_strategy.h"
#include "scheduler/random/random_strategy.h"
#include "scheduler/random/rapos_strategy.h"
#include "scheduler/replay/follow_strategy.h"
#include "scheduler/replay/schedule_log.h"
#include "scheduler/sampling/pos_strategy.h"
#include "scheduler/sampling/surw_strategy.h"
#include "scheduler/tsca/tsca_strategy.h"

namespace jsched::sched {

namespace {

std::unique_ptr<Strategy> make_random(const StrategyArgs& a) {
  return std::make_unique<RandomStrategy>(a.seed);
}

std::unique_ptr<Strategy> make_rapos(const StrategyArgs& a) {
  return std::make_unique<RaposStrategy>(a.seed, a.option("wake", RaposStrategy::kDefaultWake));
}

std::unique_ptr<Strategy> make_pos(const StrategyArgs& a) {
  return std::make_unique<PosStrategy>(a.seed);
}

std::unique_ptr<Strategy> make_surw(const StrategyArgs& a) {
  return std::make_unique<SurwStrategy>(a.seed, a.thread_events);
}

// The strategies below need the agent (StrategyHost): a unit test that makes them gives one.
StrategyHost& host_of(const StrategyArgs& a, std::string_view name) {
  if (!a.host) throw std::invalid_argument("strategy " + std::string(name) + " needs the agent");
  return *a.host;
}

std::unique_ptr<Strategy> make_pct(const StrategyArgs& a) {
  PctOptions p = pct_options(a, false);
  if (p.steps == 0) {
    static bool noted = false;  // once per JVM, however many executions
    if (a.host && !std::exchange(noted, true)) {
      a.host->note(a.host->several_executions()
                       ? "pct without steps= or plan=: 1000 steps for the first execution, then "
                         "the most steps one took"
                       : "warning: pct without steps= or plan=: assuming 1000 steps per execution");
    }
    p.steps = 1000;
  }
  return std::make_unique<PctStrategy>(a.seed, p);
}

std::unique_ptr<Strategy> make_pctvb(const StrategyArgs& a) {
  auto pct = std::make_unique<PctStrategy>(a.seed, pct_options(a, true));
  host_of(a, "pctvb").track_variables(*pct);
  return pct;
}

std::unique_ptr<Strategy> make_tsca(const StrategyArgs& a) {
  StrategyHost& host = host_of(a, "tsca");
  return std::make_unique<TscaStrategy>(a.seed, host.tsca_schedule(),
                                        [&host](int32_t site) { return host.site_name(site); });
}

std::unique_ptr<Strategy> make_hapset(const StrategyArgs& a) {
  const StrategyEntry* base = find_strategy(a.base);
  if (!base || !base->make) throw std::invalid_argument("hapset: no base strategy " + a.base);
  return std::make_unique<HapsetStrategy>(a.seed, base->make(a), host_of(a, "hapset").hapset(),
                                          a.option("prefer", 0.8));
}

std::unique_ptr<Strategy> make_replay(const StrategyArgs& a) {
  return std::make_unique<ReplayStrategy>(host_of(a, "replay").schedule_log());
}

std::unique_ptr<Strategy> make_follow(const StrategyArgs& a) {
  return std::make_unique<FollowStrategy>(host_of(a, "follow").schedule_log());
}

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
  if (m.name == "random") return make_random(a);
  if (m.name == "pos") return make_pos(a);
  if (m.name == "surw") return make_surw(a);
  return std::make_unique<RaposStrategy>(a.seed);  // at its default wake
}

std::string portfolio_member_options(const StrategyArgs& a) {
  const Member& m = member_of(a);
  std::string opts = "strategy=" + std::string(m.name);
  if (m.pct_depth)
    opts += ",depth=" + std::to_string(m.pct_depth) + ",steps=" + std::to_string(pct_steps(a));
  return opts;
}

// pct's and pctvb's options.
const StrategyOption kDepth = {"depth", "3", 1, 1000, "d: d-1 priority change points", true};
const StrategyOption kSteps = {"steps",
                               "0",
                               1,
                               9007199254740992.0,
                               "k, the steps change points are drawn from (default: the plan's)",
                               true};
const StrategyOption kBounded = {
    "bounded", "0", 0, 1, "1: thread-bounded priorities (Bindal et al. section 4)", true};

}  // namespace

// In the papers' order (random and RAPOS, PCT, PCTVB, TSCA, HaPSet, then the newer samplers),
// then the strategies that follow a file or nothing.
const std::vector<StrategyEntry>& registered_strategies() {
  static const std::vector<StrategyEntry> kEntries = {
      {.name = "random",
       .summary = "CalFuzzer-style random runs: at each scheduling point an enabled thread "
                  "uniformly at random",
       .make = make_random},
      {.name = "rapos",
       .summary = "random partial-order sampling (Sen): independent enabled events in one round, "
                  "the rest delayed; field accesses are points by default",
       .all_accesses = true,
       .options = {{"wake", "0.1", 0, 1,
                    "the probability that a delayed transition becomes schedulable again in a "
                    "round (0 is Sen's algorithm)"}},
       .make = make_rapos},
      {.name = "pct",
       .summary = "probabilistic concurrency testing (Burckhardt et al.): random thread "
                  "priorities, and d-1 points where a thread's priority drops, over the steps",
       .profile = true,
       .plan_option = "steps",
       .plan_optional = true,  // 1000 steps, then the most an execution took
       .options = {kDepth, kSteps, kBounded},
       .make = make_pct},
      {.name = "pctvb",
       .summary = "variable-bounded PCT (Bindal et al.): change points only at accesses to a few "
                  "variables picked from profile runs",
       .several_per_jvm = false,
       .profile = true,
       .variable_counts = true,
       .options = {kDepth,
                   {"vars", "1", 1, 1000, "variables whose accesses may hold a change point", true},
                   kSteps,
                   kBounded},
       .make = make_pctvb},
      {.name = "tsca",
       .summary = "interleaving coverage (Calpur's TSCA): sequence covering arrays of atomic "
                  "blocks, t-way block sequences not yet covered",
       .several_per_jvm = false,
       .options = {{"t", "3", 1, 4, "length of the block sequences to cover", true}},
       .make = make_tsca},
      {.name = "hapset",
       .summary = "HaPSet guidance (Wang et al.): prefers a step that makes a new ordered pair of "
                  "statements, else follows its base (random or rapos)",
       .all_accesses = true,
       .learns = true,
       .options = {{"prefer", "0.8", 0, 1,
                    "probability of a step toward a new ordering pair when there is one"}},
       .make = make_hapset},
      {.name = "pos",
       .summary = "partial order sampling (Yuan et al.): random priorities per event, redrawn for "
                  "the events that race with the one that ran",
       .make = make_pos},
      {.name = "surw",
       .summary = "selectively uniform random walk (Zhao et al.): a thread with probability "
                  "proportional to the events it has left (from profile runs)",
       .profile = true,
       .plan_optional = true,  // every thread's events weighed alike: a uniform random walk
       .make = make_surw},
      {.name = "portfolio",
       .summary = "successive executions cycle through random, pos, pct d=2, pct d=3, surw and "
                  "rapos; reports and replay commands name the one that ran",
       .shared_accesses = true,
       .profile = true,
       .plan_optional = true,  // its pct and surw members on their defaults
       .make = portfolio_member,
       .member = portfolio_member_options},
      {.name = "replay",
       .summary = "follows a recorded schedule (replay=FILE); a departure is an error",
       .several_per_jvm = false,
       .in_suites = false,
       .make = make_replay},
      {.name = "follow",
       .summary = "follows a schedule where it can and runs on freely after it (follow=FILE)",
       .several_per_jvm = false,
       .make = make_follow},
      {.name = "none",
       .summary = "no control: the program runs as it would without jsched",
       .several_per_jvm = false,
       .controls = false},
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
  for (const StrategyEntry& e : registered_strategies()) out.push_back(e.name);
  return out;
}

std::string strategy_name_list() {
  std::string out;
  for (std::string_view n : all_strategy_names()) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

bool runs_several_per_jvm(std::string_view name) {
  const StrategyEntry* e = find_strategy(name);
  return e && e->several_per_jvm;
}

std::string several_per_jvm_names() {
  std::string out;
  for (const StrategyEntry& e : registered_strategies()) {
    if (e.several_per_jvm) out += (out.empty() ? "" : ", ") + std::string(e.name);
  }
  return out;
}

}  // namespace jsched::sched
