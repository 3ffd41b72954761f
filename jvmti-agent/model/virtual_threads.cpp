#include "jvmti-agent/model/virtual_threads.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>

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

namespace {
// Null before find_virtual_thread_classes, and on JDKs before 21.
std::atomic<jclass> g_base_virtual{nullptr}, g_carrier{nullptr}, g_field_holder{nullptr};
}  // namespace

void find_virtual_thread_classes(jvmtiEnv* jvmti, JNIEnv* env) {
  jint version = 0;
  if (jvmti->GetVersionNumber(&version) != JVMTI_ERROR_NONE ||
      ((version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR) < 21)
    return;
  g_base_virtual = optional_class(env, "java/lang/BaseVirtualThread");
  g_carrier = optional_class(env, "jdk/internal/misc/CarrierThread");
  g_field_holder = optional_class(env, "java/lang/Thread$FieldHolder");
}

jclass thread_field_holder() {
  return g_field_holder.load(std::memory_order_relaxed);
}

bool virtual_threads_exist() {
  return g_base_virtual.load(std::memory_order_relaxed) != nullptr;
}

bool is_virtual(JNIEnv* env, jthread t) {
  const jclass base = g_base_virtual.load(std::memory_order_relaxed);
  return base != nullptr && t != nullptr && env->IsInstanceOf(t, base);
}

bool is_carrier(JNIEnv* env, jthread t) {
  const jclass carrier = g_carrier.load(std::memory_order_relaxed);
  return carrier != nullptr && t != nullptr && env->IsInstanceOf(t, carrier);
}

void JNICALL on_virtual_thread_start(jvmtiEnv*, JNIEnv* env, jthread vthread) {
  Runtime::on_carrier();  // whatever made the carrier (a scheduler of the JDK's own)
  Runtime::any_thread_started(env, vthread);
}

void JNICALL on_virtual_thread_end(jvmtiEnv*, JNIEnv* env, jthread vthread) {
  Runtime::any_thread_ended(env, vthread);
}

namespace {
std::atomic<int> g_alive{0};     // virtual threads of the model started and not ended
std::atomic<int> g_carriers{0};  // the parallelism set last (0: not yet)
std::atomic<bool> g_user_set{false};
std::mutex g_carriers_mu;
}  // namespace

void carrier_wanted(JNIEnv* env) {
  const int alive = ++g_alive;
  // A few spare: the thread that starts one may itself be virtual, and FJP keeps one back.
  constexpr int kSpare = 4, kMost = 32767;
  if (g_user_set.load() || alive + kSpare <= g_carriers.load()) return;
  std::lock_guard<std::mutex> g(g_carriers_mu);
  if (alive + kSpare <= g_carriers.load()) return;
  static jobject pool = [env]() -> jobject {
    jclass vt = env->FindClass("java/lang/VirtualThread");
    jfieldID f =
        vt ? env->GetStaticFieldID(vt, "DEFAULT_SCHEDULER", "Ljava/util/concurrent/ForkJoinPool;")
           : nullptr;
    jobject p = f ? env->GetStaticObjectField(vt, f) : nullptr;
    env->ExceptionClear();
    return p ? env->NewGlobalRef(p) : nullptr;
  }();
  static jmethodID set = [env]() -> jmethodID {
    jclass fjp = env->FindClass("java/util/concurrent/ForkJoinPool");
    jmethodID m = fjp ? env->GetMethodID(fjp, "setParallelism", "(I)I") : nullptr;
    env->ExceptionClear();
    return m;
  }();
  if (pool == nullptr || set == nullptr) return;
  const int want = std::min(kMost, std::max(2 * (alive + kSpare), 64));
  env->CallIntMethod(pool, set, want);
  if (env->ExceptionCheck()) {
    env->ExceptionClear();
    return;
  }
  g_carriers.store(want);
}

void carrier_freed() {
  --g_alive;
}

void one_carrier_each(JNIEnv* env, bool verbose) {
  if (g_base_virtual.load() == nullptr) return;  // before JDK 21
  jclass system = env->FindClass("java/lang/System");
  jmethodID get = system ? env->GetStaticMethodID(system, "getProperty",
                                                  "(Ljava/lang/String;)Ljava/lang/String;")
                         : nullptr;
  jmethodID set =
      system ? env->GetStaticMethodID(system, "setProperty",
                                      "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;")
             : nullptr;
  if (get == nullptr || set == nullptr) {
    env->ExceptionClear();
    return;
  }
  // The fork-join pool's limit: a carrier for each live virtual thread of the model, up to it.
  const char* most = "32767";
  jstring value = env->NewStringUTF(most);
  for (const char* name :
       {"jdk.virtualThreadScheduler.parallelism", "jdk.virtualThreadScheduler.maxPoolSize"}) {
    jstring key = env->NewStringUTF(name);
    if (auto had = static_cast<jstring>(env->CallStaticObjectMethod(system, get, key))) {
      const char* chars = env->GetStringUTFChars(had, nullptr);
      log_line(std::string("warning: ") + name + "=" + (chars ? chars : "?") +
               " kept: a virtual thread of the model holds its carrier while it waits for its "
               "turn, so more live virtual threads than carriers may hang the run");
      if (chars) env->ReleaseStringUTFChars(had, chars);
      g_user_set = true;
    } else if (std::string_view(name).ends_with("maxPoolSize")) {
      env->CallStaticObjectMethod(system, set, key, value);
      if (verbose) log_line(std::string("set ") + name + "=" + most);
    }
    env->ExceptionClear();
    env->DeleteLocalRef(key);
  }
  env->DeleteLocalRef(value);
}

}  // namespace jsched::agent
