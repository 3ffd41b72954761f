#include "scheduler/pct/plan_news.h"

#include <algorithm>
#include <unordered_map>

namespace jsched::sched {

namespace {

// Counts vary a little from run to run; PCT's bounds need them to the order of magnitude.
bool well_above(uint64_t seen, uint64_t known) {
  return seen > known + known / 10;
}

}  // namespace

bool teaches(const VariablePlan& known, const VariablePlan& run, bool variable_counts) {
  if (known.runs == 0) return true;
  if (well_above(run.steps, known.steps) || well_above(run.threads, known.threads)) return true;
  for (size_t i = 0; i < run.thread_events.size(); ++i) {
    const uint64_t k = i < known.thread_events.size() ? known.thread_events[i] : 0;
    if (well_above(run.thread_events[i], k) && run.thread_events[i] - k > known.steps / 10)
      return true;
  }
  const bool sharing = known.sharing && run.sharing;
  std::unordered_map<uint64_t, const PlanVariable*> by_id;
  size_t known_sites = 0;
  for (const PlanVariable& v : known.variables) {
    by_id.emplace(v.id(), &v);
    if (!sharing || v.shared) known_sites += v.sites.size();
  }
  size_t new_sites = 0;
  for (const PlanVariable& v : run.variables) {
    if (sharing && !v.shared) continue;
    auto it = by_id.find(v.id());
    if (it == by_id.end()) return true;
    const PlanVariable& k = *it->second;
    if (sharing && !k.shared) return true;
    if (variable_counts && well_above(v.max_accesses, k.max_accesses)) return true;
    for (const std::string& site : v.sites)
      new_sites += !std::binary_search(k.sites.begin(), k.sites.end(), site);
  }
  return new_sites >= std::max<size_t>(1, known_sites / kSitesPerNewSite);
}

}  // namespace jsched::sched
