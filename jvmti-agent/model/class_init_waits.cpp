#include "jvmti-agent/model/class_init_waits.h"

#include <cstring>

#include "classfile/opcodes.h"
#include "jvmti-agent/hooks/frame_method.h"

namespace jsched::agent {

std::optional<InitWait> class_being_initialized(
    jvmtiEnv* jvmti, const std::vector<std::pair<sched::ThreadId, jthread>>& others) {
  std::optional<InitWait> loading;
  for (const auto& [id, t] : others) {
    jvmtiFrameInfo frames[64];
    jint count = 0;
    if (t == nullptr || jvmti->GetStackTrace(t, 0, 64, frames, &count) != JVMTI_ERROR_NONE)
      continue;
    for (jint i = 0; i < count; ++i) {
      // The name first: the class's name is looked up for a <clinit> frame only.
      char* name = nullptr;
      if (jvmti->GetMethodName(frames[i].method, &name, nullptr, nullptr) != JVMTI_ERROR_NONE)
        continue;
      const bool clinit =
          name && (std::strcmp(name, "<clinit>") == 0 || std::strcmp(name, "jsched$clinit") == 0);
      const bool loads = name && std::strncmp(name, "loadClass", 9) == 0;
      jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
      FrameMethod m;
      if (clinit && frame_method(jvmti, frames[i].method, m))
        return InitWait{id, "the initialization of class " + m.cls};
      if (loads && !loading) loading = InitWait{id, "the loading of a class"};
    }
  }
  return loading;
}

bool initializes_class(uint8_t opcode) {
  return opcode == cf::op::getstatic || opcode == cf::op::putstatic ||
         opcode == cf::op::invokestatic || opcode == cf::op::new_;
}

bool may_await_initialization(jint state) {
  const jint other = JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER | JVMTI_THREAD_STATE_WAITING |
                     JVMTI_THREAD_STATE_PARKED | JVMTI_THREAD_STATE_SLEEPING |
                     JVMTI_THREAD_STATE_IN_NATIVE | JVMTI_THREAD_STATE_SUSPENDED;
  return (state & JVMTI_THREAD_STATE_ALIVE) && (state & JVMTI_THREAD_STATE_RUNNABLE) &&
         !(state & other);
}

}  // namespace jsched::agent
