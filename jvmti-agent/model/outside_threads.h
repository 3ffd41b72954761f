// Threads the program started from outside every execution (a JUnit @BeforeAll, a static
// initializer the test runner ran, code between iterations): jsched does not control them,
// and they may unpark or interrupt controlled threads at moments real time decides. When no
// controlled thread can run while one of them may still act, the scheduler waits for it a
// little before virtual time jumps to the next deadline, and never calls that a deadlock
// (Model::set_outside).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "jvmti-agent/instrumentation/class_filter.h"

namespace jsched::agent {

class OutsideThreads {
 public:
  // Thread `t` is being started, at a call in class `caller`, by a thread no execution
  // controls: kept if the program starts it (the call is in a class `filter` instruments, or
  // one is on the stack: an executor the program made), not the test runner or the JDK.
  void started(JNIEnv* env, jvmtiEnv* jvmti, const ClassFilter& filter, const std::string& caller,
               jthread t);
  // Thread `t` is one of them whatever started it: a thread of an execution that is over and
  // is still alive (blocked in native code, say), or one such a thread starts.
  void adopt(JNIEnv* env, jvmtiEnv* jvmti, jthread t) { add(env, jvmti, t, false, 0); }
  // Thread `t` started while an execution runs, not as one of its threads: JDK code started
  // it for the program where jsched does not hook the start (a printer-lookup thread that runs
  // commands; the process reaper it then needs). Such a helper counts only while it runs (a
  // reaper in native code waiting for a process), not while it sleeps or waits: the JDK's
  // housekeeping threads (the cleaner) would otherwise hold every time jump.
  // `os_tid`: its Linux thread id when the call comes from the thread itself (0: unknown).
  void helper(JNIEnv* env, jvmtiEnv* jvmti, jthread t, int os_tid) {
    add(env, jvmti, t, true, os_tid);
  }
  // Thread `t` is a thread of the current execution again (carried_threads.h).
  void forget(JNIEnv* env, jobject t);
  // A controlled thread unparked `t` for real: until `t` parks again (parks(), from its own
  // park) or kWokenMs pass, it may act, whatever the JVM says of it. The JVM calls it parked
  // until it has run, which on a loaded machine is a while: a controlled thread that waits for
  // the task it handed an idle worker of a pool made in an earlier execution is no deadlock.
  void woken(JNIEnv* env, jobject t);
  // The calling thread, `self`, parks outside the model.
  void parks(JNIEnv* env, jobject self);
  static constexpr std::chrono::milliseconds kWokenMs{2000};
  // Whether one of them may still act on its own: alive (or about to start) and neither
  // blocked on a monitor nor waiting without a timeout.
  bool may_act(jvmtiEnv* jvmti);
  // For the grace they get (watchdog.h): mark_cpu() notes the CPU time each one whose Linux
  // thread is known has had so far; held_back(cpu_s) says whether one that may act is running or
  // ready to run (not asleep in the kernel) and has had less than `cpu_s` of CPU since: a helper
  // the machine keeps from a CPU has had no chance to act yet.
  void mark_cpu();
  bool held_back(jvmtiEnv* jvmti, double cpu_s);
  // "name (state)" of each alive one that the program started, or that may act now, for a
  // report.
  std::vector<std::string> describe(jvmtiEnv* jvmti);
  bool any() const { return count_.load(std::memory_order_relaxed) > 0; }

  static constexpr double kNoMark = -1;
  struct Entry {
    jobject thread;  // global ref
    bool helper;
    std::chrono::steady_clock::time_point since;    // registered then
    int os_tid = 0;                                 // 0: unknown
    double cpu_mark = kNoMark;                      // mark_cpu()'s, in s
    std::chrono::steady_clock::time_point woken{};  // woken(); cleared by parks()
  };

 private:
  void add(JNIEnv* env, jvmtiEnv* jvmti, jthread t, bool helper, int os_tid);
  std::mutex mu_;
  std::vector<Entry> threads_;  // the ended ones dropped as others start
  std::atomic<size_t> count_{0};
};

}  // namespace jsched::agent
