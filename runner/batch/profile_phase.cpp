#include "runner/batch/profile_phase.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "runner/batch/executor.h"
#include "scheduler/core/fingerprint.h"
#include "scheduler/pct/plan_news.h"
#include "scheduler/pct/variable_plan.h"
#include "scheduler/strategy_registry.h"

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

constexpr uint32_t kHangsEndingProfile = 3;
// The phase ends early once this many runs in a row taught the plan nothing (sched::teaches),
// after at least kMinProfileRuns: on a heavy program each profile run costs a few plain runs.
constexpr uint32_t kMinProfileRuns = 3, kQuietProfileRuns = 2;
// Before race-check runs, which count every access they do not check as a counting run does
// (and keep points at what they newly see shared): two counting runs, the second quiet, are
// enough for the same four or more runs in all.
constexpr uint32_t kMinCountingRuns = 2, kQuietCountingRuns = 1;

// The options of `s` that change what a profile run counts (accesses, include, ...), without
// those of the planned strategy itself.
std::string profile_params(const RunSpec& s) {
  const sched::StrategyEntry* e = sched::find_strategy(s.agent_strategy_name());
  std::string out;
  for (const auto& [k, v] : split_params(s.params)) {
    // accesses=shared is what the plan is for: the profile runs count at the default points.
    // hapset: nothing reads a profile run's coverage.
    bool planned =
        k == "plan" || k == "iterations" || k == "hapset" || (k == "accesses" && v == "shared");
    if (e) {
      for (const sched::StrategyOption& opt : e->options) planned = planned || k == opt.key;
    }
    if (!planned) out += (out.empty() ? "" : ",") + k + (v.empty() ? "" : "=" + v);
  }
  return out;
}

std::string hex(uint64_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", unsigned(v >> 32));
  return buf;
}

// Runs the profile executions of `tmpl`'s program into `base`/ and merges them into
// `base`.plan; `variable_counts`: a strategy that will read the plan reads each variable's count;
// `race_checks`: one will run under accesses=shared, which the race-check runs serve.
std::string make_plan(const RunSpec& tmpl, const std::string& params, uint32_t runs,
                      uint64_t master_seed, const std::string& base, const BatchOptions& opts,
                      uint64_t first_index, bool variable_counts, bool race_checks,
                      ResultsDir& dir) {
  std::string plan_path = base + ".plan";
  if (fs::exists(plan_path)) {
    sched::VariablePlan::read(plan_path);  // reject a damaged plan rather than use it
    return plan_path;
  }
  fs::create_directories(base);
  // Profile run i (race-check runs follow the counting ones), with `more` agent options.
  auto spec = [&](uint32_t i, const std::string& more) {
    RunSpec s = tmpl;
    s.index = first_index + i;
    s.profile_run = true;
    s.agent_strategy = "random";
    s.repetition = 0;
    s.run = i;
    s.seed = derive_seed(master_seed, tmpl.program, "profile " + params, 0, i);
    s.timeout_ms = tmpl.timeout_ms * 2;  // counting every access makes a profile run slower
    const std::string file = base + "/run-" + std::to_string(i) + ".txt";
    // An interrupted phase's: a run that writes none must not read as one. One that cannot be
    // removed cannot be written either, and its run fails there.
    std::error_code ec;
    fs::remove(file, ec);
    s.params = params + (params.empty() ? "" : ",") + more + "profile=" + file;
    return s;
  };
  std::vector<RunSpec> specs;
  for (uint32_t i = 0; i < runs; ++i) specs.push_back(spec(i, ""));
  std::fprintf(stderr, "jsched: profiling %s: up to %u runs (strategy random%s)\n",
               tmpl.program.c_str(), runs, params.empty() ? "" : (", " + params).c_str());
  sched::VariablePlan plan;
  std::string first_failure;
  std::map<std::string, uint32_t> outcomes;
  const std::set<uint64_t> recorded = dir.done_indices();  // a resumed batch's
  Executor ex(opts.jobs, opts.agent, base + "/work");
  ex.isolate(opts.workdir);
  ex.results_in(dir.path());  // a profile run's finding goes to the batch's runs.jsonl
  double elapsed_ms = 0;
  // A program whose runs hang (or livelock) would hold the real runs back for runs x 2
  // timeouts: three are enough to know, and what the others counted makes the plan.
  auto held_back = [&] { return outcomes["hang"] + outcomes["livelock"] >= kHangsEndingProfile; };
  // Runs are taken in index order, whatever order they end in, so that where the phase stops,
  // and so the plan, is the same whatever --jobs.
  std::map<uint64_t, RunRecord> ended;
  uint64_t next = first_index;
  uint32_t quiet = 0;  // runs in a row that taught the plan nothing
  const uint32_t min_runs = race_checks ? kMinCountingRuns : kMinProfileRuns;
  const uint32_t quiet_runs = race_checks ? kQuietCountingRuns : kQuietProfileRuns;
  bool saturated = false, checking = false;
  auto take = [&](RunRecord&& r) {
    std::string file = base + "/run-" + std::to_string(r.index - first_index) + ".txt";
    ++outcomes[r.outcome];
    elapsed_ms += r.elapsed_ms;
    if (fs::exists(file)) {
      sched::VariablePlan p = sched::VariablePlan::read(file);
      if (!checking) quiet = sched::teaches(plan, p, variable_counts) ? 0 : quiet + 1;
      plan.merge(p);
    } else if (first_failure.empty()) {
      first_failure = r.outcome + ": " + r.detail.substr(0, r.detail.find('\n'));
    }
    if (r.found() || r.outcome == "error") {
      if (r.found())
        std::fprintf(stderr, "jsched: profile run of %s (seed %llu) found a %s: %s\n",
                     tmpl.program.c_str(), (unsigned long long)r.seed, r.outcome.c_str(),
                     r.detail.substr(0, r.detail.find('\n')).c_str());
      if (opts.shard.holds(r.index) && !recorded.count(r.index)) dir.add(std::move(r));
    }
    saturated = !checking && plan.runs >= min_runs && quiet >= quiet_runs;
  };
  auto run_all = [&] {
    ex.run(specs, [&](RunRecord&& r) {
      ended.emplace(r.index, std::move(r));
      for (auto it = ended.find(next); it != ended.end() && !saturated && !held_back();
           it = ended.find(++next)) {
        take(std::move(it->second));
        ended.erase(it);
      }
      return !saturated && !held_back();
    });
  };
  run_all();
  uint32_t ran = 0;
  for (const auto& [outcome, n] : outcomes) ran += n;
  const bool stopped_early = saturated && ran < runs;
  // The race-check runs: the counted plan's shared variables' accesses followed by the race
  // detector (no points), so that those only ever handed over through synchronization lose
  // their points (docs/runner.md, "The profile phase").
  const size_t shared_before = std::count_if(plan.variables.begin(), plan.variables.end(),
                                             [](const sched::PlanVariable& v) { return v.shared; });
  if (race_checks && plan.runs > 0 && plan.sharing && shared_before > 0 && !held_back()) {
    const std::string counted = base + "/counted.plan";
    plan.write(counted);
    specs.clear();
    for (uint32_t i = 0; i < kRaceCheckRuns; ++i)
      specs.push_back(spec(runs + i, "accesses=shared,plan=" + counted + ","));
    checking = true;
    saturated = false;
    ended.clear();
    next = first_index + runs;
    run_all();
  }
  std::string summary;
  ran = 0;
  for (const auto& [outcome, n] : outcomes) {
    if (n) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + outcome;
    ran += n;
  }
  // What a profile run costs (each counts every access): the user weighs it against a plain run.
  std::fprintf(stderr, "jsched: profile runs of %s: %s (%.2f s each on average)\n",
               tmpl.program.c_str(), summary.c_str(), ran ? elapsed_ms / ran / 1000 : 0.0);
  if (held_back())
    std::fprintf(stderr, "jsched: profile phase of %s stopped after %u hangs or livelocks\n",
                 tmpl.program.c_str(), kHangsEndingProfile);
  else if (stopped_early)
    std::fprintf(stderr,
                 "jsched: profile phase of %s stopped after %u runs: the last %s taught the "
                 "plan nothing new\n",
                 tmpl.program.c_str(), ran - (checking ? kRaceCheckRuns : 0),
                 quiet_runs == 1 ? "one" : std::to_string(quiet_runs).c_str());
  if (checking) {
    size_t handed = 0, raced = 0;
    for (const sched::PlanVariable& v : plan.variables) {
      handed += v.handed_over();
      raced += v.shared && v.raced;
    }
    std::fprintf(stderr,
                 "jsched: race checks of %s: of %zu shared variables %zu only handed over "
                 "(no points under accesses=shared), %zu raced\n",
                 tmpl.program.c_str(), shared_before, handed, raced);
  }
  if (plan.runs == 0) {
    // A strategy that runs without a plan does, on its defaults (pct assumes 1000 steps, surw
    // weighs every thread alike); the others (pctvb) cannot.
    const std::string& strategy = tmpl.agent_strategy_name();
    const sched::StrategyEntry* e = sched::find_strategy(strategy);
    if ((e && e->plan_optional) || !e || !e->profile) {
      std::fprintf(stderr,
                   "jsched: warning: profile runs of %s wrote no profile (%s): %s runs without "
                   "a plan, on its defaults (accesses=shared: every access a point)\n",
                   tmpl.program.c_str(), first_failure.c_str(), strategy.c_str());
      return "";
    }
    throw std::runtime_error("profile runs of " + tmpl.program + " wrote no profile (" +
                             first_failure + ")");
  }
  // Written last and renamed into place: a killed profile phase leaves no plan behind.
  plan.write(plan_path + ".tmp");
  fs::rename(plan_path + ".tmp", plan_path);
  fs::remove_all(base + "/work");
  std::fprintf(stderr, "jsched: plan for %s: %zu variables, up to %llu steps, %u threads: %s\n",
               tmpl.program.c_str(), plan.variables.size(), (unsigned long long)plan.steps,
               plan.threads, plan_path.c_str());
  return plan_path;
}

}  // namespace

namespace {

// Whether runs of `s` have accesses=shared (their strategy's default, or said).
bool shared_accesses(const RunSpec& s, const sched::StrategyEntry& e) {
  bool shared = e.shared_accesses;
  for (const auto& [k, v] : split_params(s.params))
    if (k == "accesses") shared = v == "shared";
  return shared;
}

}  // namespace

bool needs_plan(const RunSpec& s) {
  const sched::StrategyEntry* e = sched::find_strategy(s.agent_strategy_name());
  if (!e) return false;
  bool plan_given = false;
  for (const auto& [k, v] : split_params(s.params)) {
    if (k == "plan") return false;
    plan_given = plan_given || (!e->plan_option.empty() && k == e->plan_option);
  }
  // accesses=shared needs one whatever the strategy: the plan says which variables are shared.
  return shared_accesses(s, *e) || (e->profile && !plan_given);
}

void attach_plans(std::vector<RunSpec>& specs, const json::Value& batch, ResultsDir& dir,
                  const BatchOptions& opts) {
  const uint32_t runs =
      batch["profile_runs"].is(json::Value::Number) ? uint32_t(batch.num("profile_runs")) : 10;
  const uint64_t master_seed = std::stoull(batch.str("seed"));
  // A plan serves every strategy of the batch with the same profile key (pct and pctvb): its
  // phase goes on while a run teaches any of them something.
  auto key_of = [](const RunSpec& s) { return s.program + "\n" + profile_params(s); };
  std::set<std::string> counted;  // keys of a strategy that reads each variable's count
  std::set<std::string> checked;  // keys of runs under accesses=shared
  for (const RunSpec& s : specs) {
    const sched::StrategyEntry* e = sched::find_strategy(s.agent_strategy_name());
    if (!needs_plan(s) || !e) continue;
    if (e->variable_counts) counted.insert(key_of(s));
    if (shared_accesses(s, *e)) checked.insert(key_of(s));
  }
  std::map<std::string, std::string> plans;  // profile key -> plan file
  for (RunSpec& s : specs) {
    if (!needs_plan(s)) continue;
    if (runs == 0)
      throw std::runtime_error(s.agent_strategy_name() +
                               " needs profile runs (--profile-runs >= 1)");
    std::string params = profile_params(s);
    std::string key = key_of(s);
    auto it = plans.find(key);
    if (it == plans.end()) {
      std::string base = fs::absolute(dir.path()).string() + "/profile/" + s.program + "-" +
                         hex(sched::hash_string(key));
      // Each plan's runs have indices of their own, in the order the plans are made.
      const uint64_t first =
          kProfileIndexBase + plans.size() * (kMaxProfileRuns + kRaceCheckRuns + 1);
      it = plans
               .emplace(key, make_plan(s, params, runs, master_seed, base, opts, first,
                                       counted.count(key) > 0, checked.count(key) > 0, dir))
               .first;
    }
    if (!it->second.empty()) s.params += (s.params.empty() ? "" : ",") + ("plan=" + it->second);
  }
}

}  // namespace jsched::runner
