#include "jvmti-agent/instrumentation/shared_accesses.h"

#include <algorithm>

namespace jsched::agent {

namespace {

// A read that loads an object, from a field or an array: through it a thread reaches code that
// may have no points of its own (a HashMap's), where two threads' calls interleave unseen.
bool loads_an_object(const rw::SiteInfo& s) {
  return rw::reads_an_object(s) ||
         (s.kind == rw::SiteKind::ArrayLoad && !s.desc.empty() && s.desc[0] == 'L');
}

}  // namespace

void SharedAccesses::Variables::add(const sched::PlanVariable& v) {
  if (v.kind == sched::PlanVariable::Static) {
    statics.emplace(v.cls, v.member);
  } else {
    objects.push_back(v);
    sites.insert(v.sites.begin(), v.sites.end());
  }
}

SharedAccesses::SharedAccesses(const sched::VariablePlan& plan, const rw::AccessFilter& other,
                               IsFinal is_final)
    : other_(other), is_final_(std::move(is_final)) {
  for (const sched::PlanVariable& v : plan.variables) {
    if (!v.shared) continue;
    // A variable the profile's race checks saw only handed over: its synchronization's points
    // order every access of another thread (shared_accesses.h).
    (v.handed_over() ? handed_ : raced_).add(v);
  }
}

bool SharedAccesses::Variables::touch(const rw::SiteInfo& s) const {
  using K = rw::SiteKind;
  if (s.kind == K::GetStatic || s.kind == K::PutStatic)
    return statics.count({std::string(s.owner), std::string(s.name)}) > 0;
  const bool field = s.kind == K::GetField || s.kind == K::PutField;
  if (!field && s.kind != K::ArrayLoad && s.kind != K::ArrayStore) return false;
  if (sites.count(rw::plan_site(s))) return true;
  // A shared allocation site whose accesses the plan does not list: any access that could
  // touch its objects.
  return std::any_of(objects.begin(), objects.end(), [&](const sched::PlanVariable& v) {
    if (!v.sites.empty()) return false;
    if (!field) return rw::element_matches(v.type, s.desc);
    return v.type == s.owner ||
           std::find(v.supers.begin(), v.supers.end(), s.owner) != v.supers.end();
  });
}

bool SharedAccesses::reaches_only(const rw::SiteInfo& s) const {
  return loads_an_object(s) && handed_.touch(s) && !raced_.touch(s);
}

rw::AccessDecision SharedAccesses::decide(const rw::SiteInfo& s) const {
  if (s.method == "<clinit>") return other_.decide(s);
  // A final field's value cannot race, but a reference read from one is how a thread reaches
  // what it refers to: a HashMap or an array whose code the agent does not see into, where
  // a get and a put of two threads interleave. A final number is only a value. So is an
  // object read from a variable only handed over: the read itself races with nothing, what
  // it reaches may.
  const bool value = rw::reads_a_value(s) && is_final_(std::string(s.owner), std::string(s.name));
  if ((raced_.touch(s) && !value) || (loads_an_object(s) && handed_.touch(s)))
    return rw::AccessDecision{rw::AccessDecision::Point, 0};
  return other_.decide(s);
}

}  // namespace jsched::agent
