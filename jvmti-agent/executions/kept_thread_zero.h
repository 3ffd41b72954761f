// Thread 0 kept from one execution of main to the next (java.lang.JSchedMain.runKept): a JVM
// thread's start and end (its stack mapped and given back, the JVM's and JVMTI's bookkeeping)
// cost about as much as a small execution's own work. Thread 0 ends in its execution as the JVM
// would end it, waits here, and starts in the next execution as a new thread 0 would.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent::kept_thread_zero {

// The driver: thread 0 of an earlier execution, waiting for the next (a local reference), or
// nullptr (none ended well: start a new one). One on its way back is waited for a moment.
jthread take(JNIEnv* env);
// The driver: `job` (a java.lang.JSchedMain) for the thread take() returned, which starts it
// as thread 0 of the execution that is now current.
void hand(JNIEnv* env, jobject job);

// Whether a thread 0 left its execution and is on its way to wait for the next (the driver
// waits for it: a new execution handed to it now would not start until it is there).
bool returning();

// Whether `t` is a thread 0 that ended in its execution and runs on for the next: the model saw
// it end, and the JVM will not (a join of it must not wait for the JVM's end).
bool runs_on(JNIEnv* env, jobject t);

}  // namespace jsched::agent::kept_thread_zero
