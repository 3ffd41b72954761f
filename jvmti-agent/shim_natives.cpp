// The natives of the hooks (java-shim/java/lang/JSchedShim.java). Each is exported twice: for
// java.lang.JSchedShim (default mode) and, as an alias, for java.lang.Thread (JDK mode), so
// the JVM finds them by name in this library. Site 0 is the no-op call that links them.
#include <jni.h>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/observer.h"
#include "rewriter/hooks.h"

using jsched::rw::Hook;
using namespace jsched::agent;

#define JSCHED_SHIM(name) Java_java_lang_JSchedShim_##name
#define JSCHED_THREAD_ALIAS(name)                                                     \
  extern "C" JNIEXPORT decltype(JSCHED_SHIM(name)) Java_java_lang_Thread_##name \
      __attribute__((alias("Java_java_lang_JSchedShim_" #name)));

extern "C" {

JNIEXPORT void JNICALL JSCHED_SHIM(jschedEnter)(JNIEnv*, jclass, jobject, jint site) {
  if (site == 0) return;
  observe(Hook::MonitorEnter);
}

JNIEXPORT void JNICALL JSCHED_SHIM(jschedExit)(JNIEnv*, jclass, jobject, jint site) {
  if (site == 0) return;
  observe(Hook::MonitorExit);
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedWait)(JNIEnv*, jclass, jobject, jlong, jint, jboolean,
                                                   jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ObjectWait);
  return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedNotify)(JNIEnv*, jclass, jobject, jboolean all, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(all ? Hook::ObjectNotifyAll : Hook::ObjectNotify);
  return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedStart)(JNIEnv*, jclass, jthread, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadStart);
  return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedJoin)(JNIEnv*, jclass, jthread, jlong, jboolean,
                                                   jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadJoin);
  return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedSleep)(JNIEnv*, jclass, jlong, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadSleep);
  return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedYield)(JNIEnv*, jclass, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadYield);
  return JNI_FALSE;
}

JNIEXPORT void JNICALL JSCHED_SHIM(jschedInterrupt)(JNIEnv*, jclass, jthread, jint site) {
  if (site == 0) return;
  observe(Hook::ThreadInterrupt);
}

JNIEXPORT jint JNICALL JSCHED_SHIM(jschedIsInterrupted)(JNIEnv*, jclass, jthread, jboolean clear,
                                                        jint site) {
  if (site == 0) return -1;
  observe(clear ? Hook::ThreadInterrupted : Hook::ThreadIsInterrupted);
  return -1;
}

// True when `owner` resolves the site's static method to java.lang.Thread's own.
JNIEXPORT jboolean JNICALL JSCHED_SHIM(jschedResolves)(JNIEnv* env, jclass, jclass owner, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ResolvesToThread);
  const Site* s = state().sites.get(site);
  if (s == nullptr || owner == nullptr) return JNI_FALSE;
  if (!env->IsAssignableFrom(owner, refs().Thread)) return JNI_FALSE;
  jmethodID m = env->GetStaticMethodID(owner, s->name->c_str(), s->desc->c_str());
  if (m == nullptr) {
    env->ExceptionClear();
    return JNI_FALSE;
  }
  jclass declaring = nullptr;
  if (state().jvmti->GetMethodDeclaringClass(m, &declaring) != JVMTI_ERROR_NONE) return JNI_FALSE;
  jboolean same = env->IsSameObject(declaring, refs().Thread);
  env->DeleteLocalRef(declaring);
  return same;
}

JNIEXPORT void JNICALL JSCHED_SHIM(jschedAccess)(JNIEnv*, jclass, jobject, jint index,
                                                 jboolean write, jint site) {
  if (site == 0) return;
  observe(index >= 0 ? (write ? Hook::ArrayStore : Hook::ArrayLoad)
                     : (write ? Hook::PutField : Hook::GetField));
}

JNIEXPORT void JNICALL JSCHED_SHIM(jschedAllocated)(JNIEnv*, jclass, jobject, jint site) {
  if (site == 0) return;
  observe(Hook::Allocated);
}

JSCHED_THREAD_ALIAS(jschedEnter)
JSCHED_THREAD_ALIAS(jschedExit)
JSCHED_THREAD_ALIAS(jschedWait)
JSCHED_THREAD_ALIAS(jschedNotify)
JSCHED_THREAD_ALIAS(jschedStart)
JSCHED_THREAD_ALIAS(jschedJoin)
JSCHED_THREAD_ALIAS(jschedSleep)
JSCHED_THREAD_ALIAS(jschedYield)
JSCHED_THREAD_ALIAS(jschedInterrupt)
JSCHED_THREAD_ALIAS(jschedIsInterrupted)
JSCHED_THREAD_ALIAS(jschedResolves)
JSCHED_THREAD_ALIAS(jschedAccess)
JSCHED_THREAD_ALIAS(jschedAllocated)

}  // extern "C"
