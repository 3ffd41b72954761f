// JNI classes and method ids the agent calls, resolved once the VM has started.
#pragma once

#include <jni.h>

namespace jsched::agent {

struct JvmRefs {
  jclass Object = nullptr, Thread = nullptr, Class = nullptr;
  // A finding's text and the end of a stale thread, resolved once: looked up per finding they
  // cost a symbol lookup each and leaked a local reference.
  jclass Throwable = nullptr, ThreadDeath = nullptr, VerifyError = nullptr,
         ClassFormatError = nullptr, LinkageError = nullptr;
  jmethodID Object_toString = nullptr, Class_getName = nullptr, Throwable_getStackTrace = nullptr,
            Throwable_getMessage = nullptr, Throwable_getCause = nullptr,
            Throwable_init_bare = nullptr;
  jmethodID Object_wait_J = nullptr, Object_wait_JI = nullptr, Object_notify = nullptr,
            Object_notifyAll = nullptr;
  jmethodID Thread_start = nullptr, Thread_join = nullptr, Thread_join_J = nullptr,
            Thread_join_JI = nullptr, Thread_sleep_J = nullptr, Thread_sleep_JI = nullptr,
            Thread_yield = nullptr, Thread_interrupt = nullptr, Thread_isInterrupted = nullptr,
            Thread_interrupted = nullptr, Thread_holdsLock = nullptr;
};

// Returns false (with the exception described) if a lookup failed.
bool resolve_refs(JNIEnv* env);
const JvmRefs& refs();

// A ThreadDeath without a stack trace (Throwable's constructor with writableStackTrace false):
// what ends a thread whose execution is over, thousands of times a run, with no stack walk;
// its stack is nobody's concern (a report shows a hung thread's stack from JVMTI). Null, with
// the exception pending, if it could not be made.
jthrowable new_thread_death(JNIEnv* env);

// A global reference to class `name` (internal form), or null where this JDK has none (its
// exception cleared): classes of later JDKs, looked up when first needed, not at start-up.
jclass optional_class(JNIEnv* env, const char* name);

}  // namespace jsched::agent
