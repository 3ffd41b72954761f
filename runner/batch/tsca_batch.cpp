#include "runner/batch/tsca_batch.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "runner/batch/executor.h"
#include "scheduler/core/rng.h"
#include "scheduler/tsca/tsca_plan.h"
#include "scheduler/tsca/tsca_planner.h"

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

sched::BlockTrace trace_of(const json::Value& t) {
  sched::BlockTrace tr;
  for (const json::Value& b : t["blocks"].items()) {
    const auto& f = b.items();
    if (f.size() != 3) throw std::runtime_error("malformed block in a TSCA report");
    tr.blocks.push_back({uint32_t(f[0].as_number()), f[1].as_string(), f[2].as_string()});
  }
  for (const json::Value& e : t["edges"].items()) {
    const auto& f = e.items();
    if (f.size() != 2) throw std::runtime_error("malformed edge in a TSCA report");
    tr.edges.emplace_back(uint32_t(f[0].as_number()), uint32_t(f[1].as_number()));
  }
  return tr;
}

// Adds a finished execution to the planner and its cumulative figures to its record.
void learn(sched::TscaPlanner& planner, RunRecord& r) {
  const json::Value& t = r.extra["tsca"];
  if (!t.is(json::Value::Object)) {
    throw std::runtime_error("execution " + std::to_string(r.index) + " (seed " +
                             std::to_string(r.seed) + ") reported no blocks: " + r.outcome +
                             (r.detail.empty() ? "" : ": " + r.detail.substr(0, 300)));
  }
  // Only the sequences' blocks matter for learning; a run that found a bug still covered them.
  sched::CoverageProgress p = planner.add(trace_of(t));
  r.extra.set("coverage", json::Value::number(p.percent()));
  r.extra.set("covered", json::Value::number(double(p.covered)));
  r.extra.set("known", json::Value::number(double(p.known)));
  r.extra.set("new", json::Value::number(double(p.fresh)));
}

}  // namespace

uint64_t run_tsca_batch(const json::Value& b, ResultsDir& dir, const BatchOptions& opts) {
  const uint32_t t = uint32_t(b.num("t", 3));
  const uint64_t budget = uint64_t(b.num("runs")), explore = uint64_t(b.num("explore", 2));
  const uint64_t master = std::stoull(b.str("seed"));
  std::vector<std::string> command;
  for (const json::Value& a : b["command"].items()) command.push_back(a.as_string());
  const std::string program = b.str("program", "main");
  std::string params = b.str("params");
  params += (params.empty() ? "" : ",") + std::string("t=") + std::to_string(t);

  sched::TscaPlanner planner(t);
  uint64_t next_index = 0;
  bool stop = false;
  {  // resume: learn from what the directory holds, in execution order
    std::vector<RunRecord> done = dir.records();
    std::sort(done.begin(), done.end(), [](auto& x, auto& y) { return x.index < y.index; });
    for (RunRecord& r : done) {
      learn(planner, r);
      next_index = r.index + 1;
      stop = stop || (opts.until_bug && r.hit());
    }
  }
  const std::string plans = dir.path() + "/plans";
  fs::create_directories(plans);
  Executor ex(opts.jobs, opts.agent, dir.work_dir());
  ex.isolate(opts.workdir);
  uint64_t ran = 0;
  size_t last_known = 0;
  while (!stop && next_index < budget) {
    const bool exploring = next_index < explore;
    if (!exploring && planner.complete() && planner.coverage().known() > 0) break;
    std::vector<RunSpec> specs;
    std::vector<sched::CoveringSchedule> schedules;
    uint64_t n = std::min<uint64_t>(budget - next_index, uint64_t(std::max(1, opts.jobs)));
    if (exploring) {
      n = std::min(n, explore - next_index);
    } else {
      // A round's schedules depend on the master seed and what came before; a round holds
      // --jobs executions, so the batch depends on --jobs too.
      sched::Rng rng(master ^ (0x7473636100000000ULL + next_index));
      schedules = planner.next(size_t(n), rng);
      if (schedules.empty()) break;
      n = schedules.size();
    }
    for (uint64_t k = 0; k < n; ++k) {
      RunSpec s;
      s.index = next_index + k;
      s.program = program;
      s.strategy = "tsca";
      s.run = uint32_t(s.index);
      s.seed = derive_seed(master, program, "tsca", 0, s.run);
      s.timeout_ms = uint64_t(b.num("timeout"));
      s.command = command;
      s.params = params;
      if (!exploring) {
        sched::TscaPlan plan;
        plan.t = t;
        plan.knowledge = planner.knowledge();
        plan.known = planner.coverage().known();
        plan.covered = planner.coverage().covered_hex();
        plan.schedule = sched::schedule_threads(planner.knowledge(), schedules[k].blocks);
        std::string file = plans + "/plan-" + std::to_string(s.index) + ".txt";
        plan.write(file);
        s.params += ",plan=" + file;
      }
      specs.push_back(std::move(s));
    }
    std::vector<RunRecord> round;
    ex.run(specs, [&](RunRecord&& r) {
      round.push_back(std::move(r));
      return !(opts.until_bug && round.back().hit());
    });
    std::sort(round.begin(), round.end(), [](auto& x, auto& y) { return x.index < y.index; });
    for (RunRecord& r : round) {
      learn(planner, r);
      if (opts.until_bug && r.hit()) stop = true;
      if (r.found()) {
        std::fprintf(stderr, "jsched: tsca: execution %llu (seed %llu): %s: %s\n",
                     (unsigned long long)r.index, (unsigned long long)r.seed, r.outcome.c_str(),
                     r.detail.substr(0, r.detail.find('\n')).c_str());
      }
      dir.add(std::move(r));
      ++ran;
    }
    next_index += n;
    const sched::SequenceCoverage& c = planner.coverage();
    std::fprintf(stderr, "jsched: tsca: %llu executions%s, %u-way coverage %zu/%zu (%.2f%%)%s\n",
                 (unsigned long long)next_index, exploring ? " (exploring)" : "", t, c.covered(),
                 c.known(), c.percent(),
                 c.known() != last_known && last_known ? ", more sequences known" : "");
    last_known = c.known();
  }
  const sched::SequenceCoverage& c = planner.coverage();
  std::fprintf(stderr,
               "jsched: tsca: %s after %llu executions: %zu of %zu known %u-way sequences "
               "(%.2f%%), %zu blocks\n",
               planner.complete() ? "full coverage" : "stopped", (unsigned long long)next_index,
               c.covered(), c.known(), t, c.percent(), planner.knowledge().size());
  fs::remove_all(dir.work_dir());
  return ran;
}

}  // namespace jsched::runner
