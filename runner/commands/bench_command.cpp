// `jsched bench SUITE.xml`: a suite's programs x strategies x repetitions x runs.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <thread>

#include "jvmti-agent/options.h"
#include "runner/batch/batch.h"
#include "runner/batch/executor.h"
#include "runner/batch/profile_phase.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/suite.h"
#include "runner/commands/cli_args.h"
#include "runner/commands/commands.h"
#include "runner/commands/exit_status.h"
#include "runner/reports/aggregate.h"
#include "runner/reports/bootstrap.h"

namespace jsched {

namespace runner {
std::string default_results_dir(const char* kind);
uint64_t fresh_master_seed();
int finish_batch(ResultsDir& dir, const std::string& title, const Expectations& expect,
                 uint64_t seed);
int batch_failed(const std::exception& e, const ResultsDir& dir);
double minimize_seconds_option(CliArgs& cli);
}  // namespace runner

namespace {

const char* kBenchUsage =
    "usage: jsched bench SUITE.xml [options]\n"
    "       jsched bench --resume DIR [--bootstrap]\n"
    "\n"
    "Runs every program of the suite under every strategy of the suite, `runs` times per\n"
    "repetition, and reports per program and strategy: whether the expected finding showed,\n"
    "runs to the first finding (mean and spread over repetitions), distinct partial orders.\n"
    "\n"
    "  --runs N          override the suite's runs per program\n"
    "  --repetitions R   override the suite's repetitions\n"
    "  --jobs J          executions at a time (default: number of cores)\n"
    "  --seed S          master seed (default: random, printed)\n"
    "  --out DIR         results directory (default jsched-results/bench-<time>)\n"
    "  --resume DIR      continue an interrupted batch in DIR\n"
    "  --shard I/N       run only executions whose index is I modulo N (merge with jsched merge)\n"
    "  --profile-runs N  profile executions per program before pctvb, pct without steps=,\n"
    "                    surw, portfolio and accesses=shared runs: at most N (default 10),\n"
    "                    fewer once two in a row teach the plan nothing\n"
    "  --until-bug       stop each program x strategy x repetition at its first finding (the\n"
    "                    runs it skips are not recorded)\n"
    "  --give-up K       with --until-bug: a program x strategy whose first K repetitions all\n"
    "                    ran every run without the finding starts no other repetition (the\n"
    "                    summary's repetitions column counts those that ran)\n"
    "  --in-jvm B        up to B executions of a cell in each JVM (cells of the strategies\n"
    "                    marked [in-jvm] in jsched run --help; seeds consecutive within a cell,\n"
    "                    see docs/runner.md; hapset cells share JVMs always, 100 to one\n"
    "                    without this)\n"
    "  --bootstrap       also estimate time to first finding with 1..50 parallel workers\n"
    "  --agent PATH      libjsched.so (default: next to this jsched, or $JSCHED_AGENT)\n"
    "  --no-minimize     do not minimize the findings (by default each distinct finding of each\n"
    "                    program is minimized and drawn as a timeline, see jsched minimize)\n"
    "  --minimize-seconds S  time all the minimizing may take (default 120)\n"
    "  --workdir W       where each JVM runs: shared (the default), fresh (an empty directory\n"
    "                    of its own) or copy:DIR (a fresh copy of DIR)\n"
    "  --bug-output REGEX  an execution that prints a line this regular expression finds is a\n"
    "                    bug (for programs of the suite without a bug-output attribute)\n"
    "  --hapset-coverage every execution reports its HaPSet pairs (summary's hapset_pairs,\n"
    "                    report.html's saturation curves): a stack walk per scheduling point,\n"
    "                    so by default only the hapset strategy computes them\n"
    "\n"
    "Exit status: 0 every expectation met, 1 some not met, 2 usage error or bad suite, 3 every\n"
    "expectation met by the runs that ran, but some runs did not run their program to its end\n"
    "(error outcomes: see the summary's errors).\n";

// --runs and --repetitions, as the batch records them.
void apply_overrides(runner::Suite& suite, const json::Value& batch) {
  if (batch["runs"].is(json::Value::Number)) {
    suite.runs = uint32_t(batch.num("runs"));
    for (runner::SuiteProgram& p : suite.programs) p.runs = 0;
    for (runner::SuiteStrategy& st : suite.strategies) st.runs = 0;
  }
  if (batch["repetitions"].is(json::Value::Number))
    suite.repetitions = uint32_t(batch.num("repetitions"));
  if (batch["bug_output"].is(json::Value::String))
    suite.default_bug_output(batch.str("bug_output"));
  if (batch["hapset_coverage"].as_bool()) suite.default_hapset_coverage();
}

}  // namespace

int cmd_bench(const std::vector<std::string>& args) {
  using namespace runner;
  CliArgs cli(args, kBenchUsage);
  std::string resume = cli.value("--resume");
  BatchOptions opts;
  opts.jobs =
      int(cli.number("--jobs", std::max(1u, std::thread::hardware_concurrency()), 1, kMaxJobs));
  if (std::string sh = cli.value("--shard"); !sh.empty()) opts.shard = cli.shard(sh);
  bool boot = cli.flag("--bootstrap");
  try {
    opts.agent = find_agent(cli.value("--agent"));
  } catch (const std::exception& e) {
    return cli.fail(e.what());
  }
  std::optional<ResultsDir> dir;
  Suite suite;
  json::Value batch;
  try {
    if (!resume.empty()) {
      cli.done();
      dir.emplace(ResultsDir::resume(resume));
      batch = dir->batch();
      if (batch.str("kind") != "bench")
        return cli.fail(resume + " holds a " + batch.str("kind") + " batch, not a bench");
      if (batch["shard"].is(json::Value::String)) opts.shard = Shard::parse(batch.str("shard"));
      opts.until_bug_per_cell =
          batch["until_bug"].is(json::Value::Bool) && batch["until_bug"].as_bool();
      opts.give_up = uint32_t(batch.num("give_up", 0));
      opts.in_jvm = uint32_t(batch.num("in_jvm", 1));
      opts.workdir = Workdir::parse(batch.str("workdir", "shared"));
      suite = Suite::load(batch.str("suite"));
    } else {
      std::optional<uint64_t> seed_opt, runs, reps;
      if (cli.has("--seed")) seed_opt = cli.number("--seed", 0);
      if (cli.has("--runs")) runs = cli.number("--runs", 1, 1, kMaxRuns);
      if (cli.has("--repetitions")) reps = cli.number("--repetitions", 1, 1, kMaxRuns);
      uint64_t profile_runs = cli.number("--profile-runs", 10, 0, kMaxProfileRuns);
      opts.until_bug_per_cell = cli.flag("--until-bug");
      opts.give_up = uint32_t(cli.number("--give-up", 0, 1, kMaxRuns));
      opts.in_jvm = uint32_t(cli.number("--in-jvm", 1, 1, kMaxInJvm));
      opts.workdir = Workdir::parse(cli.value("--workdir", "shared"));
      const double minimize_seconds = minimize_seconds_option(cli);
      const std::string bug_output = cli.value("--bug-output");
      const bool hapset_coverage = cli.flag("--hapset-coverage");
      std::string out = cli.value("--out", default_results_dir("bench"));
      std::vector<std::string> pos = cli.positional();
      cli.done();
      if (pos.size() != 1) return cli.fail("give exactly one suite file");
      if (opts.give_up && !opts.until_bug_per_cell) return cli.fail("--give-up needs --until-bug");
      if (!bug_output.empty()) {
        try {
          agent::parse_options("bug-output=" + agent::escape_commas(bug_output));
        } catch (const std::invalid_argument& e) {
          return cli.fail(e.what());
        }
      }
      // A repetition split over shards never runs whole in one of them.
      if (opts.give_up && opts.shard.count > 1) return cli.fail("--give-up cannot be sharded");
      batch = json::Value::object();
      batch.set("kind", json::Value::string("bench"));
      batch.set("suite", json::Value::string(std::filesystem::absolute(pos[0]).string()));
      batch.set("seed",
                json::Value::string(std::to_string(seed_opt ? *seed_opt : fresh_master_seed())));
      if (runs) batch.set("runs", json::Value::number(double(*runs)));
      if (reps) batch.set("repetitions", json::Value::number(double(*reps)));
      batch.set("profile_runs", json::Value::number(double(profile_runs)));
      batch.set("until_bug", json::Value::boolean(opts.until_bug_per_cell));
      if (opts.give_up) batch.set("give_up", json::Value::number(double(opts.give_up)));
      batch.set("in_jvm", json::Value::number(double(opts.in_jvm)));
      batch.set("workdir", json::Value::string(opts.workdir.text()));
      batch.set("minimize_seconds", json::Value::number(minimize_seconds));
      if (!bug_output.empty()) batch.set("bug_output", json::Value::string(bug_output));
      if (hapset_coverage) batch.set("hapset_coverage", json::Value::boolean(true));
      if (opts.shard.count > 1) {
        batch.set("shard", json::Value::string(std::to_string(opts.shard.index) + "/" +
                                               std::to_string(opts.shard.count)));
      }
      // A bad suite, or one whose programs cannot start, is refused before anything is made.
      suite = Suite::load(batch.str("suite"));
      suite.check_programs();
      Suite planned = suite;
      apply_overrides(planned, batch);
      check_plan_fits(planned.execution_count(), planned.spec_bytes());
      dir.emplace(ResultsDir::create(out, batch));
    }
  } catch (const std::exception& e) {
    return cli.fail(e.what());
  }
  apply_overrides(suite, batch);
  uint64_t seed = std::stoull(batch.str("seed"));
  std::vector<RunSpec> specs = suite.specs(seed, opts.in_jvm > 1);
  stop_batches_on_signals();
  std::fprintf(stderr,
               "jsched: suite %s: %zu programs x %zu strategies x %u repetitions, %zu "
               "executions%s, master seed %llu, %d at a time, results in %s\n",
               suite.name.c_str(), suite.programs.size(), suite.strategies.size(),
               suite.repetitions, specs.size(),
               opts.shard.count > 1 ? (" (shard " + std::to_string(opts.shard.index) + "/" +
                                       std::to_string(opts.shard.count) + ")")
                                          .c_str()
                                    : "",
               (unsigned long long)seed, opts.jobs, dir->path().c_str());
  try {
    attach_plans(specs, batch, *dir, opts);
    run_batch(specs, *dir, opts);
  } catch (const std::exception& e) {
    return batch_failed(e, *dir);
  }
  if (int st = finish_batch(*dir, "suite " + suite.name, suite.expectations(), seed);
      st == kExitWriteFailed || st == kExitInterrupted)
    return st;
  if (boot) {
    std::ostringstream all;
    for (const CellStats& c : aggregate(dir->records())) {
      std::vector<const RunRecord*> pool;
      for (const RunRecord& r : dir->records()) {
        if (r.program == c.program && r.strategy == c.strategy && !r.profile_run)
          pool.push_back(&r);
      }
      auto rows = bootstrap(pool, 50, seed);
      if (!rows.empty()) all << "\n" << bootstrap_text(c.program + " / " + c.strategy, rows);
    }
    std::fputs(all.str().c_str(), stdout);
    try {
      write_file(dir->path() + "/bootstrap.txt", all.str());
    } catch (const WriteError& e) {
      std::fprintf(stderr, "jsched: error: %s\n", e.what());
      return kExitWriteFailed;
    }
  }
  return bench_status(dir->records(), suite.expectations());
}

}  // namespace jsched
