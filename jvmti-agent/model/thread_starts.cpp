#include "jvmti-agent/model/thread_starts.h"

namespace jsched::agent::thread_starts {

namespace {

// JVMTI's thread-local storage of this agent's environment holds the mark: one word per thread,
// readable for any thread without a lock of jsched's.
char g_started;

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
  each_thread(jvmti, env, [jvmti](jthread t) {
    jvmti->SetThreadLocalStorage(t, &g_started);
    return true;
  });
}

void mark_current(jvmtiEnv* jvmti) {
  jvmti->SetThreadLocalStorage(nullptr, &g_started);
}

bool any_in_flight(jvmtiEnv* jvmti, JNIEnv* env) {
  const bool all_marked = each_thread(jvmti, env, [jvmti](jthread t) {
    void* mark = nullptr;
    const jvmtiError e = jvmti->GetThreadLocalStorage(t, &mark);
    // A thread that ended since the JVM listed it starts nothing.
    return e == JVMTI_ERROR_THREAD_NOT_ALIVE || (e == JVMTI_ERROR_NONE && mark == &g_started);
  });
  return !all_marked;
}

}  // namespace jsched::agent::thread_starts
