// Which of the JVM's threads jsched has seen start. A deadlock the model sees is certain when
// every thread the JVM lists has been seen: none can be about to wake a waiter from code where
// jsched does not hook the start (a JDK thread started from JDK code). Else the watchdog
// confirms it a moment later.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent::thread_starts {

// The threads alive now have started (VMInit: those the JVM made before any event).
void mark_all(jvmtiEnv* jvmti, JNIEnv* env);
// `t`'s start is known, and whatever its ThreadStart handler registered is in place (called at
// that handler's end).
void mark(JNIEnv* env, jthread t);
// `t` has ended (ThreadEnd): it may still be listed for a moment, and then counts as unseen.
void forget(JNIEnv* env, jthread t);
// Whether a thread the JVM lists has not been marked: its ThreadStart event is still to come or
// running. True too when the JVM cannot say.
bool any_in_flight(jvmtiEnv* jvmti, JNIEnv* env);

}  // namespace jsched::agent::thread_starts
