// Stable object names (docs/architecture.md, "Partial orders"): the same object gets the same name
// in every run of the same schedule, whatever addresses and identity hashes the JVM picks. An
// object allocated by instrumented code is named by its allocating thread and that thread's
// allocation count; any other object by the first thread that touches it and that thread's touch
// count; a Class object by its class. The name is the object's JVMTI tag (never 0, which means
// untagged).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>

#include "scheduler/core/op.h"

namespace jsched::agent {

class ObjectNames {
 public:
  explicit ObjectNames(jvmtiEnv* jvmti) : jvmti_(jvmti) {}

  // The name of `o`, given it now if it has none: `thread` is the touching thread's name hash,
  // `touches` its count of objects named this way.
  sched::ObjectId of(JNIEnv* env, jobject o, uint64_t thread, uint64_t& touches);
  // Names an object just allocated by instrumented code (`allocations`: the thread's count),
  // unless its constructor already had it named: `this` may escape before the constructor
  // returns (a Thread subclass that starts itself, a monitor another thread waits on), and the
  // model knows it by that name from then on.
  void name_new(jobject o, uint64_t thread, uint64_t& allocations);
  // Names `o` anew as of() names an object it has not seen (its name of an earlier execution
  // may be another object's in this one); the name.
  sched::ObjectId rename(jobject o, uint64_t thread, uint64_t& touches);
  // The name of `o`, which jsched reaches only through the object named `from` (a lock's
  // synchronizer): given one made from `from`'s if it has none, so that naming it takes no
  // thread's touch count (the names of the objects the thread touches next stay as they were).
  sched::ObjectId derived(jobject o, sched::ObjectId from);

 private:
  jvmtiEnv* jvmti_;
};

}  // namespace jsched::agent
