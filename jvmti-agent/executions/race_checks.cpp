#include "jvmti-agent/executions/race_checks.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace jsched::agent {

void mark_race_checks(const sched::VariablePlan& plan, const sched::RaceDetector& races,
                      const SiteRegistry& sites, sched::VariablePlan& profile) {
  if (races.saturated()) return;
  // The plan's shared variables: the statics by field, the allocation sites by the accesses
  // their `at` lines name, or by type when they name none (shared_accesses.cpp).
  std::map<std::pair<std::string, std::string>, size_t> statics;
  std::unordered_map<std::string, std::vector<size_t>> at;
  std::vector<size_t> unlisted;
  for (size_t i = 0; i < plan.variables.size(); ++i) {
    const sched::PlanVariable& v = plan.variables[i];
    if (!v.shared) continue;
    if (v.kind == sched::PlanVariable::Static) {
      statics[{v.cls, v.member}] = i;
    } else if (v.sites.empty()) {
      unlisted.push_back(i);
    } else {
      for (const std::string& s : v.sites) at[s].push_back(i);
    }
  }
  std::vector<bool> raced(plan.variables.size(), false);
  for (const sched::Race& r : races.races()) {
    for (int32_t id : {r.first.site, r.second.site}) {
      const Site* s = sites.get(id);
      if (s == nullptr) return;
      if (is_static(*s)) {
        auto it = statics.find({*s->owner, *s->name});
        if (it == statics.end()) return;
        raced[it->second] = true;
        continue;
      }
      auto it = at.find(plan_site(*s));
      if (it != at.end()) {
        for (size_t i : it->second) raced[i] = true;
      } else if (!unlisted.empty()) {
        for (size_t i : unlisted) raced[i] = true;
      } else {
        return;
      }
    }
  }
  std::unordered_map<uint64_t, size_t> in_profile;
  for (size_t i = 0; i < profile.variables.size(); ++i)
    in_profile.emplace(profile.variables[i].id(), i);
  for (size_t i = 0; i < plan.variables.size(); ++i) {
    const sched::PlanVariable& v = plan.variables[i];
    if (!v.shared) continue;
    auto it = in_profile.find(v.id());
    if (it == in_profile.end()) {
      it = in_profile.emplace(v.id(), profile.variables.size()).first;
      profile.variables.push_back(v);
    }
    sched::PlanVariable& mine = profile.variables[it->second];
    mine.shared = true;
    mine.checked = true;
    mine.raced = mine.raced || raced[i];
  }
}

}  // namespace jsched::agent
