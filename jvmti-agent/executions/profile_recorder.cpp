#include "jvmti-agent/executions/profile_recorder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

namespace jsched::agent {

namespace {

sched::PlanVariable static_variable(const Site& s) {
  sched::PlanVariable v;
  v.kind = sched::PlanVariable::Static;
  v.cls = *s.owner;
  v.member = *s.name;
  return v;
}

}  // namespace

size_t ProfileRecorder::variable(const sched::PlanVariable& v) {
  auto [it, inserted] = index_.try_emplace(v.name(), vars_.size());
  if (inserted) vars_.push_back(v);
  return it->second;
}

std::vector<std::string> ProfileRecorder::superclasses(JNIEnv* env, jobject o) {
  std::vector<std::string> out;
  jclass c = env->GetObjectClass(o);
  for (jclass s = env->GetSuperclass(c); s != nullptr;) {
    char* sig = nullptr;
    if (tags_->GetClassSignature(s, &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
      std::string name(sig + 1, std::strlen(sig) - 2);  // "Lpkg/C;" -> "pkg/C"
      tags_->Deallocate(reinterpret_cast<unsigned char*>(sig));
      if (name != "java/lang/Object") out.push_back(name);
    }
    jclass up = env->GetSuperclass(s);
    env->DeleteLocalRef(s);
    s = up;
  }
  env->DeleteLocalRef(c);
  return out;
}

rw::AccessDecision ProfileRecorder::decide(const rw::SiteInfo& s) const {
  rw::AccessDecision d;
  if (sites_ != nullptr &&
      (rw::is_field_access(s.kind) || s.kind == rw::SiteKind::ArrayLoad ||
       s.kind == rw::SiteKind::ArrayStore) &&
      !sites_->point(s))
    d.kind = never_race_ && never_race_(s) ? rw::AccessDecision::Skip : rw::AccessDecision::Counted;
  return d;
}

void ProfileRecorder::count(size_t var, const Site& site, uint64_t n) {
  vars_[var].max_accesses += n;
  if (&site != last_site_ || var != last_var_) {
    if (touched_.size() < vars_.size()) touched_.resize(vars_.size());
    touched_[var].insert(&site);
    last_site_ = &site;
    last_var_ = var;
  }
}

void ProfileRecorder::touched_by(size_t var, uint64_t thread_bits) {
  if (threads_.size() < vars_.size()) threads_.resize(vars_.size());
  threads_[var] |= thread_bits;
}

namespace {

// The long[] static method `name` of JSchedVariables returns, or nullopt.
std::optional<std::vector<jlong>> java_longs(JNIEnv* env, const char* name) {
  jclass c = env->FindClass("java/lang/JSchedVariables");
  jmethodID m = c ? env->GetStaticMethodID(c, name, "()[J") : nullptr;
  auto a = m ? static_cast<jlongArray>(env->CallStaticObjectMethod(c, m)) : nullptr;
  if (a == nullptr || env->ExceptionCheck()) {
    env->ExceptionClear();
    return std::nullopt;
  }
  std::vector<jlong> t(size_t(env->GetArrayLength(a)));
  env->GetLongArrayRegion(a, 0, jsize(t.size()), t.data());
  env->DeleteLocalRef(a);
  env->DeleteLocalRef(c);
  return t;
}

}  // namespace

bool ProfileRecorder::add_java_sharing(JNIEnv* env) {
  if (sites_ == nullptr) return true;
  std::optional<std::vector<jlong>> got = java_longs(env, "sharing");
  if (!got) return false;
  const std::vector<jlong>& t = *got;
  std::lock_guard<SpinLock> g(mu_);
  for (size_t i = 0; i + 1 < t.size(); i += 2) {
    const Site* at = sites_->get(int32_t(t[i]));
    if (at == nullptr) continue;
    if (t[i + 1] == -1) {  // one of the allocation site's objects: two threads
      auto var = by_site_.find(at);
      if (var != by_site_.end()) touched_by(var->second, 3);
    } else if (is_static(*at)) {
      touched_by(variable(static_variable(*at)), uint64_t(t[i + 1]));
    }
  }
  return true;
}

bool ProfileRecorder::add_java_counts(JNIEnv* env) {
  if (sites_ == nullptr) return true;
  std::optional<std::vector<jlong>> got = java_longs(env, "counts");
  if (!got) return false;
  const std::vector<jlong>& t = *got;
  std::lock_guard<SpinLock> g(mu_);
  for (size_t i = 0; i + 2 < t.size(); i += 3) {
    const Site* at = sites_->get(int32_t(t[i]));
    if (at == nullptr || t[i + 2] <= 0) continue;
    const uint64_t n = uint64_t(t[i + 2]);
    if (t[i + 1] < 0) {  // a static field's instruction
      if (is_static(*at)) vars_[variable(static_variable(*at))].max_accesses += n;
      continue;
    }
    // An object's allocation site, which allocated() made a variable (allocations by
    // uncontrolled threads are not: their objects' accesses go uncounted, as they were).
    auto var = by_site_.find(sites_->get(int32_t(t[i + 1])));
    if (var != by_site_.end()) count(var->second, *at, n);
  }
  return true;
}

void ProfileRecorder::access(JNIEnv* env, jobject o, const Site& site, uint32_t t) {
  if (sites_ != nullptr) return;  // Java counts
  std::lock_guard<SpinLock> g(mu_);
  const uint64_t bit = uint64_t(1) << (t & 63);
  if (is_static(site)) {
    auto it = by_site_.find(&site);
    if (it == by_site_.end()) it = by_site_.emplace(&site, variable(static_variable(site))).first;
    ++vars_[it->second].max_accesses;
    touched_by(it->second, bit);
    return;
  }
  jlong tag = 0;
  if (o == nullptr || tags_->GetTag(o, &tag) != JVMTI_ERROR_NONE || tag <= 0) return;
  (void)env;
  size_t var = size_t(tag) - 1;
  if (var >= vars_.size()) return;
  count(var, site, 1);
  touched_by(var, bit);
}

void ProfileRecorder::allocated(JNIEnv* env, jobject o, const Site& site) {
  std::lock_guard<SpinLock> g(mu_);
  auto it = by_site_.find(&site);
  if (it == by_site_.end()) {
    sched::PlanVariable v;
    v.kind = sched::PlanVariable::New;
    v.cls = *site.cls;
    v.member = *site.method;
    v.method_desc = *site.method_desc;
    v.bci = site.bci;
    v.type = *site.desc;
    if (!v.type.empty() && v.type[0] != '[') v.supers = superclasses(env, o);
    it = by_site_.emplace(&site, variable(v)).first;
  }
  if (sites_ == nullptr) tags_->SetTag(o, jlong(it->second + 1));
}

sched::VariablePlan ProfileRecorder::profile(uint64_t steps, uint32_t threads,
                                             std::vector<uint64_t> thread_events) {
  std::lock_guard<SpinLock> g(mu_);
  sched::VariablePlan p;
  p.runs = 1;
  p.steps = steps;
  p.threads = threads;
  p.thread_events = std::move(thread_events);
  p.sharing = true;
  // Variables never accessed cannot hold a change point.
  for (size_t i = 0; i < vars_.size(); ++i) {
    if (vars_[i].max_accesses == 0) continue;
    sched::PlanVariable v = vars_[i];
    v.shared = i < threads_.size() && std::popcount(threads_[i]) > 1;
    if (i < touched_.size()) {
      for (const Site* s : touched_[i]) v.sites.push_back(plan_site(*s));
      std::sort(v.sites.begin(), v.sites.end());
      v.sites.erase(std::unique(v.sites.begin(), v.sites.end()), v.sites.end());
    }
    p.variables.push_back(std::move(v));
  }
  return p;
}

}  // namespace jsched::agent
