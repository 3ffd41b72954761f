#include "jvmti-agent/hooks/statements.h"

#include <utility>

#include "jvmti-agent/hooks/frame_method.h"
#include "scheduler/core/fingerprint.h"

namespace jsched::agent {

namespace {
// Method hashes are odd. kTouch and kCheck are hooks too: the checks of statics reset
// (rewriter/static_reset.h), after which a class's initializer may run. kMachinery: see
// FrameMethod::machinery.
constexpr uint64_t kHook = 0, kEntry = 2, kTouch = 4, kCheck = 6, kMachinery = 8;
constexpr uint32_t kTouchCallLength = 3;  // invokestatic
}  // namespace

uint64_t Statements::method_hash(jmethodID m) {
  if (auto it = methods_.find(m); it != methods_.end()) return it->second;
  FrameMethod fm;
  uint64_t h = 1;  // a method the JVM cannot name still counts as one frame
  if (frame_method(jvmti_, m, fm))
    h = fm.hook && fm.name.rfind("jsched$touch$", 0) == 0 ? kTouch
        : fm.hook && fm.name == "jsched$check"            ? kCheck
        : fm.hook                                         ? kHook
        : fm.entry                                        ? kEntry
        : fm.machinery                                    ? kMachinery
                       : sched::hash_string(fm.cls + "." + fm.name + fm.sig) | 1;
  methods_.emplace(m, h);
  return h;
}

uint64_t Statements::current() {
  // The hook's native frame and at most a few shim frames sit above the application's.
  constexpr jint kOurs = 4;
  jvmtiFrameInfo frames[kOurs + 101];
  jint count = 0;
  if (jvmti_->GetStackTrace(nullptr, 0, jint(frames_) + 1 + kOurs, frames, &count) !=
      JVMTI_ERROR_NONE)
    return 0;
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  uint32_t taken = 0;
  std::lock_guard<std::mutex> g(mu_);  // once per statement, not per frame
  // A class initialized again in a later execution has its initializer called from a check;
  // the first time, the JVM calls it at the instruction after a touch, or before entering the
  // method whose entry checks: the frames are named as the first time.
  uint64_t callee = kHook;
  bool under_hook = true;  // the frames above were jsched's (or machinery they called)
  for (jint i = 0; i < count && taken <= frames_; ++i) {
    uint64_t m = method_hash(frames[i].method);
    if (m == kHook || m == kTouch || m == kCheck) {
      callee = m;
      under_hook = true;
      continue;
    }
    if (m == kMachinery && under_hook) continue;
    if (m == kEntry || m == kMachinery) break;
    under_hook = false;
    const uint64_t after = std::exchange(callee, kHook);
    if (after == kCheck && frames[i].location == 0) continue;
    const uint64_t at = uint64_t(frames[i].location) + (after == kTouch ? kTouchCallLength : 0);
    h = sched::mix64(sched::mix64(h ^ m) ^ at);
    ++taken;
  }
  return taken ? h : 0;
}

}  // namespace jsched::agent
