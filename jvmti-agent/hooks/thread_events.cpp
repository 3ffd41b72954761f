#include "jvmti-agent/hooks/thread_events.h"

#include <string>

#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/model/outside_holder.h"
#include "jvmti-agent/model/thread_starts.h"

namespace jsched::agent {

namespace {

// The class of the monitor, so the report says what blocked (e.g. a class being initialized).
std::string monitor_class(jvmtiEnv* jvmti, JNIEnv* env, jobject o) {
  char* sig = nullptr;
  jclass c = o ? env->GetObjectClass(o) : nullptr;
  if (!c || jvmti->GetClassSignature(c, &sig, nullptr) != JVMTI_ERROR_NONE) return "?";
  std::string out(sig);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
  return out;
}

void hide(jvmtiEnv* jvmti, JNIEnv* env, jthread t, jobject o, const char* what) {
  Runtime* rt = runtime();
  ThreadCtx* c = rt ? Runtime::current() : nullptr;
  if (!c) return;
  rt->blocks_unseen(*c, std::string(": ") + what + " (a " + monitor_class(jvmti, env, o) + ")", t);
}

void back() {
  Runtime* rt = runtime();
  ThreadCtx* c = rt ? Runtime::current() : nullptr;
  if (c) rt->unblocked(*c);
}

}  // namespace

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* env, jthread thread) {
  Runtime::any_thread_started(env, thread);
  thread_starts::mark(env, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* env, jthread thread) {
  thread_starts::forget(env, thread);
  Runtime::any_thread_ended(env, thread);
}

// Statics reset (rewriter/static_reset.h) holds its monitors only between scheduling points;
// its wait is for a class's initializer, run again, which holds up the threads that need the
// class as the JVM's own initialization does: modelled as that.
void JNICALL on_contended_enter(jvmtiEnv* jvmti, JNIEnv* env, jthread t, jobject o) {
  if (in_reset_code(jvmti, t)) return;
  Runtime* rt = runtime();
  if (rt != nullptr && Runtime::current() != nullptr && held_outside(jvmti, *rt, o)) return;
  hide(jvmti, env, t, o, "blocked entering a monitor held outside jsched's view");
}

void JNICALL on_contended_entered(jvmtiEnv* jvmti, JNIEnv*, jthread t, jobject) {
  if (!in_reset_code(jvmti, t)) back();
}

void JNICALL on_monitor_wait(jvmtiEnv* jvmti, JNIEnv* env, jthread t, jobject o, jlong) {
  if (in_reset_code(jvmti, t, "awaitInitialization")) {
    Runtime* rt = runtime();
    ThreadCtx* c = rt ? Runtime::current() : nullptr;
    if (!c) return;
    InRuntime g(*c);
    if (rt->ctl().running() != c->id) return;
    if (auto w = rt->class_being_initialized_for(c->id)) {
      w->modelled = true;
      rt->awaits_initialization(c->id, *w);
      rt->ctl().detach(c->id);
      // The execution's end interrupts the waits (Runtime::end_threads).
      rt->finish_if_reset_waits_deadlocked(env);
      return;
    }
  }
  hide(jvmti, env, t, o, "in Object.wait outside jsched's view");
}

void JNICALL on_monitor_waited(jvmtiEnv*, JNIEnv*, jthread, jobject, jboolean) {
  back();
}

}  // namespace jsched::agent
