// Identity hash codes of classes that do not depend on the JVM's own threads. The JVM draws an
// identity hash from a generator of the thread that first asks for it, seeded when that thread
// was created from a process-wide sequence that every JVM thread's creation advances, including
// the GC and compiler threads it starts lazily, at moments that real time decides.
// Class.hashCode is the identity hash, and JDK code keys tables by classes (the method types
// interned at every lambda's bootstrap, say): which buckets collide, and so which monitors the
// code takes, changed from one JVM to the next under the same seed.
//
// So classes get their hashes from a thread of jsched's, created at VMInit, before any lazily
// started JVM thread, in an order the schedule fixes: at start-up every class loaded so far and
// the primitive types; then each class as an application thread (main, or a controlled one)
// loads it, with that thread waiting. The hashes still depend on the JVM's configuration (its
// garbage collector, the processors it sees: the threads it starts before VMInit). Classes that
// JVM-internal threads load, array classes (no JVMTI event announces them), threads (a handoff
// per thread start cost a quarter of the executions per second of a program of 100 threads),
// and other objects without hashCode (enum constants, plain Objects, lambdas) keep the JVM's.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

class ClassHashes {
 public:
  // Starts the hashing thread and hashes the classes loaded so far; false if it cannot.
  static bool start(jvmtiEnv* jvmti, JNIEnv* env);
  // ClassLoad on a thread that runs the program (main, a controlled thread): hashes `cls`
  // before the thread goes on (ClassPrepare would be too late: `C.class` loads C, and its
  // hashCode() needs no linking).
  static void loaded(JNIEnv* env, jclass cls);
  // VMDeath: the hashing thread ends (the JVM's exit waits for threads in native code).
  static void stop();
  // A thread waits for hashes (asleep in the kernel, but not blocked: the
  // watchdog leaves it its turn).
  static bool waiting();
};

}  // namespace jsched::agent
