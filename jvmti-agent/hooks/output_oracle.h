// The output oracle (bug-output=): many existing concurrency tests catch their own failure and
// only print it ("FAILED", "Bug has been reproduced") before exiting 0. With bug-output=REGEX,
// System.out and System.err pass every line the program prints to the agent, and a line the
// expression finds makes the execution a bug with that line as its detail.
#pragma once

#include <jni.h>

namespace jsched::agent {

// With bug-output=: defines java.lang.JSchedOutput (once) and wraps System.out and System.err,
// again if something replaced them since (a test runner's own streams). Called before each
// execution. False, with the exception described, when it cannot.
bool watch_output(JNIEnv* env);

}  // namespace jsched::agent
