// The synchronizer behind a java.util.concurrent lock or condition: the
// AbstractQueuedSynchronizer of a ReentrantLock, of a ReentrantReadWriteLock and its read and
// write locks, which the lock's conditions share. A thread that awaits a condition releases the
// lock inside the JDK, where jsched sees no call on the lock object: the race detector orders a
// lock's calls and its conditions' through this one object, so the thread that takes the lock
// next learns what the waiter did before it waited (without it, a consumer's read before its
// await raced with the producer's write under the lock: docs/agent.md, "Races on plain fields").
#pragma once

#include <jni.h>

#include <mutex>
#include <string_view>
#include <vector>

#include "rewriter/jdk_packages.h"

namespace jsched::agent {

class LockSynchronizers {
 public:
  // `o`'s synchronizer as a local reference, or nullptr when `o` is none of those (or this JDK
  // names their fields otherwise).
  jobject of(JNIEnv* env, jobject o);
  // Whether a call the instruction names on class `owner` may be on a lock or a condition: one
  // on a java.util.concurrent.locks type, or on a class of the program (its subclass of one).
  // The atomics' and the collections' calls, most of them, need not pay of()'s checks.
  static bool may_be_one(std::string_view owner) {
    constexpr std::string_view kLocks = "java/util/concurrent/locks/";
    return owner.substr(0, kLocks.size()) == kLocks || !rw::jdk_package(owner);
  }

 private:
  struct Holder {
    jclass cls;  // global reference
    jfieldID field;
  };
  void find(JNIEnv* env);
  std::once_flag found_;
  std::vector<Holder> holders_;
};

}  // namespace jsched::agent
