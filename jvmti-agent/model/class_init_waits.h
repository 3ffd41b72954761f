// Threads waiting for another thread's class initialization (JVMS §5.5). The JVM blocks a
// thread that touches a class another thread is initializing until that <clinit> ends; JVMTI
// shows such a thread as RUNNABLE (not blocked), so the watchdog recognises it by the kernel
// saying it sleeps while another controlled thread has a <clinit> frame on its stack. The model
// then treats it as blocked on the initializing thread (detached until the JVM lets it go),
// and a cycle of such waits (two initializers touching each other's class from two threads) is
// a deadlock.
#pragma once

#include <jvmti.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/core/op.h"

namespace jsched::agent {

struct InitWait {
  sched::ThreadId by = sched::kNoThread;  // the thread it waits for
  // What it waits for, said so that " by thread N" follows: "the initialization of class C".
  std::string what;
  // A wait of the statics reset's own (an initializer run again): nothing but that
  // initializer's end wakes it, where a wait the watchdog inferred is only likely.
  bool modelled = false;
};

// A class one of the threads `others` is initializing (a <clinit> frame on its stack, the
// innermost of the first such thread), and by whom; failing that, a thread loading a class (a
// class loader's loadClass on its stack): the JVM also holds a thread that needs a class
// another thread is loading (its superclass, say) until that loading is done.
std::optional<InitWait> class_being_initialized(
    jvmtiEnv* jvmti, const std::vector<std::pair<sched::ThreadId, jthread>>& others);

// Whether a bytecode instruction can start a class's initialization (JVMS 5.5): a static field
// access, a static method call, new.
bool initializes_class(uint8_t opcode);

// Whether a JVMTI thread state can be a wait for class initialization: alive, runnable, not
// in native code, not in any of the states JVMTI reports for monitors, waits or parks.
bool may_await_initialization(jint state);

}  // namespace jsched::agent
