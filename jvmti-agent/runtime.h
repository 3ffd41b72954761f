// The bridge between the JVM and the scheduler when a strategy controls the run: which JVM
// threads are controlled, stable names for objects, the controller, and how a run ends.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/virtual_clock.h"
#include "scheduler/controller.h"

namespace jsched::agent {

struct ThreadCtx {
  sched::ThreadId id = sched::kNoThread;
  uint64_t name_hash = 0;  // of the stable thread name
  uint64_t allocations = 0, first_touches = 0;
  int depth = 0;  // > 0 while inside jsched on this thread: hooks then act plain
};

// How a run ends; the exit status of SPEC §1.
enum class RunOutcome { Ok = 0, Bug = 3, Deadlock = 4, Hang = 5 };

class Runtime {
 public:
  Runtime(AgentState& agent, jvmtiEnv* jvmti, std::unique_ptr<sched::Strategy> strategy);

  // The controlled context of the calling thread, or nullptr when the thread is not
  // controlled or is already inside jsched.
  static ThreadCtx* current();
  sched::Controller& ctl() { return ctl_; }
  VirtualClock& clock() { return clock_; }

  // VM init: the main thread becomes thread 0; the watchdog starts. JVM threads started before
  // this (their ThreadStart events may arrive at any time) are never controlled.
  void start(JNIEnv* env, jthread main);
  // Thread.start hook: the model gets the child before the real start.
  sched::ThreadId spawn(JNIEnv* env, ThreadCtx& parent, jthread t);
  void abandon(sched::ThreadId child);  // the real start failed
  // JVMTI ThreadStart/ThreadEnd in the thread itself.
  void thread_started(JNIEnv* env, jthread t);
  void thread_ended(JNIEnv* env, jthread t);

  // Stable names: objects allocated by instrumented code are named by allocating thread and
  // allocation count; others by the first thread to touch them and its touch count; classes
  // by name. The name is the object's JVMTI tag.
  sched::ObjectId object_id(JNIEnv* env, jobject o, ThreadCtx& ctx);
  void name_new_object(jobject o, ThreadCtx& ctx);
  // The controlled thread behind a Thread object, or kNoThread.
  sched::ThreadId thread_of(jobject t);

  // Uncaught throwable in a controlled thread: remembered; the run ends with exit 3 when the
  // thread has finished dispatching it.
  void uncaught(JNIEnv* env, ThreadCtx& ctx, jthrowable e);
  // Ends the run now: writes the report, prints the summary, halts the JVM with the outcome's
  // exit status. Never returns.
  [[noreturn]] void finish(JNIEnv* env, RunOutcome outcome, const std::string& detail);
  // Normal VM exit: report only.
  void vm_death(JNIEnv* env);

  // A controlled thread blocked where the model cannot see (JVMTI monitor events, watchdog).
  void hidden_block(ThreadCtx& ctx, const std::string& what, jthread t);

  jvmtiEnv* jvmti() const { return jvmti_; }
  std::string replay_command() const;

 private:
  static void JNICALL watchdog_main(jvmtiEnv* jvmti, JNIEnv* env, void* arg);
  void watchdog(JNIEnv* env);
  std::string describe_threads(JNIEnv* env, bool with_monitors);
  // "threads 0.1, 0.2" when every thread left is an idle pool or timer worker, else "".
  std::string idle_workers_only();
  std::string stack_of(jthread t);
  void write_report(JNIEnv* env, RunOutcome outcome, const std::string& detail);
  jthread jthread_of(sched::ThreadId t);
  void set_os_tid(sched::ThreadId t);
  // Whether the kernel says thread `t` is asleep (S or D), as opposed to running or waiting
  // for a CPU.
  bool os_asleep(sched::ThreadId t);

  AgentState& agent_;
  sched::ScheduleLog log_;
  sched::Controller ctl_;
  VirtualClock clock_;
  jvmtiEnv* jvmti_ = nullptr;
  std::mutex mu_;
  std::unordered_map<uint64_t, sched::ThreadId> thread_by_tag_;
  std::vector<jthread> threads_;  // global refs, by thread id
  std::vector<int> os_tids_;      // Linux thread ids, by thread id (0: unknown)
  std::vector<std::string> hidden_blocks_;
  std::string bug_;  // description of the uncaught throwable
  std::atomic<bool> finishing_{false};
  std::atomic<uint64_t> start_ns_{0};
};

Runtime* runtime();  // nullptr under strategy=none
void set_runtime(Runtime* r);

// Marks the calling thread as inside jsched for the lifetime of the guard.
class InRuntime {
 public:
  explicit InRuntime(ThreadCtx& c) : c_(c) { ++c_.depth; }
  ~InRuntime() { --c_.depth; }
  InRuntime(const InRuntime&) = delete;
  InRuntime& operator=(const InRuntime&) = delete;

 private:
  ThreadCtx& c_;
};

}  // namespace jsched::agent
