// JNI classes and method ids the agent calls, resolved once the VM has started.
#pragma once

#include <jni.h>

namespace jsched::agent {

struct JvmRefs {
  jclass Object = nullptr, Thread = nullptr, Class = nullptr;
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

// A global reference to class `name` (internal form), or null where this JDK has none (its
// exception cleared): classes of later JDKs, looked up when first needed, not at start-up.
jclass optional_class(JNIEnv* env, const char* name);

}  // namespace jsched::agent
