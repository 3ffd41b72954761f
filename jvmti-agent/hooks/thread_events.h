// JVMTI thread and monitor events, forwarded to the runtime when a strategy controls the run.
#pragma once

#include <jvmti.h>

namespace jsched::agent {

void JNICALL on_thread_start(jvmtiEnv* jvmti, JNIEnv* env, jthread thread);
void JNICALL on_thread_end(jvmtiEnv* jvmti, JNIEnv* env, jthread thread);
// A controlled thread about to block on a JVM monitor (or in a real Object.wait) is blocked
// where the model cannot see: another thread runs meanwhile. It waits for its turn again once
// it has the monitor (or is done waiting).
void JNICALL on_contended_enter(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jobject object);
void JNICALL on_contended_entered(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jobject object);
void JNICALL on_monitor_wait(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jobject object,
                             jlong timeout);
void JNICALL on_monitor_waited(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jobject object,
                               jboolean timed_out);

}  // namespace jsched::agent
