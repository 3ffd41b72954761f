// The bridge between the JVM and the scheduler when a strategy controls the run: which JVM
// threads are controlled, stable names for objects, the controller, and how a run ends.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/finding_kinds.h"
#include "jvmti-agent/executions/object_names.h"
#include "jvmti-agent/executions/one_core.h"
#include "jvmti-agent/executions/race_report.h"
#include "jvmti-agent/executions/watchdog.h"
#include "jvmti-agent/model/class_init_waits.h"
#include "jvmti-agent/model/lock_synchronizers.h"
#include "jvmti-agent/model/virtual_clock.h"
#include "protocol/outcome.h"
#include "scheduler/core/controller.h"
#include "scheduler/hapset/hapset_plan.h"

namespace jsched::agent {

class Runtime;

struct ThreadCtx {
  sched::ThreadId id = sched::kNoThread;
  uint64_t name_hash = 0;  // of the stable thread name
  uint64_t allocations = 0, first_touches = 0;
  int depth = 0;              // > 0 while inside jsched on this thread: hooks then act plain
  uint64_t epoch = 0;         // the execution (Runtime) the thread belongs to
  Runtime* owner = nullptr;   // that execution
  uint32_t deaths = 0;        // ThreadDeaths thrown at it once its execution was over
  uint32_t stale_points = 0;  // scheduling points it passed plainly since (tests only)
};

// -agentpath:<this agent's path>=<options>, quoted for a shell.
std::string agent_argument(const std::string& options);

// A replay (replay=FILE) that departs from its recording says where and ends the JVM with
// this status of its own: its outcome would not be the recorded run's.
inline constexpr int kReplayDivergedStatus = 6;
[[noreturn]] void replay_diverged(const std::string& why);

// Flushes System.out and System.err as the JVM started with them (before the process ends, or
// a report is written); remember_java_streams, at start, keeps them.
void remember_java_streams(JNIEnv* env);
void flush_java_streams(JNIEnv* env);

// One execution of a program, or of one iteration when the JVM runs several (iterations=N,
// test methods): a Runtime per execution, swapped in by the driver
// (jvmti-agent/executions/executions.h). Threads of an earlier execution are stale: at their next
// hook they stop for good.
class Runtime {
 public:
  Runtime(AgentState& agent, jvmtiEnv* jvmti, std::unique_ptr<sched::Strategy> strategy);
  // Drops the global references to its threads (they hold the execution's class loader).
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The controlled context of the calling thread, or nullptr when the thread is not
  // controlled (by the current execution) or is already inside jsched.
  static ThreadCtx* current();
  // The calling thread is (or was) a thread of an execution.
  static bool on_controlled_thread();
  // The calling thread belongs to an execution that is over.
  static bool stale();
  // Ends a stale thread, which must not run on beside the executions that follow: ThreadDeath
  // is pending when the hook returns (it unwinds, releasing its monitors); one that catches it
  // and goes on many times is parked for good instead.
  static void end_stale(JNIEnv* env);
  // A stale thread at a scheduling point that does not end it (tests): whether it has passed so
  // many that it spins, and must end all the same.
  static bool spins_stale();
  // The calling thread belongs to an execution that is over (inside jsched or not).
  static bool over();
  // The calling thread, of an execution that is over, leaves it for good (carried_threads.h): it
  // runs plainly from here on, and that Runtime may be deleted. Its context, or nullptr if it
  // had none.
  static ThreadCtx* leave_execution();
  // A thread that left its execution (`left`, its context there) ends as a stale thread does.
  static void end_as_stale(JNIEnv* env, ThreadCtx& left);
  // After a finding in one of several executions, once it is no longer the current one: the
  // threads waiting in its scheduler wake, and each ends with ThreadDeath as its hook returns.
  void end_threads(JNIEnv* env);
  // The calling thread is thread 0 of the current execution, which is not ending: it may end
  // there as a thread ends and run on for the next one (kept_thread_zero.h).
  static bool is_thread_zero_now();
  // The calling thread is thread 0 of an execution that is over, and not inside jsched.
  static bool thread_zero_of_an_ended_execution();
  // A thread ended (JVMTI ThreadEnd): to its execution, if it is over, or to the current one.
  static void any_thread_ended(JNIEnv* env, jthread t);
  // A thread started (JVMTI ThreadStart): to the execution that started it, or the current one.
  static void any_thread_started(JNIEnv* env, jthread t);
  // The calling OS thread carries virtual threads (model/virtual_threads.h).
  static void on_carrier();
  // Why no verdict of this run can be trusted (classes jsched could not instrument, unless
  // on-unsupported=warn), or "".
  std::string untrusted() const;
  // The execution is ending (a finding, or its last thread ended).
  bool finishing() const { return finishing_; }
  sched::Controller& ctl() { return ctl_; }
  VirtualClock& clock() { return clock_; }
  // The execution's source of chance for the program (new Random()'s seed, Math.random, ...):
  // drawn from its seed, in the order the schedule gives, so a seed and a schedule determine it.
  uint64_t next_random() {
    std::lock_guard<std::mutex> g(random_mu_);
    return random_.next();
  }

  // VM init: the main thread becomes thread 0. JVM threads started before this (their
  // ThreadStart events may arrive at any time) are never controlled.
  void start(JNIEnv* env, jthread main);
  // One of several executions in this JVM: thread 0 is `t`, a thread not yet started (by the
  // driver, which is not controlled). The execution ends when its last thread that is not a
  // daemon ends, or at its first finding; end() tells which.
  void start_execution(JNIEnv* env, jthread t, uint64_t iteration);
  RunOutcome end();  // waits for the execution's end (and for a kept thread 0 to be back)
  // Every thread of the execution has ended and left jsched: the Runtime may be deleted.
  bool all_gone();
  // Whether each thread of the execution has run its last code of the program (it may still be
  // in jsched's handling of its end).
  bool threads_ended();
  // Waits until threads_ended(), at most `limit`; whether they have. Woken as each thread of
  // any execution ends: a finding's threads unwind in microseconds, far below a polling period.
  bool await_threads_ended(std::chrono::milliseconds limit);
  // The process-wide watchdog, over whichever execution is current.
  static void start_watchdog(jvmtiEnv* jvmti, JNIEnv* env);
  static void stop_watchdog();  // the VM is dying: its exit would wait for a running watchdog
  // Thread.start hook: the model gets the child before the real start.
  sched::ThreadId spawn(JNIEnv* env, ThreadCtx& parent, jthread t);
  void abandon(JNIEnv* env, sched::ThreadId child);  // the real start failed
  // A carried thread (carried_threads.h) `t` becomes a thread of this execution, started by
  // `waker` now; it enters with enter() in itself.
  sched::ThreadId adopt(JNIEnv* env, ThreadCtx& waker, jthread t);
  // In the thread itself: it is thread `id` of this execution, and waits for its first turn.
  void enter(sched::ThreadId id);
  // JVMTI ThreadStart/ThreadEnd in the thread itself.
  void thread_started(JNIEnv* env, jthread t);
  void thread_ended(JNIEnv* env, jthread t);

  // Stable names: objects allocated by instrumented code are named by allocating thread and
  // allocation count; others by the first thread to touch them and its touch count; classes
  // by name. The name is the object's JVMTI tag.
  sched::ObjectId object_id(JNIEnv* env, jobject o, ThreadCtx& ctx) {
    return names_.of(env, o, ctx.name_hash, ctx.first_touches);
  }
  // The synchronizer of java.util.concurrent lock or condition `o` (named `id`) by its name, or
  // kNoObject (lock_synchronizers.h).
  sched::ObjectId synchronizer_id(JNIEnv* env, jobject o, sched::ObjectId id) {
    jobject s = synchronizers_.of(env, o);
    if (s == nullptr) return sched::kNoObject;
    const sched::ObjectId name = names_.derived(s, id);
    env->DeleteLocalRef(s);
    return name;
  }
  void name_new_object(jobject o, ThreadCtx& ctx) {
    names_.name_new(o, ctx.name_hash, ctx.allocations);
  }
  // The controlled thread behind a Thread object, or kNoThread.
  sched::ThreadId thread_of(jobject t);

  // Uncaught throwable in a controlled thread: remembered; the run ends with exit 3 when the
  // thread has finished dispatching it. Whether it repeats a kind of finding printed in full
  // before (FindingKinds): the JVM's own printing of it may then be spared.
  bool uncaught(JNIEnv* env, ThreadCtx& ctx, jthrowable e);
  static FindingKinds& finding_kinds();
  // The program printed `line`, which the output oracle's pattern finds (bug-output=): a bug,
  // unless the execution found one already. The execution ends with it as its threads end.
  void printed_bug(const std::string& line);
  // Ends the run now: writes the report, prints the summary, halts the JVM with the outcome's
  // exit status. One of several executions: the same, but instead of halting the JVM it
  // freezes the execution's threads and returns (callers then stop the calling thread, or
  // let it end).
  void finish(JNIEnv* env, RunOutcome outcome, const std::string& detail);
  // Ends the run as finish() does once it reaches step `step` (the state that step leaves, as
  // a replay stopping there sees it), the detail `why` followed by each thread's description.
  void finish_at(uint64_t step, RunOutcome outcome, const std::string& why);
  // Normal VM exit: report only.
  void vm_death(JNIEnv* env);
  // First thing in Shutdown.halt: the process ends with `status` (System.exit, Runtime.halt, or
  // the JVM's handler of a signal). Remembered for the report.
  void exiting(JNIEnv* env, int status);
  // The same while no execution runs (the driver between two): only a signal's end is told
  // apart (the JVM's handler thread, "SIGTERM handler"); the execution the JVM then dies in
  // reports it, or vm_death_between() when it dies with none.
  static void exiting_between(jvmtiEnv* jvmti, int status);
  // VM death while no execution runs, after some: how the iterations ended, if a signal or an
  // exit ended them.
  static void vm_death_between();

  // Virtual thread `vthread` started during the execution but not by a controlled thread's
  // start (reflection, JDK code jsched does not rewrite): it runs outside the execution, and the
  // verdict cannot be trusted.
  void virtual_thread_outside(JNIEnv* env, jthread vthread);

  // The calling thread `c` (the running one) blocks where the model cannot see: recorded as a
  // hidden block (`what`, for the report) and detached, so that others run meanwhile.
  void blocks_unseen(ThreadCtx& c, const std::string& what, jthread t);
  // ... and is back, perhaps on another carrier (a virtual thread): it waits for a turn.
  void unblocked(ThreadCtx& c);

  // A controlled thread blocked where the model cannot see (JVMTI monitor events, watchdog).
  // Reported as "thread <name><what>" and the thread's stack.
  void hidden_block(sched::ThreadId id, const std::string& what, jthread t);
  // A controlled thread that waits for another's class initialization: the class another
  // thread is initializing, if any.
  std::optional<InitWait> class_being_initialized_for(sched::ThreadId id);
  // Records that `id`, detached, waits for `w` (a cycle of such waits is a deadlock).
  void awaits_initialization(sched::ThreadId id, const InitWait& w);
  // No thread can run, and every thread the model lost sight of waits for a class's
  // initialization by a thread that waits too: a deadlock through class initialization. With
  // `modelled_only`, only when every such wait is the statics reset's own, which nothing else
  // can end: certain at once.
  bool init_waits_deadlocked(bool modelled_only);
  // After a wait of the statics reset's own: the execution ends as a deadlock if that wait
  // closed a cycle of them (certain at once, where the JVM's waits take the watchdog's looks).
  void finish_if_reset_waits_deadlocked(JNIEnv* env);
  // A thread of the execution waits in the JVM's own class initialization for a thread that
  // waits too: it never ends, nor can the program's classes of that loader be used again.
  bool stuck_in_jvm_initialization();

  jvmtiEnv* jvmti() const { return jvmti_; }
  OneCore& core() { return core_; }
  uint64_t seed() const { return seed_; }
  const std::string& detail() const { return detail_; }  // of the finding that ended it
  // The uncaught throwable that was its bug, as plain_uncaught.h names it; else empty.
  std::string bug_signature() const {
    std::lock_guard<std::mutex> g(mu_);
    return uncaught_signature_;
  }
  // The thread whose uncaught throwable was its bug, or kNoThread.
  sched::ThreadId bug_thread() const {
    std::lock_guard<std::mutex> g(mu_);
    return bug_thread_;
  }
  // The agent's option, as on the command line, with what reproduces this execution alone.
  std::string agent_option() const;
  uint64_t epoch() const { return epoch_; }
  std::string replay_command() const;

 private:
  friend class Watchdog;
  static void JNICALL watchdog_main(jvmtiEnv* jvmti, JNIEnv* env, void* arg);
  // The model's thread 0 and its Thread object; the controller's handlers.
  void attach_main(JNIEnv* env, jthread main, ThreadCtx& ctx);
  bool multi() const { return iteration_ != kSingle; }
  void stop_thread(JNIEnv* env, jthread t);  // an asynchronous ThreadDeath
  void collect_races();                      // into race_texts_, once
  void log_races(RunOutcome outcome);
  std::string describe_threads(JNIEnv* env, bool with_monitors);
  // "threads 0.1, 0.2" when every thread left is an idle pool or timer worker, else "".
  std::string idle_workers_only();
  std::string stack_of(jthread t);
  void write_report(JNIEnv* env, RunOutcome outcome, const std::string& detail);
  void write_trace(RunOutcome outcome, const std::string& detail);  // trace=FILE
  int exit_status(RunOutcome o);  // the process's, for Exit and Killed
  // Under replay=FILE: a run that ends before its schedule does is not the recorded run.
  void check_replay_complete(RunOutcome outcome);
  // The execution's HaPSet coverage as a JSON object; its pairs become known if it passed.
  // Under strategy=hapset with several executions, a finding's replay needs what the
  // executions before it taught: that goes to a plan file the replay command names.
  std::string end_hapsets(RunOutcome outcome);
  void write_replay_plan(sched::HapsetPlan& plan);  // sets hapset_plan_
  jthread jthread_of(sched::ThreadId t);

  AgentState& agent_;
  sched::ScheduleLog log_;
  sched::Controller ctl_;
  VirtualClock clock_;
  std::mutex random_mu_;
  sched::Rng random_;
  jvmtiEnv* jvmti_ = nullptr;
  ObjectNames names_;
  LockSynchronizers synchronizers_;
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, sched::ThreadId> thread_by_tag_;
  std::vector<jthread> threads_;  // global refs, by thread id
  std::vector<std::string> hidden_blocks_;
  std::string bug_;                 // description of the uncaught throwable
  bool bug_ours_ = false;           // ... which jsched caused (own_fault.h): an error, not a bug
  std::string uncaught_signature_;  // ... its class and where it was thrown
  sched::ThreadId bug_thread_ = sched::kNoThread;  // ... and the thread it ended
  // How the process is ending when it ends with a status other than 0 (exiting()): the
  // process's, not this execution's, as a signal may come between two executions and the JVM
  // die in the next (or in none).
  static inline std::mutex exit_mu_;
  static inline int exit_status_ = 0;
  static inline bool killed_ = false;
  static inline std::string exit_detail_;
  static void record_exit(int status, bool killed, const std::string& detail);  // the first
  // The last execution started among several, for a JVM that dies between two.
  static inline std::atomic<uint64_t> last_iteration_{UINT64_MAX}, last_seed_{0};
  std::atomic<bool> finishing_{false};
  std::atomic<uint64_t> start_ns_{0};
  std::atomic<uint64_t> virtual_threads_{0};  // started by the program during the execution
  const uint64_t seed_;
  const uint64_t epoch_;

  // One of several executions: which, and how it ended.
  static constexpr uint64_t kSingle = UINT64_MAX;
  uint64_t iteration_ = kSingle;
  ThreadCtx* main_ctx_ = nullptr;  // thread 0's, until thread 0 takes it up
  std::mutex end_mu_;
  bool has_outcome();  // takes end_mu_
  std::optional<RunOutcome> outcome_;
  std::string detail_;
  std::string hapset_plan_;  // the replay's plan (strategy=hapset, several executions)
  // Threads that ended after the execution did (end_threads): the model never sees them end.
  std::mutex left_mu_;
  std::vector<bool> left_;
  std::atomic<int> busy_{0};  // threads inside thread_ended (the last code they run here)

  // Threads detached because they wait for another thread's class initialization.
  std::map<sched::ThreadId, InitWait> init_waits_;
  std::vector<std::string> init_wait_log_;  // for the report
  std::vector<sched::TraceEvent> trace_;    // every step, with trace=
  // Races on plain fields, where plain accesses are points (accesses=shared or all).
  std::unique_ptr<sched::RaceDetector> races_;
  std::vector<RaceText> race_texts_;  // what it saw, once the execution ends
  bool races_collected_ = false;
  Watchdog watchdog_{*this};
  OneCore core_;
};

Runtime* runtime();  // nullptr under strategy=none, and between executions
// Makes `r` the current execution (a new epoch: the threads of the one before are stale).
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
