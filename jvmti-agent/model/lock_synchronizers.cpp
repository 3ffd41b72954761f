#include "jvmti-agent/model/lock_synchronizers.h"

namespace jsched::agent {

void LockSynchronizers::find(JNIEnv* env) {
  static constexpr const char* kLocks[][3] = {
      {"java/util/concurrent/locks/ReentrantLock", "sync",
       "Ljava/util/concurrent/locks/ReentrantLock$Sync;"},
      {"java/util/concurrent/locks/ReentrantReadWriteLock", "sync",
       "Ljava/util/concurrent/locks/ReentrantReadWriteLock$Sync;"},
      {"java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock", "sync",
       "Ljava/util/concurrent/locks/ReentrantReadWriteLock$Sync;"},
      {"java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock", "sync",
       "Ljava/util/concurrent/locks/ReentrantReadWriteLock$Sync;"},
      {"java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject", "this$0",
       "Ljava/util/concurrent/locks/AbstractQueuedSynchronizer;"},
      {"java/util/concurrent/locks/AbstractQueuedLongSynchronizer$ConditionObject", "this$0",
       "Ljava/util/concurrent/locks/AbstractQueuedLongSynchronizer;"},
  };
  for (const auto& [name, field, desc] : kLocks) {
    jclass c = env->FindClass(name);
    jfieldID f = c ? env->GetFieldID(c, field, desc) : nullptr;
    if (f == nullptr) {
      env->ExceptionClear();  // another JDK's layout: that kind orders through its own object
      if (c) env->DeleteLocalRef(c);
      continue;
    }
    holders_.push_back(Holder{static_cast<jclass>(env->NewGlobalRef(c)), f});
    env->DeleteLocalRef(c);
  }
}

jobject LockSynchronizers::of(JNIEnv* env, jobject o) {
  if (o == nullptr) return nullptr;
  std::call_once(found_, [&] { find(env); });
  for (const Holder& h : holders_) {
    if (env->IsInstanceOf(o, h.cls)) return env->GetObjectField(o, h.field);
  }
  return nullptr;
}

}  // namespace jsched::agent
