// Figures over a set of runs, per (program, strategy): outcome counts, runs to first finding
// per repetition, distinct partial orders and their frequencies, distinct findings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/batch/run_record.h"

namespace jsched::runner {

struct CellStats {
  std::string program, strategy;
  uint64_t runs = 0;
  std::map<std::string, uint64_t> outcomes;
  // What the profile runs before the strategy's runs found (bug, deadlock, hang): findings of
  // the batch, though not of the strategy's runs, whose figures the other fields are.
  std::map<std::string, uint64_t> profile_findings;
  std::vector<std::optional<uint32_t>> first_finding;  // by repetition: 1-based run number
  std::map<std::string, uint64_t> partial_orders;      // fingerprint -> runs
  std::map<std::string, const RunRecord*> findings;    // finding key -> first run
  double total_ms = 0;
  uint64_t hits = 0;          // runs that found the program's bug (RunRecord::hit)
  uint64_t profile_hits = 0;  // profile runs that did
  bool targeted = false;      // the program names its bug (<program finding=...>)
  // HaPSet pairs known after each run, in index order (empty: no run reported coverage).
  std::vector<uint64_t> hapset_curve;

  uint64_t found_runs() const;
  uint64_t profile_found() const;
  // Anything found, in a profile run too.
  bool found() const { return found_runs() + profile_found() > 0; }
  // Runs, profile runs included, that ended in `outcome`.
  uint64_t with_outcome(const std::string& outcome) const;
  // Runs that did not run the program to its end (outcome "error"; "exit" in older records).
  // Runs that did not run the program to its end: errors, exits, and timeouts (still making
  // steps when their time budget ran out: slow, not hung; no verdict either way).
  uint64_t error_runs() const;
  // Found nothing, and some runs did not run to the end: no verdict on the program.
  bool errored_only() const { return error_runs() > 0 && !found(); }
  // Over repetitions that found something.
  std::optional<double> mean_first() const;
  std::optional<double> stddev_first() const;
  // Partial-order frequencies, most frequent first.
  std::vector<uint64_t> order_frequencies() const;
};

// Records must outlive the result (findings point into them). Cells come out in first-seen
// order of (program, strategy).
std::vector<CellStats> aggregate(const std::vector<RunRecord>& records);

}  // namespace jsched::runner
