// jsched's own threads in the JVM (the watchdog, the class hasher): JVMTI agent threads, which
// the JVM keeps out of the program's thread list and does not wait for at exit.
#pragma once

#include <jvmti.h>

namespace jsched::agent {

// Starts `run(arg)` on a new agent thread named `name`; false (with any exception cleared) if
// the thread could not be made.
bool start_agent_thread(jvmtiEnv* jvmti, JNIEnv* env, const char* name, jvmtiStartFunction run,
                        void* arg, jint priority);

}  // namespace jsched::agent
