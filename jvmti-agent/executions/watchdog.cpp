#include "jvmti-agent/executions/watchdog.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/instrumentation/class_hashes.h"
#include "jvmti-agent/model/outside_holder.h"

namespace jsched::agent {

void Watchdog::thread_is_here(sched::ThreadId t) {
  std::lock_guard<std::mutex> g(mu_);
  if (os_tids_.size() <= t) os_tids_.resize(t + 1, 0);
  os_tids_[t] = int(gettid());
}

std::optional<KernelThread> Watchdog::os_thread(sched::ThreadId t) {
  int tid;
  {
    std::lock_guard<std::mutex> g(mu_);
    tid = t < os_tids_.size() ? os_tids_[t] : 0;
  }
  return kernel_thread(tid);
}

bool Watchdog::os_asleep(sched::ThreadId t) {
  const std::optional<KernelThread> o = os_thread(t);
  return o && (o->state == 'S' || o->state == 'D');
}

std::string Watchdog::os_describe(sched::ThreadId t) {
  const std::optional<KernelThread> o = os_thread(t);
  if (!o) return "";
  char text[96];
  std::snprintf(text, sizeof text, "kernel state %c, %.2f s of CPU", o->state, o->cpu_s);
  return text;
}

// Ends hung runs, and lets another thread run when the running one blocks where the model
// cannot see (I/O, a JDK-internal lock, class initialization by another thread, park). A
// thread counts as blocked when the JVM says it is blocked, waiting or in native code and the
// kernel says it is asleep, on three polls in a row: a thread the OS merely preempted, or one
// stopped at a safepoint, is neither, so it keeps its turn and runs stay deterministic.
namespace {

// Polls (1 ms each) a thread asleep in a native method of the JVM's own must last: longer than
// any safepoint pause of a small test heap.
constexpr int kVmNativePolls = 50;

// Polls a thread must sleep, RUNNABLE to JVMTI and with no class initializer or loader to wait
// for, before it counts as blocked inside the VM where the model cannot see: a safepoint or a
// GC pause ends well before (and then the thread keeps its turn, so runs stay deterministic),
// while a wait inside the VM for a thread the model holds never ends by itself. One such wait
// (two of Jetty's threads at the same `new` while the machine was loaded, one parked by the
// model) used to end its run as a false hang.
constexpr int kUnexplainedSleepPolls = 500;

// Whether `holds` has held for more than `ms` across polls (`since`: since when, 0 when it does
// not hold); once it has, the count starts again.
bool lasted(uint64_t& since, bool holds, uint64_t now, uint64_t ms) {
  if (!holds) {
    since = 0;
  } else if (since == 0) {
    since = now;
  } else if (now - since > ms * 1000000ULL) {
    since = 0;
    return true;
  }
  return false;
}

}  // namespace

bool Watchdog::outside_grace_over(bool holds, uint64_t now) {
  OutsideThreads& outside = rt_.agent_.outside;
  if (!holds) {
    outside_since_ns_ = 0;
    return false;
  }
  if (outside_since_ns_ == 0) {
    outside_since_ns_ = now;
    outside.mark_cpu();
    return false;
  }
  const uint64_t ms = 1000000ULL, waited = now - outside_since_ns_;
  if (waited <= kOutsideGraceMs * ms) return false;
  // A helper still runnable that has not had the grace's length of CPU was kept from running.
  if (waited <= kOutsideHeldMaxMs * ms && outside.held_back(rt_.jvmti_, kOutsideGraceMs / 1e3))
    return false;
  outside_since_ns_ = 0;
  return true;
}

void Watchdog::poll(JNIEnv* env) {
  const Options& o = rt_.agent_.options;
  const uint64_t now = now_ns();
  // Time the watchdog itself was not run (the process stopped, the machine overloaded or
  // suspended) is time the program was not run either: it counts toward no window.
  if (last_poll_ns_ != 0 && now - last_poll_ns_ > kPollGapMs * 1000000ULL) {
    const uint64_t gap = now - last_poll_ns_;
    for (uint64_t* since : {&progress_ns_, &changes_ns_, &stall_check_ns_})
      if (*since != 0) *since += gap;
    paused_ns_ += gap;
  }
  last_poll_ns_ = now;
  const uint64_t grace_now = grace_.advance(now);
  // One look under the controller's lock, which every scheduling point takes too.
  const auto [made, progress, changes] = rt_.ctl_.inspect([](sched::Model& m) {
    return std::tuple<uint64_t, uint64_t, uint64_t>{m.steps(), m.progress(), m.changes()};
  });
  if (progress != progress_steps_ || progress_ns_ == 0) {
    progress_steps_ = progress;
    progress_ns_ = now;
    steps_at_progress_ = made;
  }
  // Slow is not hung: an execution still making steps when its budget runs out ends as a
  // timeout, not a finding; one whose threads made no step for the hang window is hung.
  uint64_t window_ms = o.timeout_ms;
  // The replay of a hang, at the recorded run's last step: a second without one will do.
  if (rt_.agent_.replay && rt_.agent_.replay->hang_steps() > 0 &&
      made >= rt_.agent_.replay->hang_steps())
    window_ms = std::min<uint64_t>(window_ms, 1000);
  note_half_window(now, window_ms);
  const bool stalled = now - progress_ns_ > window_ms * 1000000ULL;
  if (!stalled && livelock(now, window_ms, made, changes)) return;
  const bool spent = now - rt_.start_ns_ - paused_ns_ > o.budget() * 1000000ULL;
  if (spent && (!stalled || cpu_held_) && end_asked_ns_ == 0) {
    const double secs = double(now - rt_.start_ns_) / 1e9;
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", double(made) / secs);
    const std::string why =
        "no end after " + std::to_string(o.budget()) + " ms, " +
        (stalled
             ? "its running thread runnable but kept from the CPU by the machine"
             : "still making steps (" + std::to_string(made) + " steps, " + rate + " per second)") +
        ": slow, not hung (or a livelock: where each thread was follows)";
    end_asked_ns_ = now;
    rt_.finish_at(made, RunOutcome::Timeout, why + "\n");
    return;
  }
  if (end_asked_ns_ != 0 && (!stalled || cpu_held_)) {
    if (now - end_asked_ns_ > 200000000ULL) rt_.finish(env, RunOutcome::Timeout, "no end");
    return;
  }
  if (stalled && !machine_stalled(now, window_ms, made)) {
    const std::string why =
        window_ms < o.timeout_ms ? "the recorded run hung after " + std::to_string(made) +
                                       " steps (its watchdog); here at the same step: "
        : made == steps_at_progress_
            ? "no step for " + std::to_string(o.timeout_ms) + " ms: "
            : "no step another thread could see (only a spin over plain fields) for " +
                  std::to_string(o.timeout_ms) + " ms: ";
    // Described at the next step, as its replay (which stops at that step) will: the state a
    // step leaves, not wherever real time caught the running thread. A thread that makes no
    // more steps (a spin without scheduling points) is described as it is, a moment later.
    if (hang_asked_ns_ == 0) {
      hang_asked_ns_ = now;
      rt_.finish_at(rt_.ctl_.steps(), RunOutcome::Hang, why);
    } else if (now - hang_asked_ns_ > 200000000ULL) {
      rt_.finish(env, RunOutcome::Hang, why + rt_.describe_threads(env, true));
    }
    return;
  }
  sched::ThreadId running = rt_.ctl_.running();
  uint64_t steps = rt_.ctl_.steps();
  jthread t = running == sched::kNoThread ? nullptr : rt_.jthread_of(running);
  // A deadlock the model saw a moment ago, unless a thread outside it has come to act.
  const bool idle = running == sched::kNoThread;
  if (lasted(deadlock_since_ns_, idle && rt_.ctl_.deadlock_suspected(), grace_now,
             kDeadlockConfirmMs)) {
    rt_.ctl_.confirm_deadlock();
    return;
  }
  // Held for I/O in flight: looked at again each poll, and after kIoGraceMs time moves on.
  if (idle && rt_.ctl_.retry_io()) {
    if (lasted(io_since_ns_, true, grace_now, kIoGraceMs)) rt_.ctl_.release_outside();
    return;
  }
  io_since_ns_ = 0;
  // Threads outside the execution have had their chance to wake a waiter: time moves on, and
  // whether one may still act is asked again (a thread just started has aged, a helper stopped).
  if (outside_grace_over(idle && rt_.ctl_.idle(), grace_now)) {
    rt_.ctl_.release_outside();
    return;
  }
  if (running == sched::kNoThread) {
    bool init_waits;
    {
      std::lock_guard<std::mutex> g(rt_.mu_);
      init_waits = !rt_.init_waits_.empty();
    }
    if (init_waits) check_init_deadlock(env);
  }
  if (running != last_ || steps != steps_ || !t || ClassHashes::waiting()) {
    last_ = running;
    steps_ = steps;
    asleep_polls_ = 0;
    return;
  }
  jint state = 0;
  if (rt_.jvmti_->GetThreadState(t, &state) != JVMTI_ERROR_NONE) return;
  const jint blocked = JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER | JVMTI_THREAD_STATE_WAITING |
                       JVMTI_THREAD_STATE_PARKED | JVMTI_THREAD_STATE_SLEEPING |
                       JVMTI_THREAD_STATE_IN_NATIVE;
  // A thread waiting for a class's initialization is RUNNABLE to JVMTI (class_init_waits.h).
  const bool init_wait = may_await_initialization(state);
  if ((!(state & blocked) && !init_wait) || !os_asleep(running)) {
    asleep_polls_ = 0;
    return;
  }
  // A monitor a thread outside the execution holds is held briefly (outside_holder.h).
  const bool outside = (state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) &&
                       blocked_on_outside_monitor(rt_.jvmti_, rt_, t);
  if (++asleep_polls_ < (outside ? kOutsideHoldPolls : 3)) return;
  std::optional<InitWait> awaited;
  if (init_wait) {
    awaited = awaited_initialization(running, t);
    // A native method of the JVM's own that blocks inside the VM is RUNNABLE without
    // IN_NATIVE (JDK 21+'s VirtualThread.takeVirtualThreadListToUnblock waits there for
    // ever): blocked where the model cannot see, once it has slept longer than a safepoint.
    if (!awaited && asleep_polls_ < (in_native_method(t) ? kVmNativePolls : kUnexplainedSleepPolls))
      return;
  }
  if (!rt_.ctl_.detach_if_stuck(running, steps)) return;
  asleep_polls_ = 0;
  if (awaited) {
    rt_.awaits_initialization(running, *awaited);
    return;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "%x", unsigned(state));
  rt_.hidden_block(running,
                   std::string(" blocked outside jsched's view (JVMTI state 0x") + hex + ")", t);
}

void Watchdog::note_half_window(uint64_t now, uint64_t window_ms) {
  if (half_for_ns_ == progress_ns_ || now - progress_ns_ <= window_ms * 500000ULL) return;
  half_for_ns_ = progress_ns_;
  half_thread_ = rt_.ctl_.running();
  const std::optional<KernelThread> o =
      half_thread_ == sched::kNoThread ? std::nullopt : os_thread(half_thread_);
  half_cpu_s_ = o ? o->cpu_s : -1;
}

bool Watchdog::machine_stalled(uint64_t now, uint64_t window_ms, uint64_t made) {
  cpu_held_ = false;
  if (hang_asked_ns_ != 0) return false;
  const sched::ThreadId running = rt_.ctl_.running();
  if (running == sched::kNoThread) return false;  // no thread of its own to wait for
  const std::optional<KernelThread> o = os_thread(running);
  if (!o) return false;
  // No step at all since the window began, and the thread that runs ran at its half: runnable
  // (or in the kernel's uninterruptible I/O), it is hung once it has had the CPU for a window,
  // not once a window of real time has passed. A thread a loaded machine gives a third of a
  // CPU computes three times longer between steps; a spin still has its CPU, later.
  if (made == steps_at_progress_ && running == half_thread_ && half_for_ns_ == progress_ns_ &&
      half_cpu_s_ >= 0 && (o->state == 'R' || o->state == 'D')) {
    cpu_held_ = o->cpu_s - half_cpu_s_ < kRanShare * double(window_ms) / 2e3;
    return cpu_held_;
  }
  if (stall_check_ns_ == 0) {
    stall_check_ns_ = now;
    stall_cpu_s_ = o->cpu_s;
    return true;  // looked at again in a moment
  }
  if (now - stall_check_ns_ < kStallCheckMs * 1000000ULL) return true;
  stall_check_ns_ = 0;
  // Runnable or in the kernel's uninterruptible I/O wait, and hardly any CPU: the machine, not
  // the program, held it. The window starts again.
  if ((o->state == 'R' || o->state == 'D') &&
      o->cpu_s - stall_cpu_s_ < 0.25 * kStallCheckMs / 1e3) {
    progress_ns_ = now;
    return true;
  }
  return false;
}

bool Watchdog::livelock(uint64_t now, uint64_t window_ms, uint64_t made, uint64_t changes) {
  if (livelock_asked_ns_ != 0) return true;
  if (end_asked_ns_ != 0 || hang_asked_ns_ != 0) return false;
  if (changes != changes_seen_ || changes_ns_ == 0) {
    changes_seen_ = changes;
    changes_ns_ = now;
    return false;
  }
  if (now - changes_ns_ <= window_ms * 1000000ULL) return false;
  struct Turning {
    size_t threads;
    uint64_t turns;
    int64_t clock_ns;
  };
  const Turning turning = rt_.ctl_.inspect([](sched::Model& m) {
    Turning t{0, 0, m.now()};
    for (sched::ThreadId id : m.turning_on_time(kLivelockTurns)) {
      ++t.threads;
      t.turns += m.thread(id).turns;
    }
    return t;
  });
  if (turning.threads == 0) {
    changes_ns_ = now;  // asked again a window later
    return false;
  }
  char clock[32];
  std::snprintf(clock, sizeof clock, "%.1f", double(turning.clock_ns) / 1e9);
  const std::string why =
      "nothing changed for " + std::to_string(window_ms) + " ms while " +
      std::to_string(turning.threads) + (turning.threads == 1 ? " thread" : " threads") +
      " turned on timed waits (" + std::to_string(turning.turns) +
      " timeouts, reading only; the virtual clock at " + clock + " s, " + std::to_string(made) +
      " steps), every other thread waiting for good: a livelock, where each thread turns "
      "follows\n";
  livelock_asked_ns_ = now;
  rt_.finish_at(made, RunOutcome::Livelock, why);
  return true;
}

bool Watchdog::in_native_method(jthread t) {
  jmethodID method = nullptr;
  jlocation at = 0;
  jboolean native = JNI_FALSE;
  return rt_.jvmti_->GetFrameLocation(t, 0, &method, &at) == JVMTI_ERROR_NONE &&
         rt_.jvmti_->IsMethodNative(method, &native) == JVMTI_ERROR_NONE && native;
}

std::optional<InitWait> Watchdog::awaited_initialization(sched::ThreadId id, jthread t) {
  // Its next instruction must be one that initializes a class (JVMS 5.5): a static field, a
  // static method, or new.
  jmethodID method = nullptr;
  jlocation at = 0;
  if (rt_.jvmti_->GetFrameLocation(t, 0, &method, &at) != JVMTI_ERROR_NONE || at < 0) return {};
  jint size = 0;
  unsigned char* code = nullptr;
  if (rt_.jvmti_->GetBytecodes(method, &size, &code) != JVMTI_ERROR_NONE) return {};
  const uint8_t op = at < size ? code[at] : 0;
  rt_.jvmti_->Deallocate(code);
  if (!initializes_class(op)) return {};
  return rt_.class_being_initialized_for(id);
}

// A deadlock through class initialization (Runtime::init_waits_deadlocked), its waits the
// JVM's own, which the watchdog only infers: it holds over five polls.
void Watchdog::check_init_deadlock(JNIEnv* env) {
  std::map<sched::ThreadId, InitWait> waits;
  {
    std::lock_guard<std::mutex> g(rt_.mu_);
    waits = rt_.init_waits_;
  }
  const bool stuck = rt_.init_waits_deadlocked(false);
  for (const auto& [id, w] : waits) {
    if (stuck && !os_asleep(id)) return;  // just released: it is on its way back
  }
  if (!stuck) {
    init_deadlock_polls_ = 0;
    return;
  }
  if (++init_deadlock_polls_ < 5) return;
  rt_.finish(env, RunOutcome::Deadlock, rt_.describe_threads(env, true));
}

}  // namespace jsched::agent
