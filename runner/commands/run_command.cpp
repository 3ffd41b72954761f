// `jsched run ... -- java ARGS...`: many executions of one program.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>

#include "jvmti-agent/options.h"
#include "runner/batch/batch.h"
#include "runner/batch/executor.h"
#include "runner/batch/profile_phase.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/run_checks.h"
#include "runner/batch/tsca_batch.h"
#include "runner/commands/cli_args.h"
#include "runner/commands/commands.h"
#include "runner/commands/exit_status.h"
#include "runner/minimize/minimize_findings.h"
#include "runner/reports/reports.h"
#include "scheduler/strategy_registry.h"

namespace jsched {

namespace runner {

std::string default_results_dir(const char* kind) {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&t));
  return std::string("jsched-results/") + kind + "-" + buf;
}

uint64_t fresh_master_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32 | rd()) & 0x7fffffffffffffffULL;
}

namespace {

const char* kRunUsage =
    "usage: jsched run [options] -- java [JVM options] MAIN-CLASS-OR-JAR [ARGS...]\n"
    "       jsched run --resume DIR\n"
    "\n"
    "Runs the program N times under the jsched agent, each run with its own seed derived from\n"
    "the master seed, J at a time, and reports what was found.\n"
    "\n"
    "  --strategy S     one of the strategies below (default: @DEFAULT@)\n"
    "  --params K=V,..  more agent options for every run (e.g. accesses=all,spurious=0)\n"
    "  --profile-runs N profile executions before pctvb, pct without steps=, surw, portfolio\n"
    "                   and accesses=shared runs, whose merged counts make the plan: at most\n"
    "                   N (default 10), fewer once runs teach the plan nothing; under\n"
    "                   accesses=shared two race-check runs follow\n"
    "  --runs N         executions (default 100; tsca: at most this many)\n"
    "  --t T            tsca: length of the block sequences to cover, 1-4 (default 3)\n"
    "  --explore N      tsca: random exploration runs before covering schedules (default 2)\n"
    "  --jobs J         executions at a time (default: number of cores)\n"
    "  --seed S         master seed (default: random, printed)\n"
    "  --until-bug      stop at the first finding; other running executions are killed\n"
    "  --in-jvm B       run up to B executions in each JVM (the agent's iterations=B, with\n"
    "                   consecutive seeds from the master seed): far more executions per\n"
    "                   second; the strategies marked [in-jvm] below (hapset always shares\n"
    "                   JVMs, 100 to one without this, and hands what one JVM learned to\n"
    "                   the next)\n"
    "  --timeout MS     per-execution watchdog (default 10000)\n"
    "  --workdir W      where each JVM runs: shared (jsched's directory, the default), fresh\n"
    "                   (an empty directory of its own) or copy:DIR (a fresh copy of DIR);\n"
    "                   each JVM has a java.io.tmpdir of its own whatever W\n"
    "  --bug-output REGEX  an execution that prints a line this regular expression\n"
    "                   (ECMAScript syntax) finds is a bug, the line its detail: for\n"
    "                   harnesses that print their failure and exit 0\n"
    "  --hapset-coverage  every execution reports its HaPSet pairs (summary's hapset_pairs,\n"
    "                   report.html's saturation curve): a stack walk per scheduling point,\n"
    "                   so by default only --strategy hapset computes them\n"
    "  --out DIR        results directory (default jsched-results/run-<time>)\n"
    "  --resume DIR     continue an interrupted batch in DIR\n"
    "  --shard I/N      run only the executions whose index is I modulo N\n"
    "  --agent PATH     libjsched.so (default: next to this jsched, or $JSCHED_AGENT)\n"
    "  --no-minimize    do not minimize the findings (by default each distinct finding's\n"
    "                   schedule is minimized and drawn as a timeline, see jsched minimize)\n"
    "  --minimize-seconds S  time all the minimizing may take (default 120)\n"
    "\n"
    "Exit status: 0 nothing found, 1 something found (bug, deadlock, hang or livelock), 2 usage\n"
    "error, 3 nothing found but some runs did not run the program to its end (error: the JVM\n"
    "did not start, crashed, was killed, or the program called System.exit): not an all-clear.\n";

// The usage, with the strategies of the registry (docs/strategies.md has more on each).
std::string run_usage() {
  std::string out = std::string(kRunUsage) + "\nStrategies (docs/strategies.md):\n";
  out.replace(out.find("@DEFAULT@"), 9, sched::kRunnerDefault);
  for (const sched::StrategyEntry& e : sched::registered_strategies()) {
    if (!e.in_suites) continue;
    std::string text = std::string(e.summary) + (e.several_per_jvm ? " [in-jvm]" : "") +
                       (e.profile ? e.plan_option.empty() ? " [profile runs first]"
                                                          : " [profile runs first, unless " +
                                                                std::string(e.plan_option) + "=]"
                                  : "");
    std::string line = "  " + std::string(e.name);
    line.resize(13, ' ');
    bool first = true;  // of its line
    size_t start = 0;
    for (;;) {  // words wrapped at 92 columns, continuation lines under the text
      size_t end = text.find(' ', start);
      std::string word = text.substr(start, end == std::string::npos ? end : end - start);
      if (!first && line.size() + 1 + word.size() > 92) {
        out += line + "\n";
        line = std::string(13, ' ');
        first = true;
      }
      line += (first ? "" : " ") + word;
      first = false;
      if (end == std::string::npos) break;
      start = end + 1;
    }
    out += line + "\n";
  }
  return out;
}

std::vector<RunSpec> run_specs(const json::Value& b) {
  std::vector<std::string> command;
  for (const json::Value& a : b["command"].items()) command.push_back(a.as_string());
  uint64_t seed = std::stoull(b.str("seed"));
  uint32_t in_jvm = uint32_t(b.num("in_jvm", 1));
  std::vector<RunSpec> specs;
  for (uint32_t i = 0; i < uint32_t(b.num("runs")); ++i) {
    RunSpec s;
    s.index = i;
    s.program = b.str("program", "main");
    s.strategy = b.str("strategy");
    s.params = b.str("params");
    s.run = i;
    // In-JVM batches need consecutive seeds (the agent's iterations run seed, seed+1, ...).
    s.seed = in_jvm > 1 || learns(s) ? consecutive_seed(seed, s.program, s.strategy, 0, i)
                                     : derive_seed(seed, s.program, s.strategy, 0, i);
    s.timeout_ms = uint64_t(b.num("timeout"));
    s.command = command;
    specs.push_back(s);
  }
  return specs;
}

}  // namespace

int batch_failed(const std::exception& e, const ResultsDir& dir);

double minimize_seconds_option(CliArgs& cli) {
  const bool off = cli.flag("--no-minimize");
  const bool on = cli.flag("--minimize");
  const uint64_t seconds = cli.number("--minimize-seconds", 120, 1, kMaxTimeoutMs / 1000);
  if (on && off) throw std::invalid_argument("--minimize and --no-minimize contradict each other");
  return off ? 0 : double(seconds);
}

int finish_batch(ResultsDir& dir, const std::string& title, const Expectations& expect,
                 uint64_t seed) {
  // Each distinct finding minimized, within the batch's budget (0: --no-minimize). Shards
  // leave it to whoever looks at the merged results (jsched minimize).
  const double budget = dir.batch().num("minimize_seconds", 0);
  if (budget > 0 && !dir.batch()["shard"].is(json::Value::String)) {
    try {
      minimize_findings(dir.path(), dir.records(), budget);
    } catch (const std::exception& e) {
      return batch_failed(e, dir);
    }
  }
  ReportInput in{title, dir.records(), expect, seed, read_minimized(dir.path()), dir.path()};
  std::string text;
  try {
    text = write_reports(dir.path(), in);
  } catch (const WriteError& e) {
    std::fprintf(stderr,
                 "jsched: error: %s (the runs are all in %s/runs.jsonl; `jsched run --resume %s` "
                 "writes the reports again once there is room)\n",
                 e.what(), dir.path().c_str(), dir.path().c_str());
    return kExitWriteFailed;
  }
  std::fputs(text.c_str(), stdout);
  std::printf("\nresults: %s (runs.jsonl, summary.csv, junit.xml, report.html)\n",
              dir.path().c_str());
  return batch_status(dir.records());
}

int batch_failed(const std::exception& e, const ResultsDir& dir) {
  if (dynamic_cast<const WriteError*>(&e)) {
    std::fprintf(stderr, "jsched: error: %s\n", e.what());
    return kExitWriteFailed;
  }
  if (dynamic_cast<const Interrupted*>(&e)) {
    std::fprintf(stderr,
                 "\njsched: interrupted: %zu runs are recorded in %s; continue with: jsched %s "
                 "--resume %s\n",
                 dir.records().size(), dir.path().c_str(),
                 dir.batch().str("kind") == "bench" ? "bench" : "run", dir.path().c_str());
    return kExitInterrupted;
  }
  std::fprintf(stderr, "jsched: error: %s\n", e.what());
  return kExitUsage;
}

}  // namespace runner

int cmd_run(const std::vector<std::string>& args) {
  using namespace runner;
  static const std::string usage = run_usage();
  CliArgs cli(args, usage.c_str());
  std::string resume = cli.value("--resume");
  BatchOptions opts;
  opts.jobs =
      int(cli.number("--jobs", std::max(1u, std::thread::hardware_concurrency()), 1, kMaxJobs));
  opts.until_bug = cli.flag("--until-bug");
  if (std::string sh = cli.value("--shard"); !sh.empty()) opts.shard = cli.shard(sh);
  try {
    opts.agent = find_agent(cli.value("--agent"));
  } catch (const std::exception& e) {
    return cli.fail(e.what());
  }
  json::Value batch;
  std::optional<ResultsDir> dir;
  try {
    if (!resume.empty()) {
      cli.done();
      dir.emplace(ResultsDir::resume(resume));
      batch = dir->batch();
      if (batch.str("kind") != "run")
        return cli.fail(resume + " holds a " + batch.str("kind") + " batch, not a run");
      opts.until_bug = opts.until_bug || batch["until_bug"].as_bool();
      opts.in_jvm = uint32_t(batch.num("in_jvm", 1));
      opts.workdir = Workdir::parse(batch.str("workdir", "shared"));
    } else {
      std::vector<std::string> command = cli.rest();
      if (command.empty()) return cli.fail("missing the program: ... -- java MAIN [ARGS]");
      if (command[0].find("java") == std::string::npos) {
        return cli.fail("the command after -- must start with java, not '" +
                        CliArgs::clip(command[0]) + "'");
      }
      batch = json::Value::object();
      batch.set("kind", json::Value::string("run"));
      json::Value cmd = json::Value::array();
      for (const std::string& a : command) cmd.push(json::Value::string(a));
      batch.set("command", cmd);
      // The program is named after its main class (reports, junit.xml's classname).
      std::string program = main_class_of(command);
      batch.set("program", json::Value::string(program.empty() ? "main" : program));
      batch.set("strategy",
                json::Value::string(cli.value("--strategy", std::string(sched::kRunnerDefault))));
      std::string params = cli.value("--params");
      if (std::string regex = cli.value("--bug-output"); !regex.empty()) {
        if (params.find("bug-output=") != std::string::npos)
          return cli.fail("--bug-output and bug-output= in --params: give one");
        params += (params.empty() ? "" : ",") + ("bug-output=" + agent::escape_commas(regex));
      }
      if (cli.flag("--hapset-coverage")) {
        for (const auto& kv : split_params(params))
          if (kv.first == "hapset")
            return cli.fail("--hapset-coverage and hapset= in --params: give one");
        params += std::string(params.empty() ? "" : ",") + "hapset=on";
      }
      batch.set("params", json::Value::string(params));
      batch.set("runs", json::Value::number(double(cli.number("--runs", 100, 1, kMaxRuns))));
      uint64_t seed = cli.has("--seed") ? cli.number("--seed", 0) : fresh_master_seed();
      batch.set("seed", json::Value::string(std::to_string(seed)));
      batch.set("timeout",
                json::Value::number(double(cli.number("--timeout", 10000, 1, kMaxTimeoutMs))));
      batch.set("until_bug", json::Value::boolean(opts.until_bug));
      batch.set("minimize_seconds", json::Value::number(minimize_seconds_option(cli)));
      opts.in_jvm = uint32_t(cli.number("--in-jvm", 1, 1, kMaxInJvm));
      opts.workdir = Workdir::parse(cli.value("--workdir", "shared"));
      const std::string st = batch.str("strategy");
      if (opts.in_jvm > 1 && !sched::runs_several_per_jvm(st))
        return cli.fail("--in-jvm runs " + sched::several_per_jvm_names() + ", not " + st);
      batch.set("in_jvm", json::Value::number(double(opts.in_jvm)));
      batch.set("workdir", json::Value::string(opts.workdir.text()));
      batch.set("profile_runs",
                json::Value::number(double(cli.number("--profile-runs", 10, 0, kMaxProfileRuns))));
      const bool tsca_opts = cli.has("--t") || cli.has("--explore");
      batch.set("t", json::Value::number(double(cli.number("--t", 3, 1, 4))));
      batch.set("explore", json::Value::number(double(cli.number("--explore", 2, 0, kMaxRuns))));
      if (batch.str("strategy") != "tsca" && tsca_opts)
        return cli.fail("--t and --explore belong to --strategy tsca");
      std::string out = cli.value("--out", default_results_dir("run"));
      cli.done();
      // The program must be able to start, with options the agent accepts, before anything is
      // written: a batch of runs that never ran would otherwise say "nothing found".
      if (std::string why = check_agent_params(st, batch.str("params")); !why.empty())
        return cli.fail(why);
      if (std::string why = check_java_command(command); !why.empty()) return cli.fail(why);
      json::Value one = batch;  // a batch's runs differ only in numbers
      one.set("runs", json::Value::number(1));
      check_plan_fits(uint64_t(batch.num("runs")), approx_bytes(run_specs(one).at(0)));
      dir.emplace(ResultsDir::create(out, batch));
    }
  } catch (const std::exception& e) {
    return cli.fail(e.what());
  }
  std::vector<RunSpec> specs = run_specs(batch);
  uint64_t seed = std::stoull(batch.str("seed"));
  stop_batches_on_signals();
  std::fprintf(
      stderr,
      "jsched: %zu runs of %s, strategy %s, master seed %llu, %d at a time, results in %s\n",
      specs.size(), specs.empty() ? "" : specs[0].command.back().c_str(),
      batch.str("strategy").c_str(), (unsigned long long)seed, opts.jobs, dir->path().c_str());
  try {
    if (batch.str("strategy") == "tsca") {
      if (opts.shard.count > 1) throw std::runtime_error("tsca batches cannot be sharded");
      run_tsca_batch(batch, *dir, opts);
    } else {
      attach_plans(specs, batch, *dir, opts);
      run_batch(specs, *dir, opts);
    }
  } catch (const std::exception& e) {
    return batch_failed(e, *dir);
  }
  std::string title;
  for (const json::Value& a : batch["command"].items())
    title += (title.empty() ? "" : " ") + a.as_string();
  return finish_batch(*dir, title, {}, seed);
}

}  // namespace jsched
