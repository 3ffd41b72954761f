// The shim methods rewritten code calls (java-shim/java/lang/JSchedShim.java): names and
// descriptors, in one table the rewriter and the agent share.
#pragma once

#include <cstddef>

namespace jsched::rw {

// One row per hook: its enumerator, the shim method's name and its descriptor. A new hook is a
// row here and its method in JSchedShim.java (a unit test compares the two).
// clang-format off
#define JSCHED_HOOKS(X) \
  X(MonitorEnter, "monitorEnter", "(Ljava/lang/Object;I)V") \
  X(MonitorExit, "monitorExit", "(Ljava/lang/Object;I)V") \
  X(ObjectWait, "objectWait", "(Ljava/lang/Object;I)V") \
  X(ObjectWaitTimed, "objectWaitTimed", "(Ljava/lang/Object;JI)V") \
  X(ObjectWaitNanos, "objectWaitNanos", "(Ljava/lang/Object;JII)V") \
  X(ObjectNotify, "objectNotify", "(Ljava/lang/Object;I)V") \
  X(ObjectNotifyAll, "objectNotifyAll", "(Ljava/lang/Object;I)V") \
  X(ThreadStart, "threadStart", "(Ljava/lang/Thread;I)V") \
  /* in place of JavaLangAccess.start(thread, container), JDK 21+ */ \
  X(ThreadStartIn, "threadStartIn", "(Ljava/lang/Object;Ljava/lang/Thread;Ljava/lang/Object;I)V") \
  X(ThreadJoin, "threadJoin", "(Ljava/lang/Thread;I)V") \
  X(ThreadJoinTimed, "threadJoinTimed", "(Ljava/lang/Thread;JI)V") \
  X(ThreadJoinNanos, "threadJoinNanos", "(Ljava/lang/Thread;JII)V") \
  X(ThreadSleep, "threadSleep", "(JI)V") \
  X(ThreadSleepNanos, "threadSleepNanos", "(JII)V") \
  X(ThreadYield, "threadYield", "(I)V") \
  X(ThreadInterrupt, "threadInterrupt", "(Ljava/lang/Thread;I)V") \
  X(ThreadIsInterrupted, "threadIsInterrupted", "(Ljava/lang/Thread;I)Z") \
  /* Thread.isAlive(): a scheduling point; the model's answer (the JVM's thread may be ending) */ \
  X(ThreadIsAlive, "threadIsAlive", "(Ljava/lang/Thread;I)Z") \
  /* Thread.getState(): a scheduling point; the model's answer (a thread parked in the model */ \
  /* is RUNNABLE to the JVM, which sees it wait for its turn in native code) */ \
  X(ThreadGetState, "threadGetState", "(Ljava/lang/Thread;I)Ljava/lang/Thread$State;") \
  /* Thread.suspend()/resume() (deprecated; JDK 17 still runs them): the model's flag */ \
  X(ThreadSuspend, "threadSuspend", "(Ljava/lang/Thread;I)V") \
  X(ThreadResume, "threadResume", "(Ljava/lang/Thread;I)V") \
  /* Thread.stop() (deprecated; JDK 17 still runs it): wakes a thread waiting in the model */ \
  X(ThreadStop, "threadStop", "(Ljava/lang/Thread;I)V") \
  X(ThreadInterrupted, "threadInterrupted", "(I)Z") \
  X(ResolvesToThread, "resolvesToThread", "(Ljava/lang/Class;I)Z") \
  X(GetField, "getField", "(Ljava/lang/Object;I)V") \
  X(PutField, "putField", "(Ljava/lang/Object;I)V") \
  X(GetStatic, "getStatic", "(I)V") \
  X(PutStatic, "putStatic", "(I)V") \
  X(ArrayLoad, "arrayLoad", "(Ljava/lang/Object;II)V") \
  X(ArrayStore, "arrayStore", "(Ljava/lang/Object;II)V") \
  X(Allocated, "allocated", "(Ljava/lang/Object;I)V") \
  /* PCTVB: an access to a tracked static variable */ \
  X(TrackedStatic, "trackedStatic", "(II)V") \
  /* PCTVB: an access to an object that may belong to a tracked variable */ \
  X(TrackedObject, "trackedObject", "(Ljava/lang/Object;II)V") \
  /* PCTVB: an object allocated at a tracked allocation site */ \
  X(TrackedAlloc, "trackedAlloc", "(Ljava/lang/Object;II)V") \
  /* profile runs: an access that is no scheduling point, counted in Java */ \
  X(CountObject, "countObject", "(Ljava/lang/Object;I)V") \
  X(CountStatic, "countStatic", "(I)V") \
  /* called from Thread.dispatchUncaughtException, not from rewritten code */ \
  X(Uncaught, "uncaught", "(Ljava/lang/Throwable;)V") \
  X(ThreadOnSpinWait, "threadOnSpinWait", "(I)V") \
  /* in LockSupport: Unsafe.park(absolute, time) */ \
  X(UnsafePark, "unsafePark", "(Ljdk/internal/misc/Unsafe;ZJI)V") \
  /* in LockSupport: Unsafe.unpark(thread) */ \
  X(UnsafeUnpark, "unsafeUnpark", "(Ljdk/internal/misc/Unsafe;Ljava/lang/Object;I)V") \
  /* before a java.util.concurrent call that may change its receiver */ \
  X(SyncCall, "syncCall", "(Ljava/lang/Object;I)V") \
  /* before one that only reads it */ \
  X(SyncRead, "syncRead", "(Ljava/lang/Object;I)V") \
  /* before a call that may be one on a program's subclass of a java.util.concurrent class */ \
  X(SyncCallIfConcurrent, "syncCallIfConcurrent", "(Ljava/lang/Object;I)V") \
  /* the scheduler's clock, for JDK concurrency code */ \
  X(NanoTime, "nanoTime", "(I)J") \
  X(CurrentTimeMillis, "currentTimeMillis", "(I)J") \
  /* first in java.lang.Shutdown.halt(int): the process ends with this status */ \
  X(Exiting, "exiting", "(I)V") \
  /* in place of java.time.Clock.currentInstant(): the scheduler's clock */ \
  X(ClockInstant, "clockInstant", "(I)Ljava/time/Instant;") \
  /* a seed about to be used: the execution's instead, for controlled threads */ \
  X(RandomSeed, "randomSeed", "(JI)J") \
  /* in place of Math.random() / StrictMath.random() */ \
  X(MathRandom, "mathRandom", "(I)D") \
  /* in place of UUID.randomUUID() */ \
  X(RandomUUID, "randomUUID", "(I)Ljava/util/UUID;") \
  /* in place of Collections.shuffle(List) */ \
  X(Shuffle, "shuffle", "(Ljava/util/List;I)V") \
  /* the hashCode() added to application classes (rewriter/stable_hashes.h) */ \
  X(IdentityHash, "identityHash", "(Ljava/lang/Object;)I") \
  /* a Thread.getId() result ThreadLocalRandom mixes into its seeds */ \
  X(StableThreadId, "stableThreadId", "(JI)J") \
  /* before Net.poll in NioSocketImpl: returns the timeout to poll with */ \
  X(IoPoll, "ioPoll", "(Ljava/io/FileDescriptor;IJI)J") \
  /* before EPoll.wait in the epoll selector: returns the timeout to wait */ \
  X(EpollWait, "epollWait", "(III)I") \
  /* in place of System.gc() and Runtime.gc(): a collection takes virtual time */ \
  X(SystemGc, "systemGc", "(I)V") \
  X(RuntimeGc, "runtimeGc", "(Ljava/lang/Runtime;I)V") \
  /* in place of Thread.Builder.start(task) and Thread.startVirtualThread(task), JDK 21+: the */ \
  /* thread is started as Thread.start() is (the builder is null for startVirtualThread) */ \
  X(ThreadBuilderStart, "threadBuilderStart", "(Ljava/lang/Object;Ljava/lang/Runnable;I)Ljava/lang/Thread;") \
  X(ThreadStartVirtual, "threadStartVirtual", "(Ljava/lang/Runnable;I)Ljava/lang/Thread;") \
  /* in LockSupport, JDK 21+: JavaLangAccess.parkVirtualThread() and (nanos), */ \
  /* unparkVirtualThread(thread) */ \
  X(VirtualPark, "virtualPark", "(Ljava/lang/Object;I)V") \
  X(VirtualParkNanos, "virtualParkNanos", "(Ljava/lang/Object;JI)V") \
  X(VirtualUnpark, "virtualUnpark", "(Ljava/lang/Object;Ljava/lang/Thread;I)V")
// clang-format on

enum class Hook {
#define JSCHED_HOOK_ENUMERATOR(e, name, desc) e,
  JSCHED_HOOKS(JSCHED_HOOK_ENUMERATOR)
#undef JSCHED_HOOK_ENUMERATOR
      Count
};

struct HookInfo {
  const char* name;
  const char* desc;
};

const HookInfo& hook_info(Hook h);
inline constexpr size_t kHookCount = size_t(Hook::Count);

// Class that holds the hooks in the default mode; in JDK mode they are added to
// java/lang/Thread instead.
inline constexpr const char* kShimClass = "java/lang/JSchedShim";

}  // namespace jsched::rw
