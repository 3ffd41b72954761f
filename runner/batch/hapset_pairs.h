// HaPSet pairs in run records: each execution's report lists the ordering pairs it
// created; the runner merges them per (program, strategy, repetition) to hand what passing
// executions taught to the next JVM, and per cell for the saturation curve.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "runner/batch/run_record.h"

namespace jsched::runner {

// Runs that learn from each other: the same program, strategy and repetition.
std::string learning_key(const std::string& program, const std::string& strategy,
                         uint32_t repetition);
inline std::string learning_key(const RunSpec& s) {
  return learning_key(s.program, s.strategy, s.repetition);
}
inline std::string learning_key(const RunRecord& r) {
  return learning_key(r.program, r.strategy, r.repetition);
}

bool has_pairs(const RunRecord& r);  // the report carried HaPSet coverage
// Only executions without a finding teach (Wang et al.'s HaPSet paper §3, docs/references.md).
inline bool learns_from(const RunRecord& r) {
  return r.outcome == "ok" && has_pairs(r);
}
void add_pairs(const RunRecord& r, std::set<uint64_t>& into);

// frames= among agent options "k=v,k=v" (the agent's default when absent).
uint32_t frames_of(const std::string& params);

// Pairs known after each execution, in index order: the union of the pairs of the passing
// executions so far (empty when no record carries pairs).
std::vector<uint64_t> saturation(std::vector<const RunRecord*> records);

}  // namespace jsched::runner
