#include "jvmti-agent/executions/variable_tracker.h"

#include <algorithm>

namespace jsched::agent {

namespace {

jfieldID static_field(JNIEnv* env, jclass owner, const char* name, const char* sig) {
  jfieldID f = env->GetStaticFieldID(owner, name, sig);
  if (f == nullptr) env->ExceptionClear();
  return f;
}

}  // namespace

VariableTracker::VariableTracker(const sched::VariablePlan& plan, const sched::PctStrategy& pct) {
  for (uint64_t id : pct.chosen_variables()) {
    long i = plan.find(id);
    if (i < 0) continue;
    Slot s;
    s.var = plan.variables[size_t(i)];
    s.exclusive = plan.exclusive_type(size_t(i));
    s.points = pct.change_points_of(id);
    slots_.push_back(std::move(s));
  }
  ask_ = slots_.size() > 31;
  if (ask_) {
    for (Slot& s : slots_) s.exclusive = false;
  }
}

int32_t VariableTracker::mask_of(const std::function<bool(const Slot&)>& match) const {
  bool any = false;
  int32_t mask = 0;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!match(slots_[i])) continue;
    any = true;
    if (!ask_) mask |= int32_t(1u << i);
  }
  return any ? mask : -1;
}

rw::AccessDecision VariableTracker::decide(const rw::SiteInfo& s) const {
  rw::AccessDecision d = decide_tracked(s);
  if (d.kind == rw::AccessDecision::Default && untracked_) return untracked_->decide(s);
  return d;
}

rw::AccessDecision VariableTracker::decide_tracked(const rw::SiteInfo& s) const {
  using K = rw::SiteKind;
  using D = rw::AccessDecision;
  // An allocation site's objects, at an instruction that touched them in a profile run (any
  // instruction when the plan does not say).
  std::string here;
  const auto is_new = [&](const Slot& x) {
    if (x.var.kind != sched::PlanVariable::New) return false;
    if (x.var.sites.empty()) return true;
    if (here.empty()) here = rw::plan_site(s);
    return std::binary_search(x.var.sites.begin(), x.var.sites.end(), here);
  };
  switch (s.kind) {
    case K::GetStatic:
    case K::PutStatic:
      for (size_t i = 0; i < slots_.size(); ++i) {
        const sched::PlanVariable& v = slots_[i].var;
        if (v.kind == sched::PlanVariable::Static && v.cls == s.owner && v.member == s.name) {
          return D{D::TrackedStatic, int32_t(i)};
        }
      }
      return D{};
    case K::GetField:
    case K::PutField: {
      int32_t mask = mask_of([&](const Slot& x) {
        return is_new(x) &&
               (x.var.type == s.owner ||
                std::find(x.var.supers.begin(), x.var.supers.end(), s.owner) != x.var.supers.end());
      });
      return mask < 0 ? D{} : D{D::TrackedObject, mask};
    }
    case K::ArrayLoad:
    case K::ArrayStore: {
      int32_t mask = mask_of(
          [&](const Slot& x) { return is_new(x) && rw::element_matches(x.var.type, s.desc); });
      return mask < 0 ? D{} : D{D::TrackedObject, mask};
    }
    case K::AllocObject:
    case K::AllocArray:
      for (size_t i = 0; i < slots_.size(); ++i) {
        const sched::PlanVariable& v = slots_[i].var;
        if (v.kind == sched::PlanVariable::New && v.cls == s.cls && v.member == s.method &&
            v.method_desc == s.method_desc && v.bci == s.bci) {
          return D{D::TrackedAlloc, int32_t(i)};
        }
      }
      return D{};
    default:
      return D{};
  }
}

bool VariableTracker::init_java(JNIEnv* env, jclass owner) {
  const jsize n = jsize(slots_.size());
  jclass vars = env->FindClass("java/lang/JSchedVariables");
  if (vars == nullptr) return false;
  counters_ = static_cast<jclass>(env->NewGlobalRef(vars));
  jfieldID next_f = static_field(env, counters_, "jschedNextPoint", "[J");
  auto next =
      next_f ? static_cast<jlongArray>(env->GetStaticObjectField(counters_, next_f)) : nullptr;
  jbooleanArray exclusive = env->NewBooleanArray(n);
  jobjectArray types = env->NewObjectArray(n, env->FindClass("java/lang/Class"), nullptr);
  if (!next || env->GetArrayLength(next) < n || !exclusive || !types) return false;
  for (jsize i = 0; i < n; ++i) {
    const Slot& s = slots_[size_t(i)];
    jlong first = s.points.empty() ? 0 : jlong(s.points.front().first);
    env->SetLongArrayRegion(next, i, 1, &first);
    jboolean ex = s.exclusive ? JNI_TRUE : JNI_FALSE;
    env->SetBooleanArrayRegion(exclusive, i, 1, &ex);
  }
  struct {
    const char* name;
    const char* sig;
    jobject value;
  } fields[] = {{"jschedExclusive", "[Z", exclusive}, {"jschedType", "[Ljava/lang/Class;", types}};
  for (const auto& f : fields) {
    jfieldID id = static_field(env, owner, f.name, f.sig);
    if (id == nullptr) return false;
    env->SetStaticObjectField(owner, id, f.value);
  }
  return !env->ExceptionCheck();
}

VariableTracker::Handover VariableTracker::handover(JNIEnv* env, int32_t slot) {
  Handover h;
  if (slot < 0 || size_t(slot) >= slots_.size() || counters_ == nullptr) return h;
  jfieldID count_f = static_field(env, counters_, "jschedCount", "[J");
  jfieldID next_f = static_field(env, counters_, "jschedNextPoint", "[J");
  jfieldID switch_f = static_field(env, counters_, "jschedSwitch", "Z");
  if (!count_f || !next_f || !switch_f) return h;
  auto count = static_cast<jlongArray>(env->GetStaticObjectField(counters_, count_f));
  auto next = static_cast<jlongArray>(env->GetStaticObjectField(counters_, next_f));
  jlong j = 0, at = 0;
  env->GetLongArrayRegion(count, slot, 1, &j);
  env->GetLongArrayRegion(next, slot, 1, &at);
  if (env->GetStaticBooleanField(counters_, switch_f)) {
    h.switch_now = true;
    env->SetStaticBooleanField(counters_, switch_f, JNI_FALSE);
  }
  if (j == at && at != 0) {
    const auto& pts = slots_[size_t(slot)].points;
    auto it = std::lower_bound(pts.begin(), pts.end(), std::make_pair(uint64_t(j), uint32_t(0)));
    if (it != pts.end() && it->first == uint64_t(j)) {
      h.change_point = true;
      h.index = it->second;
      ++it;
    }
    jlong following = it == pts.end() ? 0 : jlong(it->first);
    env->SetLongArrayRegion(next, slot, 1, &following);
  }
  env->DeleteLocalRef(count);
  env->DeleteLocalRef(next);
  return h;
}

void VariableTracker::request_switch(JNIEnv* env) {
  if (jfieldID f = counters_ ? static_field(env, counters_, "jschedSwitch", "Z") : nullptr)
    env->SetStaticBooleanField(counters_, f, JNI_TRUE);
}

std::vector<uint64_t> VariableTracker::counts(JNIEnv* env) const {
  std::vector<uint64_t> out;
  // Accesses counted per instruction, not yet per slot (JSchedVariables.LAZY), first.
  jmethodID flush = counters_ ? env->GetStaticMethodID(counters_, "flushTracked", "()V") : nullptr;
  if (flush == nullptr) return out;
  env->CallStaticVoidMethod(counters_, flush);
  if (env->ExceptionCheck()) {
    env->ExceptionClear();
    return out;
  }
  jfieldID f = static_field(env, counters_, "jschedCount", "[J");
  auto a = f ? static_cast<jlongArray>(env->GetStaticObjectField(counters_, f)) : nullptr;
  if (a == nullptr) return out;
  std::vector<jlong> n(std::min(slots_.size(), size_t(env->GetArrayLength(a))));
  env->GetLongArrayRegion(a, 0, jsize(n.size()), n.data());
  env->DeleteLocalRef(a);
  for (jlong x : n) out.push_back(uint64_t(x));
  return out;
}

std::vector<std::string> VariableTracker::names() const {
  std::vector<std::string> out;
  for (const Slot& s : slots_) out.push_back(s.var.name());
  return out;
}

}  // namespace jsched::agent
