#include "runner/batch/batch.h"

#include <signal.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "runner/batch/executor.h"
#include "runner/batch/hapset_pairs.h"
#include "runner/batch/progress.h"
#include "scheduler/hapset/hapset_plan.h"

namespace jsched::runner {

namespace {
volatile sig_atomic_t g_interrupt = 0;
void on_signal(int) {
  g_interrupt = 1;
}
}  // namespace

void stop_batches_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a wait returns at once
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool interrupt_requested() {
  return g_interrupt != 0;
}

namespace {
// --give-up: per repetition of each (program, strategy), how many runs it has, how many ran,
// and whether one found the program's bug.
class GiveUp {
 public:
  GiveUp(const std::vector<RunSpec>& all, uint32_t first) : first_(first) {
    if (first_)
      for (const RunSpec& s : all) ++size_[key(s.program, s.strategy, s.repetition)];
  }
  void recorded(const RunRecord& r) {
    if (!first_) return;
    std::string k = key(r.program, r.strategy, r.repetition);
    ++ran_[k];
    started_.insert(k);
    if (r.hit()) found_.insert(k);
  }
  void started(const RunSpec& s) {
    if (first_) started_.insert(key(s.program, s.strategy, s.repetition));
  }
  // A repetition that has not started, of a cell whose first repetitions all missed. One that
  // started runs to its end, so that every repetition counted is a whole experiment.
  bool skips(const RunSpec& s) const {
    if (!first_ || s.repetition < first_ ||
        started_.count(key(s.program, s.strategy, s.repetition)))
      return false;
    for (uint32_t rep = 0; rep < first_; ++rep) {
      std::string k = key(s.program, s.strategy, rep);
      auto size = size_.find(k), ran = ran_.find(k);
      if (size == size_.end() || ran == ran_.end() || ran->second < size->second || found_.count(k))
        return false;
    }
    return true;
  }

 private:
  static std::string key(const std::string& program, const std::string& strategy, uint32_t rep) {
    return program + '\n' + strategy + '\n' + std::to_string(rep);
  }
  uint32_t first_;
  std::map<std::string, uint64_t> size_, ran_;
  std::set<std::string> started_, found_;
};
}  // namespace

void check_plan_fits(uint64_t executions, uint64_t bytes_each) {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") break;
    meminfo.ignore(64, '\n');
    kib = 0;
  }
  if (kib == 0) return;  // not Linux, or no figure: nothing to go by
  const double need = double(executions) * double(bytes_each), free = double(kib) * 1024;
  if (need <= free / 2) return;
  char msg[256];
  std::snprintf(msg, sizeof msg,
                "a batch of %llu executions needs about %.1f GB to plan, and this machine has "
                "%.1f GB free: give it fewer runs, repetitions, programs or strategies",
                (unsigned long long)executions, need / 1e9, free / 1e9);
  throw std::runtime_error(msg);
}

Shard Shard::parse(const std::string& text) {
  size_t slash = text.find('/');
  Shard s;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    s.index = uint32_t(std::stoul(text.substr(0, slash)));
    s.count = uint32_t(std::stoul(text.substr(slash + 1)));
  } catch (const std::exception&) {
    throw std::invalid_argument("--shard wants i/N, e.g. 0/4, not '" + text + "'");
  }
  if (s.count == 0 || s.index >= s.count) {
    throw std::invalid_argument("--shard " + text + ": need 0 <= i < N");
  }
  return s;
}

uint64_t run_batch(const std::vector<RunSpec>& all, ResultsDir& dir, const BatchOptions& opts) {
  std::set<uint64_t> done = dir.done_indices();
  std::vector<RunSpec> todo;
  uint64_t in_shard = 0;
  for (const RunSpec& s : all) {
    // Runs that learn from the runs before them stay together: a shard holds whole repetitions.
    if (!opts.shard.holds(learns(s) ? s.index - s.run : s.index)) continue;
    ++in_shard;
    if (!done.count(s.index)) todo.push_back(s);
  }
  std::set<std::string> orders, kinds, found_cells, errors;
  auto cell = [](const std::string& program, const std::string& strategy, uint32_t rep) {
    return program + '\n' + strategy + '\n' + std::to_string(rep);
  };
  uint64_t findings = 0;
  GiveUp give_up(all, opts.until_bug_per_cell ? opts.give_up : 0);
  for (const RunRecord& r : dir.records()) {
    if (!r.fingerprint.empty()) orders.insert(r.fingerprint);
    if (r.found()) {
      ++findings;
      kinds.insert(finding_key(r));
    }
    // A profile run's finding does not end the strategy's runs (it did not when it was made).
    if (r.profile_run) continue;
    give_up.recorded(r);
    if (r.hit()) found_cells.insert(cell(r.program, r.strategy, r.repetition));
  }
  if (opts.until_bug && !found_cells.empty()) return 0;
  // HaPSet learning: the pairs of the passing executions of each (program, strategy,
  // repetition), handed to its next JVM as a plan.
  std::map<std::string, std::set<uint64_t>> learned;
  for (const RunRecord& r : dir.records()) {
    if (learns_from(r)) add_pairs(r, learned[learning_key(r)]);
  }
  auto before = [&](const std::vector<RunSpec>& group) -> std::string {
    const RunSpec& s = group.front();
    if (!learns(s)) return "";
    const std::set<uint64_t>& pairs = learned[learning_key(s)];
    if (pairs.empty()) return "";
    sched::HapsetPlan plan;
    plan.frames = frames_of(s.params);
    plan.pairs.assign(pairs.begin(), pairs.end());
    std::string path = dir.work_dir() + "/hapset-" + std::to_string(s.index) + ".plan";
    plan.write(path);
    return "plan=" + path;
  };
  Progress progress(in_shard, in_shard - todo.size());
  uint64_t finished = in_shard - todo.size(), ran = 0;
  Executor ex(opts.jobs, opts.agent, dir.work_dir(), opts.in_jvm);
  ex.stop_at_first_finding(opts.until_bug || opts.until_bug_per_cell);
  ex.isolate(opts.workdir);
  auto skip = [&](const RunSpec& s) {
    bool found =
        opts.until_bug_per_cell && found_cells.count(cell(s.program, s.strategy, s.repetition));
    if (!found && !give_up.skips(s)) {
      give_up.started(s);
      return false;
    }
    ++finished;  // counts as done for the progress line
    return true;
  };
  ex.run(
      todo,
      [&](RunRecord&& r) {
        ++finished;
        // A cell that found its bug records nothing after it (the JVM of later runs was
        // already running): the table counts runs up to the finding.
        if (opts.until_bug_per_cell && found_cells.count(cell(r.program, r.strategy, r.repetition)))
          return true;
        ++ran;
        give_up.recorded(r);
        if (!r.fingerprint.empty()) orders.insert(r.fingerprint);
        // A line for the first run of each distinct finding; the rest show in the counts.
        std::string note;
        if (r.found()) {
          ++findings;
          if (r.hit()) found_cells.insert(cell(r.program, r.strategy, r.repetition));
          if (kinds.insert(finding_key(r)).second) {
            note = r.program + " (" + r.strategy + ", seed " + std::to_string(r.seed) +
                   "): " + r.outcome + ": " + r.detail.substr(0, r.detail.find('\n'));
          }
        } else if (r.outcome == "error" &&
                   errors.insert(r.detail.substr(0, r.detail.find('\n'))).second) {
          // Once per reason: a program that cannot start would otherwise print it every run.
          note = r.program + " (" + r.strategy + ", seed " + std::to_string(r.seed) +
                 "): error: " + r.detail.substr(0, r.detail.find('\n'));
        }
        bool stop = opts.until_bug && r.hit();
        if (learns_from(r)) add_pairs(r, learned[learning_key(r)]);
        dir.add(std::move(r));
        progress.update(finished, findings, orders.size(), note);
        return !stop;
      },
      skip, before);
  progress.finish();
  return ran;
}

}  // namespace jsched::runner
