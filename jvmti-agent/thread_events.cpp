#include "jvmti-agent/thread_events.h"

#include "jvmti-agent/runtime.h"

namespace jsched::agent {

namespace {

void hide(const char* what) {
  Runtime* rt = runtime();
  ThreadCtx* c = rt ? Runtime::current() : nullptr;
  if (!c) return;
  InRuntime g(*c);
  if (rt->ctl().running() != c->id) return;
  rt->hidden_block(*c, what);
  rt->ctl().detach(c->id);
}

void back() {
  Runtime* rt = runtime();
  ThreadCtx* c = rt ? Runtime::current() : nullptr;
  if (!c) return;
  InRuntime g(*c);
  rt->ctl().rejoin(c->id);
}

}  // namespace

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* env, jthread thread) {
  if (Runtime* rt = runtime()) rt->thread_started(env, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* env, jthread thread) {
  if (Runtime* rt = runtime()) rt->thread_ended(env, thread);
}

void JNICALL on_contended_enter(jvmtiEnv*, JNIEnv*, jthread, jobject) {
  hide("blocked entering a monitor held outside jsched's view");
}

void JNICALL on_contended_entered(jvmtiEnv*, JNIEnv*, jthread, jobject) {
  back();
}

void JNICALL on_monitor_wait(jvmtiEnv*, JNIEnv*, jthread, jobject, jlong) {
  hide("in Object.wait outside jsched's view");
}

void JNICALL on_monitor_waited(jvmtiEnv*, JNIEnv*, jthread, jobject, jboolean) {
  back();
}

}  // namespace jsched::agent
