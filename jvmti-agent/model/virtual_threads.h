// Virtual threads (JDK 21+) are threads of the model like platform threads. A virtual thread in
// the model waits for its turn inside jsched's native code, so it stays mounted, pinning its
// carrier, from its start to its end: the JDK's scheduler is given a carrier for each
// (one_carrier_each), or the chosen thread could wait unmounted behind carriers held by threads
// that wait for it (a false hang). On a carrier the thread's context lives in JVMTI
// thread-local storage, which follows the virtual thread (executions/runtime.cpp).
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

// JDK 17's callbacks with the slots JVMTI 21 adds after them (VirtualThreadStart and
// VirtualThreadEnd, events 87 and 88).
struct EventCallbacks {
  jvmtiEventCallbacks base;
  void(JNICALL* virtual_thread_start)(jvmtiEnv*, JNIEnv*, jthread);
  void(JNICALL* virtual_thread_end)(jvmtiEnv*, JNIEnv*, jthread);
};
inline constexpr jvmtiEvent kVirtualThreadStartEvent = jvmtiEvent(87);
inline constexpr jvmtiEvent kVirtualThreadEndEvent = jvmtiEvent(88);

// Where the JVM has virtual threads (JVMTI 21+), asks for their events in `caps` (the build's
// JDK 17 header does not name the capability: it is the bit after
// can_generate_sampled_object_alloc_events). Whether it did.
bool want_virtual_thread_events(jvmtiEnv* jvmti, jvmtiCapabilities& caps);

void JNICALL on_virtual_thread_start(jvmtiEnv* jvmti, JNIEnv* env, jthread vthread);
void JNICALL on_virtual_thread_end(jvmtiEnv* jvmti, JNIEnv* env, jthread vthread);

// At VM init, where the JVM has virtual threads (JVMTI 21+): finds the classes the checks below
// need. Never later and never on an older JVM, where looking a missing class up runs the class
// loader's Java code, instrumented in JDK mode, inside a thread's start (it moved schedules).
void find_virtual_thread_classes(jvmtiEnv* jvmti, JNIEnv* env);

// Before the JDK makes its virtual-thread scheduler (at VM init): room for as many carriers as
// it may ever need (its largest pool), unless the user chose the numbers (then a warning says
// what that risks).
void one_carrier_each(JNIEnv* env, bool verbose);

// A virtual thread of the model is about to start, or has ended: the scheduler's parallelism
// (its carriers) follows the number alive. It only grows: a larger one costs every idle carrier
// a longer scan of the pool's queues (the largest from the start made 1,000 threads 25 times
// slower).
void carrier_wanted(JNIEnv* env);
void carrier_freed();

// Whether the JVM has virtual threads (false before find_virtual_thread_classes).
bool virtual_threads_exist();
// java.lang.Thread$FieldHolder, where a platform thread keeps its task (null when not found).
jclass thread_field_holder();

// Whether `t` is a virtual thread (false before JDK 21).
bool is_virtual(JNIEnv* env, jthread t);

// Whether `t` is one of the JDK's carrier threads (false before JDK 21).
bool is_carrier(JNIEnv* env, jthread t);

}  // namespace jsched::agent
