// Identity hash codes of classes and threads that do not depend on the JVM's own threads. The
// JVM draws an identity hash from a generator of the thread that first asks for it, seeded when
// that thread was created from a process-wide sequence that every JVM thread's creation
// advances, including the GC and compiler threads it starts lazily, at moments that real time
// decides. Class.hashCode and Thread.hashCode are identity hashes, and JDK code keys tables by
// them (the method types interned at every lambda's bootstrap, say): which buckets collide, and
// so which monitors the code takes, changed from one JVM to the next under the same seed.
//
// So these objects get their hashes from threads of jsched's (one for classes, one for threads),
// created at VMInit, before any lazily started JVM thread, in orders the schedule fixes: at
// start-up every class loaded so far, the primitive types and the main thread; then each class as
// an application thread (main, or a controlled one) loads it and each thread as it is started, with
// the asking thread waiting. The hashes still depend on the JVM's configuration (its garbage
// collector, the processors it sees: the threads it starts before VMInit). Classes that
// JVM-internal threads load, array classes (no JVMTI event announces them), and other objects
// without hashCode (enum constants, plain Objects, lambdas) keep the JVM's hashes.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

class IdentityHashes {
 public:
  // Starts the hashing thread and hashes the classes loaded so far and `main`; false if it
  // cannot.
  static bool start(jvmtiEnv* jvmti, JNIEnv* env, jthread main);
  // ClassLoad on a thread that runs the program (main, a controlled thread): hashes `cls`
  // before the thread goes on (ClassPrepare would be too late: `C.class` loads C, and its
  // hashCode() needs no linking).
  static void loaded(JNIEnv* env, jclass cls);
  // A controlled thread starts `thread`: hashes it before the thread runs.
  static void started(JNIEnv* env, jthread thread);
  // VMDeath: the hashing thread ends (the JVM's exit waits for threads in native code).
  static void stop();
  // A thread waits for hashes (asleep in the kernel, but not blocked: the
  // watchdog leaves it its turn).
  static bool waiting();
};

}  // namespace jsched::agent
