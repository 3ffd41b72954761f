// Which of the JVM's threads jsched has seen start. JDK code starts threads where jsched does not
// hook the start (a cleaner, a process reaper, an executor of the JDK's own); such a thread is
// listed by the JVM from the moment start() returns, but jsched learns of it only when its
// ThreadStart event runs in the new thread. Until then it may wake a waiter that the model
// thinks no one can wake: a deadlock the model sees is only certain when no start is in flight.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent::thread_starts {

// The threads alive now have started (VMInit: those the JVM made before any event).
void mark_all(jvmtiEnv* jvmti, JNIEnv* env);
// The current thread's start is known, and whatever its ThreadStart handler registered is in
// place (called at that handler's end).
void mark_current(jvmtiEnv* jvmti);
// Whether a thread the JVM lists has not been marked yet: its ThreadStart event is still to
// come or running. True too when the JVM cannot say.
bool any_in_flight(jvmtiEnv* jvmti, JNIEnv* env);

}  // namespace jsched::agent::thread_starts
