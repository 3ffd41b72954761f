#include "jvmti-agent/virtual_thread_service.h"

#include <mutex>
#include <string_view>
#include <vector>

#include "jvmti-agent/class_filter.h"
#include "jvmti-agent/frame_method.h"

namespace jsched::agent {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// `c` dotted, as frames name classes.
bool jdk_class(std::string_view c) {
  return starts_with(c, "java.") || starts_with(c, "javax.") || starts_with(c, "jdk.") ||
         starts_with(c, "sun.") || starts_with(c, "com.sun.");
}

// Classes whose code starts threads for virtual threads only.
bool service_class(std::string_view c) {
  return c == "java.lang.VirtualThread" || starts_with(c, "java.lang.VirtualThread$") ||
         starts_with(c, "sun.nio.ch.Poller") || starts_with(c, "jdk.internal.misc.CarrierThread");
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

bool serves_virtual_threads(JNIEnv* env, jvmtiEnv* jvmti, const std::string& caller, jthread t) {
  if (!jdk_package(caller)) return false;
  // Absent before JDK 21: FindClass fails, and no thread is one.
  static jclass carrier = [&]() -> jclass {
    jclass c = env->FindClass("jdk/internal/misc/CarrierThread");
    if (c == nullptr) {
      env->ExceptionClear();
      return nullptr;
    }
    return static_cast<jclass>(env->NewGlobalRef(c));
  }();
  if (carrier != nullptr && env->IsInstanceOf(t, carrier)) return true;
  // The JDK frames above the program's own code: a virtual thread the program runs has
  // VirtualThread.run at the bottom of its stack, below the program's frames.
  jvmtiFrameInfo frames[32];
  jint count = 0;
  if (jvmti->GetStackTrace(nullptr, 0, 32, frames, &count) != JVMTI_ERROR_NONE) return false;
  for (jint i = 0; i < count; ++i) {
    FrameMethod m;
    if (!frame_method(jvmti, frames[i].method, m)) continue;
    if (m.hook) continue;
    if (!jdk_class(m.cls)) return false;
    if (service_class(m.cls)) return true;
  }
  return false;
}

}  // namespace jsched::agent
