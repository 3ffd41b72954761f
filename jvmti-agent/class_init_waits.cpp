#include "jvmti-agent/class_init_waits.h"

#include "jvmti-agent/frame_method.h"

namespace jsched::agent {

std::vector<InitWait> classes_being_initialized(
    jvmtiEnv* jvmti, const std::vector<std::pair<sched::ThreadId, jthread>>& others) {
  std::vector<InitWait> out;
  for (const auto& [id, t] : others) {
    jvmtiFrameInfo frames[64];
    jint count = 0;
    if (t == nullptr || jvmti->GetStackTrace(t, 0, 64, frames, &count) != JVMTI_ERROR_NONE)
      continue;
    for (jint i = 0; i < count; ++i) {
      FrameMethod m;
      if (frame_method(jvmti, frames[i].method, m) && m.name == "<clinit>")
        out.push_back(InitWait{id, m.cls});
    }
  }
  return out;
}

bool may_await_initialization(jint state) {
  const jint other = JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER | JVMTI_THREAD_STATE_WAITING |
                     JVMTI_THREAD_STATE_PARKED | JVMTI_THREAD_STATE_SLEEPING |
                     JVMTI_THREAD_STATE_IN_NATIVE | JVMTI_THREAD_STATE_SUSPENDED;
  return (state & JVMTI_THREAD_STATE_ALIVE) && (state & JVMTI_THREAD_STATE_RUNNABLE) &&
         !(state & other);
}

}  // namespace jsched::agent
