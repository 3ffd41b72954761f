// Identity hash codes of classes that do not depend on the JVM's own threads. The JVM draws an
// identity hash from a generator of the thread that first asks for it, seeded when that thread
// was created from a process-wide sequence that every JVM thread's creation advances, including
// the GC and compiler threads it starts lazily, at moments that real time decides.
// Class.hashCode is the identity hash, and JDK code keys tables by classes (the method types
// interned at every lambda's bootstrap, say): which buckets collide, and so which monitors the
// code takes, changed from one JVM to the next under the same seed.
//
// So a class gets its hash as it loads, in an order the schedule fixes, from one of two
// generators: main's, the JVM's first thread, created before any other (at VMInit, for every
// class loaded so far and the primitive types; then for the classes main loads), or that of a
// thread of jsched's created at VMInit, before any lazily started JVM thread, for the classes a
// controlled thread loads, with that thread waiting (a handoff each, about 50 us: most classes
// load on main). The second still depends on the JVM's configuration (its garbage collector,
// the processors it sees: the threads it starts before VMInit). Classes that JVM-internal
// threads load, array classes (no JVMTI event announces them), threads (a handoff per thread
// start cost a quarter of the executions per second of a program of 100 threads), and other
// objects without hashCode (enum constants, plain Objects, lambdas) keep the JVM's hashes.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

class ClassHashes {
 public:
  // On main at VMInit: starts the hashing thread and hashes the classes loaded so far; false if
  // it cannot.
  static bool start(jvmtiEnv* jvmti, JNIEnv* env);
  // ClassLoad on a thread that runs the program (`main`, or a controlled thread): hashes `cls`
  // before the thread goes on (ClassPrepare would be too late: `C.class` loads C, and its
  // hashCode() needs no linking).
  static void loaded(jvmtiEnv* jvmti, JNIEnv* env, jclass cls, bool main);
  // VMDeath: the hashing thread ends (the JVM's exit waits for threads in native code).
  static void stop();
  // A thread waits for hashes (asleep in the kernel, but not blocked: the
  // watchdog leaves it its turn).
  static bool waiting();
};

}  // namespace jsched::agent
