#include "jvmti-agent/model/virtual_threads.h"

#include <cstring>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

bool want_virtual_thread_events(jvmtiEnv* jvmti, jvmtiCapabilities& caps) {
  jint version = 0;
  if (jvmti->GetVersionNumber(&version) != JVMTI_ERROR_NONE) return false;
  const jint major = (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
  if (major < 21) return false;
  jvmtiCapabilities probe;
  std::memset(&probe, 0, sizeof probe);
  probe.can_generate_sampled_object_alloc_events = 1;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&probe);
  for (size_t i = 0; i < sizeof probe; ++i) {
    for (int b = 0; b < 8; ++b) {
      if (!(bytes[i] & (1u << b))) continue;
      const size_t next = i * 8 + size_t(b) + 1;  // bit-fields fill from the low bit up
      if (next / 8 >= sizeof caps) return false;
      reinterpret_cast<unsigned char*>(&caps)[next / 8] |=
          static_cast<unsigned char>(1u << (next % 8));
      return true;
    }
  }
  return false;
}

bool is_virtual(JNIEnv* env, jthread t) {
  static const jclass base = optional_class(env, "java/lang/BaseVirtualThread");
  return base != nullptr && t != nullptr && env->IsInstanceOf(t, base);
}

void JNICALL on_virtual_thread_start(jvmtiEnv*, JNIEnv* env, jthread vthread) {
  if (Runtime* rt = runtime()) rt->virtual_thread_started(env, vthread);
}

}  // namespace jsched::agent
