#include "jvmti-agent/executions/kept_thread_zero.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/driver_wake.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent::kept_thread_zero {

namespace {

std::mutex g_mu;
// Never destroyed: a kept thread 0 waits on it for ever while the process exits, and
// destroying a condition variable with a waiter blocks exit (a Ctrl-C that hung the JVM).
std::condition_variable& g_cv = *new std::condition_variable;
jobject g_kept = nullptr;  // global ref: the thread waiting in next()
jobject g_job = nullptr;   // global ref: its next job, handed by the driver
// A thread 0 left its execution and is on its way to next(); set under g_mu, read by the
// driver's conditions (driver_wake.h) without it.
std::atomic<bool> g_returning{false};
jobject g_left = nullptr;  // global ref: the thread 0 that left well through leave()

// Under g_mu: g_left is no longer `t` (nullptr: whichever it is).
void drop_left(JNIEnv* env, jobject t) {
  if (g_left != nullptr && (t == nullptr || env->IsSameObject(t, g_left))) {
    env->DeleteGlobalRef(g_left);
    g_left = nullptr;
  }
}

jthread self(JNIEnv* env) {
  jthread t = nullptr;
  state().jvmti->GetCurrentThread(&t);
  return env->ExceptionCheck() ? nullptr : t;
}

}  // namespace

jthread take(JNIEnv* env) {
  std::unique_lock<std::mutex> lk(g_mu);
  // Its resets take microseconds; the bound only guards against one that never comes.
  g_cv.wait_for(lk, std::chrono::milliseconds(100), [] { return !g_returning; });
  // (One driver at a time: what it takes, it hands a job before it takes again.)
  if (g_kept == nullptr) return nullptr;
  return static_cast<jthread>(env->NewLocalRef(g_kept));
}

bool returning() {
  return g_returning.load();
}

bool runs_on(JNIEnv* env, jobject t) {
  std::lock_guard<std::mutex> g(g_mu);
  return g_left != nullptr && env->IsSameObject(t, g_left);
}

void hand(JNIEnv* env, jobject job) {
  std::lock_guard<std::mutex> g(g_mu);
  g_job = env->NewGlobalRef(job);
  g_cv.notify_all();
}

}  // namespace jsched::agent::kept_thread_zero

using namespace jsched::agent;
namespace kept = jsched::agent::kept_thread_zero;

extern "C" {

JNIEXPORT jboolean JNICALL Java_java_lang_JSchedMain_leave(JNIEnv* env, jclass, jthrowable thrown) {
  jthread t = kept::self(env);
  if (t == nullptr) return JNI_FALSE;
  const bool ends_well = Runtime::is_thread_zero_now();
  // Thread 0 of an execution a finding elsewhere ended (a worker's throwable, a deadlock), back
  // here once jsched's ThreadDeath has unwound the program's frames: out of the program, it
  // leaves that execution as its other threads do and may serve the next one.
  const bool ended_elsewhere = !ends_well && Runtime::thread_zero_of_an_ended_execution();
  {
    std::lock_guard<std::mutex> g(kept::g_mu);
    // g_left is the current execution's thread 0 once it left well; one that does not end
    // well here ends in the JVM, and a join of it waits for that.
    kept::drop_left(env, ends_well ? nullptr : t);
    if (ends_well) kept::g_left = env->NewGlobalRef(t);
    if (ends_well || ended_elsewhere) kept::g_returning = true;
  }
  if (!ends_well && !ended_elsewhere) {
    env->DeleteLocalRef(t);
    return JNI_FALSE;
  }
  if (thrown != nullptr && ends_well) {
    // As the JVM does at a thread's end: its handler, the program's or the group's, and the
    // agent's finding (the call jsched adds at the top of dispatchUncaughtException).
    static jmethodID dispatch =
        env->GetMethodID(refs().Thread, "dispatchUncaughtException", "(Ljava/lang/Throwable;)V");
    if (dispatch != nullptr) env->CallVoidMethod(t, dispatch, thrown);
    env->ExceptionClear();
  }
  // Its end in the model, or its leaving an execution that is over (Runtime::leave_execution).
  Runtime::any_thread_ended(env, t);
  // An execution that ended before thread 0 did counted it among the threads acting outside
  // jsched's view (a finding elsewhere, the watchdog): it is back in jsched's hands.
  state().outside.forget(env, t);
  env->DeleteLocalRef(t);
  return JNI_TRUE;
}

JNIEXPORT jobject JNICALL Java_java_lang_JSchedMain_next(JNIEnv* env, jclass, jboolean keep) {
  jthread t = kept::self(env);
  jobject job = nullptr;
  bool kept_here = false;
  {
    std::lock_guard<std::mutex> g(kept::g_mu);
    kept_here = keep && t != nullptr && kept::g_kept == nullptr;
    if (kept_here) kept::g_kept = env->NewGlobalRef(t);
    if (!kept_here && t != nullptr) kept::drop_left(env, t);
    kept::g_returning = false;
  }
  // The driver waits for this moment alone (driver_wake.h): woken at its execution's end or
  // at the end of its threads, it would only have waited again for this thread 0.
  kept::g_cv.notify_all();
  driver_wake::notify();
  if (!kept_here) return nullptr;
  {
    std::unique_lock<std::mutex> lk(kept::g_mu);
    kept::g_cv.wait(lk, [] { return kept::g_job != nullptr; });
    job = env->NewLocalRef(kept::g_job);
    env->DeleteGlobalRef(kept::g_job);
    env->DeleteGlobalRef(kept::g_kept);
    kept::g_job = kept::g_kept = nullptr;
  }
  // As JVMTI's ThreadStart would: thread 0 of the execution the driver made current.
  Runtime::any_thread_started(env, t);
  env->DeleteLocalRef(t);
  return job;
}

}  // extern "C"
