// Several executions in one JVM: iterations=N of a program's main, each with clean statics
// (docs/agent.md, "Several executions in one JVM"), and the test methods under a test
// runner (docs/agent.md, "Tests"). Each execution gets a Runtime of its own with seed, seed+1, ...;
// its thread 0 is a new thread that runs main or the test method. The driver, on the thread that
// asked (never controlled), waits for each execution's end, reports it, and goes on, or stops at
// the first finding unless explore is set.
#pragma once

#include <jni.h>

namespace jsched::agent {

// VM init: defines thread 0's class (java.lang.JSchedMain). False, with the exception
// described, on failure.
bool prepare_executions(JNIEnv* env);

}  // namespace jsched::agent
