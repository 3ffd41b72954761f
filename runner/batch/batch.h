// Running a batch of executions into a results directory: skipping what is already there
// (resume), keeping to a shard, stopping at the first finding if asked, with progress.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "runner/batch/isolation.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/run_record.h"

namespace jsched::runner {

// Ctrl-C or SIGTERM stopped the batch: what finished is recorded, the rest can be resumed.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

// Makes SIGINT and SIGTERM stop a batch (the running JVMs are killed, run_batch throws
// Interrupted) instead of ending jsched before it can say what it recorded.
void stop_batches_on_signals();
bool interrupt_requested();

struct Shard {
  uint32_t index = 0, count = 1;  // shard i of N holds the runs whose index is i modulo N
  bool holds(uint64_t run_index) const { return run_index % count == index; }
  // "i/N" with 0 <= i < N; throws std::invalid_argument.
  static Shard parse(const std::string& text);
};

// Bounds of the runner's numeric options: a batch's runs are numbered in 32 bits, and more
// JVMs at a time than this only thrash.
inline constexpr uint64_t kMaxRuns = 1000000000;
inline constexpr uint64_t kMaxProfileRuns = 100000;
inline constexpr uint64_t kMaxJobs = 1024;
inline constexpr uint64_t kMaxInJvm = 1000000;
inline constexpr uint64_t kMaxTimeoutMs = 7 * 24 * 3600 * 1000ULL;  // a week

struct BatchOptions {
  int jobs = 1;
  bool until_bug = false;  // the first finding stops the batch (other running JVMs killed)
  // The first finding of a cell (program, strategy, repetition) skips the cell's later runs.
  bool until_bug_per_cell = false;
  // With until_bug_per_cell: a (program, strategy) whose first `give_up` repetitions each ran
  // all their runs without its finding starts no other repetition (0: never gives up).
  uint32_t give_up = 0;
  Shard shard;
  std::string agent;
  uint32_t in_jvm = 1;  // executions per JVM (consecutive seeds; see Executor)
  Workdir workdir;      // where each JVM runs (runner/batch/isolation.h)
};

// A batch plans every execution before it runs one: throws std::runtime_error saying so when
// `executions` of `bytes_each` would take more than half the memory the machine has free
// (rather than being killed for it part way).
void check_plan_fits(uint64_t executions, uint64_t bytes_each);

// Returns the number of executions run now.
uint64_t run_batch(const std::vector<RunSpec>& all, ResultsDir& dir, const BatchOptions& opts);

}  // namespace jsched::runner
