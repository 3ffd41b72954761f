// One execution in a batch: what to run, and what came of it. Records are the lines of
// runs.jsonl in a results directory.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "protocol/json.h"
#include "protocol/outcome.h"

namespace jsched::runner {

struct RunSpec {
  uint64_t index = 0;  // position in the whole batch (stable across shards and resumes)
  std::string program = "main";
  std::string strategy = "random";  // as reports name it (a suite may label variants)
  std::string agent_strategy;       // the agent's strategy=, if different from `strategy`
  std::string params;               // extra agent options of the strategy, "k=v,k=v"
  uint32_t repetition = 0;
  uint32_t run = 0;  // position within (program, strategy, repetition)
  uint64_t seed = 0;
  uint64_t timeout_ms = 10000;
  std::vector<std::string> command;   // java and its arguments, without the agent
  std::vector<std::string> jvm_args;  // JVM options, placed after the agent option
  std::string target;  // the program's bug: text its finding's detail contains ("" = any)
  // A profile run made before the strategy's own runs (runner/batch/profile_phase): its findings
  // are the batch's, its counts are not the strategy's.
  bool profile_run = false;

  // The agent's strategy= for this run.
  const std::string& agent_strategy_name() const {
    return agent_strategy.empty() ? strategy : agent_strategy;
  }
};

// The memory a RunSpec holds (the struct and its strings), about.
uint64_t approx_bytes(const RunSpec& s);

// Agent options "k=v,k=v" as (key, value) pairs, in order.
std::vector<std::pair<std::string, std::string>> split_params(const std::string& params);

struct RunRecord {
  uint64_t index = 0;
  std::string program, strategy;
  uint32_t repetition = 0, run = 0;
  uint64_t seed = 0;
  int exit_status = 0;
  std::string outcome;  // ok, bug, deadlock, hang, error, exit
  std::string detail;   // first lines of the bug or error
  std::string fingerprint;
  uint64_t points = 0;
  double elapsed_ms = 0;
  std::string replay;
  std::string log;    // file with the run's output, kept for runs that found something
  json::Value extra;  // strategy-specific figures (coverage, ...)

  std::string target;        // from the spec: which finding counts as the program's bug
  bool profile_run = false;  // from the spec
  // Any finding.
  bool found() const { return is_finding(outcome); }
  // A run that did not run the program to its end.
  bool errored() const { return outcome == "error" || outcome == "exit" || outcome == "timeout"; }
  // The finding being searched for: first-finding figures and --until-bug count these only.
  bool hit() const {
    return found() && (target.empty() || detail.find(target) != std::string::npos);
  }
  json::Value to_json() const;
  static RunRecord from_json(const json::Value& v);
};

// A seed for run `i` of cell (program, strategy, repetition) derived from the master seed, so
// that any subset of the batch (a shard, a resumed rest) runs exactly the same executions.
uint64_t derive_seed(uint64_t master, const std::string& program, const std::string& strategy,
                     uint32_t repetition, uint32_t run);

// The same for batches that run several executions per JVM (--in-jvm): the agent's iterations
// take consecutive seeds, so run `i` gets the seed of run 0 plus i.
uint64_t consecutive_seed(uint64_t master, const std::string& program, const std::string& strategy,
                          uint32_t repetition, uint32_t run);

// Key under which runs count as the same finding (outcome and the first line of its detail).
std::string finding_key(const RunRecord& r);

}  // namespace jsched::runner
