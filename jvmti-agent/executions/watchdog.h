// The watchdog's view of one execution (Runtime): a process-wide thread polls the current
// execution every millisecond (Runtime::start_watchdog). It ends hung executions, and lets
// another thread run when the running one blocks where the model cannot see (I/O, a JDK-internal
// lock, class initialization by another thread, park).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "jvmti-agent/executions/grace_clock.h"
#include "jvmti-agent/model/class_init_waits.h"
#include "jvmti-agent/model/kernel_threads.h"
#include "scheduler/core/op.h"

namespace jsched::agent {

class Runtime;

inline uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

class Watchdog {
 public:
  explicit Watchdog(Runtime& rt) : rt_(rt) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Thread `t` of the execution runs on the calling OS thread (whose kernel state tells asleep
  // from pre-empted).
  void thread_is_here(sched::ThreadId t);
  void poll(JNIEnv* env);  // one poll, with the watchdog's lock on the current execution
  // Thread `t`'s kernel state and CPU time so far ("kernel state R, 9.93 s of CPU": a thread
  // that runs without a scheduling point spins, one that is asleep blocks, one that waits for
  // a CPU is starved); empty when unknown.
  std::string os_describe(sched::ThreadId t);

 private:
  // Whether the kernel says thread `t` is asleep (S or D), as opposed to running or waiting
  // for a CPU.
  bool os_asleep(sched::ThreadId t);
  // What the kernel says of thread `t`.
  std::optional<KernelThread> os_thread(sched::ThreadId t);
  // The class initialization thread `id` (stuck, RUNNABLE to JVMTI) waits for, if it does.
  std::optional<InitWait> awaited_initialization(sched::ThreadId id, jthread t);
  // Whether the running thread of a stalled execution was held by the machine rather than the
  // program: with no step since the window began, runnable or in uninterruptible I/O and not
  // yet kRanShare of half a window's CPU since the window's half (cpu_held_: the budget may
  // still end it); otherwise with hardly any CPU for kStallCheckMs (then its window starts
  // again). True while it is being looked at.
  bool machine_stalled(uint64_t now, uint64_t window_ms, uint64_t made);
  // Once half the window has passed without progress: the running thread and its CPU time.
  void note_half_window(uint64_t now, uint64_t window_ms);
  // A livelock (Model::turning_on_time) once nothing has changed for the window (`changes`:
  // Model::changes now): asks the execution to end so, and then says true for good.
  bool livelock(uint64_t now, uint64_t window_ms, uint64_t made, uint64_t changes);
  // Whether `t`'s top frame is a native method.
  bool in_native_method(jthread t);
  void check_init_deadlock(JNIEnv* env);

  Runtime& rt_;
  std::mutex mu_;
  std::vector<int> os_tids_;    // Linux thread ids, by thread id (0: unknown)
  uint64_t hang_asked_ns_ = 0;  // when the controller was asked to stop for a hang
  uint64_t end_asked_ns_ = 0;   // ... for the end of the budget
  // The steps that changed something (Model::progress), when they last grew, and the
  // steps made by then (a spin of plain reads makes steps without progress).
  uint64_t progress_steps_ = 0, progress_ns_ = 0, steps_at_progress_ = 0;
  // The last poll; a longer gap than kPollGapMs between polls is time nobody ran.
  uint64_t last_poll_ns_ = 0;
  static constexpr uint64_t kPollGapMs = 50;
  // A stall looked at for this long before it is called a hang (machine_stalled), from when,
  // and the running thread's CPU time (clock ticks) then.
  static constexpr uint64_t kStallCheckMs = 200;
  uint64_t stall_check_ns_ = 0;
  double stall_cpu_s_ = 0;
  // The running thread and its CPU time (-1: unknown) when half the window that began at
  // half_for_ns_ (a progress_ns_) had passed; whether machine_stalled last found it held. CPU
  // time comes in clock ticks of 10 ms: a thread that had the CPU all along has more than
  // kRanShare of it.
  uint64_t half_for_ns_ = 0;
  sched::ThreadId half_thread_ = sched::kNoThread;
  double half_cpu_s_ = -1;
  bool cpu_held_ = false;
  static constexpr double kRanShare = 0.8;
  uint64_t paused_ns_ = 0;  // the gaps, which the budget does not count either
  // Model::changes, when it last grew, and when a livelock was called.
  uint64_t changes_seen_ = 0, changes_ns_ = 0, livelock_asked_ns_ = 0;
  // Timeouts each thread turning must have had since the last change: many turns of its loop,
  // not a retry or two.
  static constexpr uint32_t kLivelockTurns = 100;
  // How long no thread may run while threads outside the execution may still wake one
  // (outside_threads.h) before virtual time jumps to the next deadline: they act in real time,
  // a thread sleeping a millisecond between rounds well within it.
  // The grace counts on the watchdog's clock (grace_clock.h), and lasts (up to
  // kOutsideHeldMaxMs) while one of them that may act is runnable in the kernel and has not yet
  // had that much CPU: a loaded machine kept it from running.
  static constexpr uint64_t kOutsideGraceMs = 50, kOutsideHeldMaxMs = 2000;
  uint64_t outside_since_ns_ = 0;  // since when no thread runs, held for outside threads
  bool outside_grace_over(bool holds, uint64_t now);
  // Real time for the short windows here, counted only in polls that came on time.
  GraceClock grace_;
  // How long no thread may run while one waits for I/O from this process that may be on its
  // way (Model::held_for_io) before time jumps or a deadlock is called: the kernel's delivery
  // of what another thread wrote, which takes microseconds, more on a loaded machine.
  static constexpr uint64_t kIoGraceMs = 20;
  uint64_t io_since_ns_ = 0;
  // How long a deadlock the model sees must last before it is reported: a thread JDK code has
  // just started where jsched does not see (outside_threads.h) is registered as it starts.
  static constexpr uint64_t kDeadlockConfirmMs = 20;
  uint64_t deadlock_since_ns_ = 0;
  int init_deadlock_polls_ = 0;  // polls in a row that saw a deadlock through class initialization
  // The running thread across polls.
  sched::ThreadId last_ = sched::kNoThread;
  uint64_t steps_ = 0;
  int asleep_polls_ = 0;
};

}  // namespace jsched::agent
