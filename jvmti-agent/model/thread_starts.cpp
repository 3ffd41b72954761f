#include "jvmti-agent/model/thread_starts.h"

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace jsched::agent::thread_starts {

namespace {

// A thread is known by its java.lang.Thread id (the `tid` field, never reused), read from the
// object the JVM hands out: JVMTI's thread-local storage of another thread would say the same
// without a lock, but reading it while that thread ends crashed Temurin 25 (SIGSEGV in
// JvmtiEnvThreadState::get_agent_thread_local_storage_data).
std::mutex g_mu;
std::unordered_set<jlong> g_started;
std::atomic<jfieldID> g_tid{nullptr};

bool tid_of(JNIEnv* env, jthread t, jlong& out) {
  jfieldID tid = g_tid.load(std::memory_order_acquire);
  if (tid == nullptr) {
    jclass thread = env->FindClass("java/lang/Thread");
    if (thread == nullptr) {
      env->ExceptionClear();
      return false;
    }
    jfieldID f = env->GetFieldID(thread, "tid", "J");
    env->DeleteLocalRef(thread);
    if (f == nullptr) {
      env->ExceptionClear();
      return false;
    }
    g_tid.store(f, std::memory_order_release);  // the same value whichever thread stores it
    tid = f;
  }
  out = env->GetLongField(t, tid);
  return true;
}

template <typename F>
bool each_thread(jvmtiEnv* jvmti, JNIEnv* env, F f) {
  jint n = 0;
  jthread* threads = nullptr;
  if (jvmti->GetAllThreads(&n, &threads) != JVMTI_ERROR_NONE) return false;
  bool all = true;
  for (jint i = 0; i < n; ++i) {
    all = all && f(threads[i]);
    env->DeleteLocalRef(threads[i]);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(threads));
  return all;
}

}  // namespace

void mark_all(jvmtiEnv* jvmti, JNIEnv* env) {
  each_thread(jvmti, env, [env](jthread t) {
    mark(env, t);
    return true;
  });
}

void mark(JNIEnv* env, jthread t) {
  jlong id = 0;
  if (!tid_of(env, t, id)) return;
  std::lock_guard<std::mutex> g(g_mu);
  g_started.insert(id);
}

void forget(JNIEnv* env, jthread t) {
  jlong id = 0;
  if (!tid_of(env, t, id)) return;
  std::lock_guard<std::mutex> g(g_mu);
  g_started.erase(id);
}

bool any_in_flight(jvmtiEnv* jvmti, JNIEnv* env) {
  if (env == nullptr) return true;
  const bool all_marked = each_thread(jvmti, env, [env](jthread t) {
    jlong id = 0;
    if (!tid_of(env, t, id)) return false;
    std::lock_guard<std::mutex> g(g_mu);
    return g_started.count(id) != 0;
  });
  return !all_marked;
}

}  // namespace jsched::agent::thread_starts
