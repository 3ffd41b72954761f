// Thread.getState() of a controlled thread, as the model knows it. The JVM cannot say: a thread
// that waits in the model (a park, a wait, a monitor another thread holds), or for its turn,
// sits in jsched's native code, which the JVM calls RUNNABLE; programs and tests that poll a
// thread's state until it waits (guava's AbstractFutureTest, the JSR-166 TCK) would poll for
// ever.
#pragma once

#include <cstdint>

namespace jsched::sched {

// java.lang.Thread.State's ordinals; Unknown: ask the JVM (a thread blocked where the model
// cannot see).
enum class JavaState : int8_t {
  Unknown = -1,
  New = 0,
  Runnable = 1,
  Blocked = 2,
  Waiting = 3,
  TimedWaiting = 4,
  Terminated = 5,
};

}  // namespace jsched::sched
