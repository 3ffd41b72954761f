// Whether a monitor a controlled thread blocks on is held by a thread outside the execution (a
// JVM system thread: the Reference Handler enqueuing references after a GC, the Finalizer). Such
// a hold is brief: the controlled thread waits for it where it is instead of being taken out
// of the model, which would let another thread run at a moment the real GC decides and make
// the run depend on timing. Only a wait that lasts (the watchdog's patience) is a hidden block.
#pragma once

#include <jni.h>
#include <jvmti.h>

namespace jsched::agent {

class Runtime;

// `monitor`'s owner is no thread of `rt`'s execution (or nobody holds it any more).
bool held_outside(jvmtiEnv* jvmti, Runtime& rt, jobject monitor);

// The monitor thread `t` blocks on entering held outside, as above; false when it blocks on
// none or the JVM cannot tell.
bool blocked_on_outside_monitor(jvmtiEnv* jvmti, Runtime& rt, jthread t);

// Polls (of the watchdog's, 1 ms each) a controlled thread may wait for such a monitor.
inline constexpr int kOutsideHoldPolls = 200;

}  // namespace jsched::agent
