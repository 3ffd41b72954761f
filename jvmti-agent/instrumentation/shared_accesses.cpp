#include "jvmti-agent/instrumentation/shared_accesses.h"

#include <algorithm>

namespace jsched::agent {

SharedAccesses::SharedAccesses(const sched::VariablePlan& plan, const rw::AccessFilter& other,
                               IsFinal is_final)
    : other_(other), is_final_(std::move(is_final)) {
  for (const sched::PlanVariable& v : plan.variables) {
    // A variable the profile's race checks saw only handed over: its synchronization's points
    // order every access of another thread (shared_accesses.h).
    if (!v.shared || v.handed_over()) continue;
    if (v.kind == sched::PlanVariable::Static) {
      statics_.emplace(v.cls, v.member);
    } else {
      objects_.push_back(v);
      sites_.insert(v.sites.begin(), v.sites.end());
    }
  }
}

bool SharedAccesses::touches_shared(const rw::SiteInfo& s) const {
  using K = rw::SiteKind;
  if (s.kind == K::GetStatic || s.kind == K::PutStatic)
    return statics_.count({std::string(s.owner), std::string(s.name)}) > 0;
  const bool field = s.kind == K::GetField || s.kind == K::PutField;
  if (!field && s.kind != K::ArrayLoad && s.kind != K::ArrayStore) return false;
  if (sites_.count(std::string(s.cls) + " " + std::string(s.method) + " " +
                   std::string(s.method_desc) + " " + std::to_string(s.bci)))
    return true;
  // A shared allocation site whose accesses the plan does not list: any access that could
  // touch its objects.
  return std::any_of(objects_.begin(), objects_.end(), [&](const sched::PlanVariable& v) {
    if (!v.sites.empty()) return false;
    if (!field) return rw::element_matches(v.type, s.desc);
    return v.type == s.owner ||
           std::find(v.supers.begin(), v.supers.end(), s.owner) != v.supers.end();
  });
}

rw::AccessDecision SharedAccesses::decide(const rw::SiteInfo& s) const {
  // A final field's value cannot race, but a reference read from one is how a thread reaches
  // what it refers to: a HashMap or an array whose code the agent does not see into, where
  // a get and a put of two threads interleave. A final number is only a value.
  if (s.method != "<clinit>" && touches_shared(s) &&
      !(rw::reads_a_value(s) && is_final_(std::string(s.owner), std::string(s.name))))
    return rw::AccessDecision{rw::AccessDecision::Point, 0};
  return other_.decide(s);
}

}  // namespace jsched::agent
