#include "runner/batch/hapset_pairs.h"

#include <algorithm>

#include "scheduler/hapset/hapset_plan.h"

namespace jsched::runner {

std::string learning_key(const std::string& program, const std::string& strategy,
                         uint32_t repetition) {
  return program + '\n' + strategy + '\n' + std::to_string(repetition);
}

bool has_pairs(const RunRecord& r) {
  return r.extra["hapset"]["pairs"].is(json::Value::Array);
}

void add_pairs(const RunRecord& r, std::set<uint64_t>& into) {
  for (const json::Value& p : r.extra["hapset"]["pairs"].items()) {
    uint64_t id;
    if (p.is(json::Value::String) && sched::parse_pair_hex(p.as_string(), id)) into.insert(id);
  }
}

uint32_t frames_of(const std::string& params) {
  uint32_t frames = 5;
  for (const auto& [k, v] : split_params(params)) {
    if (k == "frames") frames = uint32_t(std::strtoul(v.c_str(), nullptr, 10));
  }
  return frames;
}

std::vector<uint64_t> saturation(std::vector<const RunRecord*> records) {
  std::sort(records.begin(), records.end(), [](auto* a, auto* b) { return a->index < b->index; });
  std::vector<uint64_t> curve;
  std::set<uint64_t> known;
  bool any = false;
  for (const RunRecord* r : records) {
    any = any || has_pairs(*r);
    if (learns_from(*r)) add_pairs(*r, known);
    curve.push_back(known.size());
  }
  if (!any) curve.clear();
  return curve;
}

}  // namespace jsched::runner
