// Threads the JDK starts only to serve virtual threads (JDK 21+): the carriers of the default
// scheduler, the unblocker and unparkers of java.lang.VirtualThread, the I/O pollers (platform
// or virtual). They are not the program's threads: when JDK code is instrumented (include=*)
// and starts one from a controlled thread, it starts plainly, outside the model, and jsched
// never waits for it (a poller spends its life in epoll_wait; the unblocker in the VM).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

namespace jsched::agent {

// Whether `t`, being started by the current thread at a call in class `caller` (internal name), is
// such a thread. Costs a stack walk only when `caller` is a JDK class.
bool serves_virtual_threads(JNIEnv* env, jvmtiEnv* jvmti, const std::string& caller, jthread t);

// Whether `t`, just started, runs a task of the JDK's virtual-thread machinery (the unblocker, a
// poller): a thread the JVM started outside any hook, seen at its JVMTI ThreadStart.
bool runs_for_virtual_threads(JNIEnv* env, jvmtiEnv* jvmti, jthread t);

// Such threads, once found (a virtual sub-poller is not the program's virtual thread).
void remember_service_thread(JNIEnv* env, jthread t);
bool is_service_thread(JNIEnv* env, jthread t);

}  // namespace jsched::agent
