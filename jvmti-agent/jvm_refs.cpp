#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

namespace {
JvmRefs g_refs;
}

const JvmRefs& refs() {
  return g_refs;
}

bool resolve_refs(JNIEnv* env) {
  JvmRefs& r = g_refs;
  auto cls = [&](const char* n) {
    jclass local = env->FindClass(n);
    if (!local) return jclass(nullptr);
    auto global = static_cast<jclass>(env->NewGlobalRef(local));
    env->DeleteLocalRef(local);
    return global;
  };
  r.Object = cls("java/lang/Object");
  r.Thread = cls("java/lang/Thread");
  r.Class = cls("java/lang/Class");
  r.Throwable = cls("java/lang/Throwable");
  r.ThreadDeath = cls("java/lang/ThreadDeath");
  r.VerifyError = cls("java/lang/VerifyError");
  r.ClassFormatError = cls("java/lang/ClassFormatError");
  r.LinkageError = cls("java/lang/LinkageError");
  if (!r.Object || !r.Thread || !r.Class || !r.Throwable || !r.ThreadDeath || !r.VerifyError ||
      !r.ClassFormatError || !r.LinkageError)
    return env->ExceptionDescribe(), false;
  r.Object_toString = env->GetMethodID(r.Object, "toString", "()Ljava/lang/String;");
  r.Class_getName = env->GetMethodID(r.Class, "getName", "()Ljava/lang/String;");
  r.Throwable_getStackTrace =
      env->GetMethodID(r.Throwable, "getStackTrace", "()[Ljava/lang/StackTraceElement;");
  r.Throwable_getMessage = env->GetMethodID(r.Throwable, "getMessage", "()Ljava/lang/String;");
  r.Throwable_getCause = env->GetMethodID(r.Throwable, "getCause", "()Ljava/lang/Throwable;");
  r.Throwable_init_bare =
      env->GetMethodID(r.Throwable, "<init>", "(Ljava/lang/String;Ljava/lang/Throwable;ZZ)V");
  r.Object_wait_J = env->GetMethodID(r.Object, "wait", "(J)V");
  r.Object_wait_JI = env->GetMethodID(r.Object, "wait", "(JI)V");
  r.Object_notify = env->GetMethodID(r.Object, "notify", "()V");
  r.Object_notifyAll = env->GetMethodID(r.Object, "notifyAll", "()V");
  r.Thread_start = env->GetMethodID(r.Thread, "start", "()V");
  r.Thread_join = env->GetMethodID(r.Thread, "join", "()V");
  r.Thread_join_J = env->GetMethodID(r.Thread, "join", "(J)V");
  r.Thread_join_JI = env->GetMethodID(r.Thread, "join", "(JI)V");
  r.Thread_sleep_J = env->GetStaticMethodID(r.Thread, "sleep", "(J)V");
  r.Thread_sleep_JI = env->GetStaticMethodID(r.Thread, "sleep", "(JI)V");
  r.Thread_yield = env->GetStaticMethodID(r.Thread, "yield", "()V");
  r.Thread_interrupt = env->GetMethodID(r.Thread, "interrupt", "()V");
  r.Thread_isInterrupted = env->GetMethodID(r.Thread, "isInterrupted", "()Z");
  r.Thread_interrupted = env->GetStaticMethodID(r.Thread, "interrupted", "()Z");
  r.Thread_holdsLock = env->GetStaticMethodID(r.Thread, "holdsLock", "(Ljava/lang/Object;)Z");
  if (env->ExceptionCheck()) return env->ExceptionDescribe(), false;
  return true;
}

jthrowable new_thread_death(JNIEnv* env) {
  jobject e = env->AllocObject(g_refs.ThreadDeath);
  if (e == nullptr) return nullptr;
  env->CallNonvirtualVoidMethod(e, g_refs.Throwable, g_refs.Throwable_init_bare, nullptr, nullptr,
                                JNI_TRUE, JNI_FALSE);
  if (env->ExceptionCheck()) {
    env->DeleteLocalRef(e);
    return nullptr;
  }
  return static_cast<jthrowable>(e);
}

jclass optional_class(JNIEnv* env, const char* name) {
  jclass local = env->FindClass(name);
  if (local == nullptr) {
    env->ExceptionClear();
    return nullptr;
  }
  auto global = static_cast<jclass>(env->NewGlobalRef(local));
  env->DeleteLocalRef(local);
  return global;
}

}  // namespace jsched::agent
