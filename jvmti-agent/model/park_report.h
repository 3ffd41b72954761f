// What reports say about threads parked in java.util.concurrent: what each waits for (its
// LockSupport blocker and, for locks, the owner), and whether it is an idle pool worker.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <functional>
#include <string>

namespace jsched::agent {

// "a ReentrantLock$NonfairSync held by thread 0.2", "a CountDownLatch$Sync", or "an unpark"
// when there is no blocker. `name_of` names a controlled thread by its Thread object ("" if
// it is not one).
std::string park_blocker(JNIEnv* env, jthread t,
                         const std::function<std::string(jobject thread)>& name_of);

// Whether `t` waits for work in an executor's or timer's queue (ThreadPoolExecutor.getTask,
// ForkJoinPool.awaitWork, TimerThread.mainLoop), not inside a task.
bool idle_worker(jvmtiEnv* jvmti, jthread t);

}  // namespace jsched::agent
