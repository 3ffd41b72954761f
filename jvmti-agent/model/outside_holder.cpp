#include "jvmti-agent/model/outside_holder.h"

#include "jvmti-agent/executions/runtime.h"

namespace jsched::agent {

bool held_outside(jvmtiEnv* jvmti, Runtime& rt, jobject monitor) {
  if (monitor == nullptr) return false;
  jvmtiMonitorUsage usage{};
  if (jvmti->GetObjectMonitorUsage(monitor, &usage) != JVMTI_ERROR_NONE) return false;
  const bool outside = usage.owner == nullptr || rt.thread_of(usage.owner) == sched::kNoThread;
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
  return outside;
}

bool blocked_on_outside_monitor(jvmtiEnv* jvmti, Runtime& rt, jthread t) {
  jobject monitor = nullptr;
  if (jvmti->GetCurrentContendedMonitor(t, &monitor) != JVMTI_ERROR_NONE || monitor == nullptr)
    return false;
  return held_outside(jvmti, rt, monitor);
}

}  // namespace jsched::agent
