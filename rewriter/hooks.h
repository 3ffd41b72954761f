// The shim methods rewritten code calls (java-shim/java/lang/JSchedShim.java): names and
// descriptors, in one table the rewriter and the agent share. A unit test checks the table
// against the compiled shim class.
#pragma once

#include <cstddef>

namespace jsched::rw {

enum class Hook {
  MonitorEnter,
  MonitorExit,
  ObjectWait,
  ObjectWaitTimed,
  ObjectWaitNanos,
  ObjectNotify,
  ObjectNotifyAll,
  ThreadStart,
  ThreadJoin,
  ThreadJoinTimed,
  ThreadJoinNanos,
  ThreadSleep,
  ThreadSleepNanos,
  ThreadYield,
  ThreadInterrupt,
  ThreadIsInterrupted,
  ThreadInterrupted,
  ResolvesToThread,
  GetField,
  PutField,
  GetStatic,
  PutStatic,
  ArrayLoad,
  ArrayStore,
  Allocated,
  TrackedStatic,  // PCTVB: an access to a tracked static variable
  TrackedObject,  // PCTVB: an access to an object that may belong to a tracked variable
  TrackedAlloc,   // PCTVB: an object allocated at a tracked allocation site
  Uncaught,       // called from Thread.dispatchUncaughtException, not from rewritten code
  ThreadOnSpinWait,
  UnsafePark,    // in LockSupport: Unsafe.park(absolute, time)
  UnsafeUnpark,  // in LockSupport: Unsafe.unpark(thread)
  SyncCall,      // before a java.util.concurrent call that may change its receiver
  SyncRead,      // before one that only reads it
  NanoTime,      // the scheduler's clock, for JDK concurrency code
  CurrentTimeMillis,
  Exiting,         // first in java.lang.Shutdown.halt(int): the process ends with this status
  ClockInstant,    // in place of java.time.Clock.currentInstant(): the scheduler's clock
  RandomSeed,      // a seed about to be used: the execution's instead, for controlled threads
  MathRandom,      // in place of Math.random() / StrictMath.random()
  RandomUUID,      // in place of UUID.randomUUID()
  Shuffle,         // in place of Collections.shuffle(List)
  IdentityHash,    // the hashCode() added to application classes (rewriter/stable_hashes.h)
  StableThreadId,  // a Thread.getId() result ThreadLocalRandom mixes into its seeds
  IoPoll,          // before Net.poll in NioSocketImpl: returns the timeout to poll with
  EpollWait,       // before EPoll.wait in the epoll selector: returns the timeout to wait
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
