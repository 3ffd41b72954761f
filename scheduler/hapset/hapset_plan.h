// The HaPSet plan (agent option `plan=` with strategy=hapset): the ordering pairs
// passing executions have shown, as the runner merges them from its workers and shards.
//
// File format (text, one item per line):
//   jsched-hapset 1
//   frames <calling frames per statement>     (pairs of different depths never match)
//   pair <16 hex digits>                      (pair_id, zero or more lines)
//   end
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/pct/variable_plan.h"

namespace jsched::sched {

struct HapsetPlan {
  uint32_t frames = 5;
  std::vector<uint64_t> pairs;

  void write(const std::string& path) const;  // throws PlanError
  // Throws PlanError "FILE:LINE: reason".
  static HapsetPlan read(const std::string& path);
  // Whether the file starts like a HaPSet plan (false when it cannot be read).
  static bool is_one(const std::string& path);
};

// Pair ids as reports and plans write them.
std::string pair_hex(uint64_t id);
bool parse_pair_hex(const std::string& s, uint64_t& id);

}  // namespace jsched::sched
