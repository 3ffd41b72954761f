#include "jvmti-agent/model/virtual_thread_service.h"

#include <mutex>
#include <string_view>
#include <vector>

#include "jvmti-agent/hooks/frame_method.h"
#include "jvmti-agent/instrumentation/class_filter.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/model/virtual_threads.h"

namespace jsched::agent {
namespace {

// Classes (dotted, as frames name them) whose code starts threads for virtual threads only.
bool service_class(std::string_view c) {
  return c == "java.lang.VirtualThread" || c.starts_with("java.lang.VirtualThread$") ||
         c.starts_with("sun.nio.ch.Poller") || c.starts_with("jdk.internal.misc.CarrierThread");
}

std::mutex g_service_mu;
std::vector<jweak> g_service;  // weak: an ended one is collected

}  // namespace

void remember_service_thread(JNIEnv* env, jthread t) {
  std::lock_guard<std::mutex> g(g_service_mu);
  g_service.push_back(env->NewWeakGlobalRef(t));
}

bool is_service_thread(JNIEnv* env, jthread t) {
  std::lock_guard<std::mutex> g(g_service_mu);
  for (jweak w : g_service) {
    if (env->IsSameObject(w, t)) return true;
  }
  return false;
}

bool runs_for_virtual_threads(JNIEnv* env, jvmtiEnv* jvmti, jthread t) {
  // Found at VM init where virtual threads exist (virtual_threads.h), else null.
  const jclass holder_class = thread_field_holder();
  if (t == nullptr || holder_class == nullptr) return false;
  static const jfieldID holder =
      env->GetFieldID(refs().Thread, "holder", "Ljava/lang/Thread$FieldHolder;");
  static const jfieldID task = env->GetFieldID(holder_class, "task", "Ljava/lang/Runnable;");
  if (holder == nullptr || task == nullptr) return env->ExceptionClear(), false;
  jobject h = env->GetObjectField(t, holder);
  jobject r = h ? env->GetObjectField(h, task) : nullptr;
  jclass c = r ? env->GetObjectClass(r) : nullptr;
  char* sig = nullptr;
  bool serves = false;
  if (c && jvmti->GetClassSignature(c, &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
    std::string name(sig);  // Ljava/lang/VirtualThread$$Lambda.0x...;
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
    if (name.size() > 2) name = name.substr(1, name.size() - 2);
    for (char& ch : name)
      if (ch == '/') ch = '.';
    serves = service_class(name);
  }
  for (jobject o : {jobject(c), r, h})
    if (o) env->DeleteLocalRef(o);
  return serves;
}

bool serves_virtual_threads(JNIEnv* env, jvmtiEnv* jvmti, const std::string& caller, jthread t) {
  if (!jdk_package(caller)) return false;
  if (is_carrier(env, t)) return true;
  // The JDK frames above the program's own code: a virtual thread the program runs has
  // VirtualThread.run at the bottom of its stack, below the program's frames.
  jvmtiFrameInfo frames[32];
  jint count = 0;
  if (jvmti->GetStackTrace(nullptr, 0, 32, frames, &count) != JVMTI_ERROR_NONE) return false;
  for (jint i = 0; i < count; ++i) {
    FrameMethod m;
    if (!frame_method(jvmti, frames[i].method, m)) continue;
    if (m.hook) continue;
    if (!jdk_package(m.cls, '.')) return false;
    if (service_class(m.cls)) return true;
  }
  return false;
}

}  // namespace jsched::agent
