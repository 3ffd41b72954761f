// Virtual threads (JDK 21+) are not under jsched's control yet. Rather than a verdict that
// promises what it did not check, an execution in which the program starts one ends in an error
// (on-unsupported=warn: a warning, and they run uncontrolled, as threads outside the execution).
// A virtual thread is never made a thread of the model: it would wait for its turn pinned to a
// carrier, and the chosen one might never be mounted (a false hang).
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

// JDK 17's callbacks with the slot JVMTI 21 adds after them (VirtualThreadStart, event 87).
struct EventCallbacks {
  jvmtiEventCallbacks base;
  void(JNICALL* virtual_thread_start)(jvmtiEnv*, JNIEnv*, jthread);
};
inline constexpr jvmtiEvent kVirtualThreadStartEvent = jvmtiEvent(87);

// Where the JVM has virtual threads (JVMTI 21+), asks for their events in `caps` (the build's
// JDK 17 header does not name the capability: it is the bit after
// can_generate_sampled_object_alloc_events). Whether it did.
bool want_virtual_thread_events(jvmtiEnv* jvmti, jvmtiCapabilities& caps);

void JNICALL on_virtual_thread_start(jvmtiEnv* jvmti, JNIEnv* env, jthread vthread);

// Whether `t` is a virtual thread (false before JDK 21).
bool is_virtual(JNIEnv* env, jthread t);

}  // namespace jsched::agent
