// The scheduler's model of a Java program's threads and monitors, independent of the JVM: who
// holds which monitor (and how often), who waits where, who is enabled, and what executing
// each thread's pending operation does. The Controller drives it for real JVM threads, the
// abstract-program interpreter drives it for tests; both see identical decisions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/core/fingerprint.h"
#include "scheduler/core/java_state.h"
#include "scheduler/core/location_table.h"
#include "scheduler/core/op.h"
#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"
#include "scheduler/hapset/hapset.h"
#include "scheduler/races/race_detector.h"

namespace jsched::sched {

enum class Outcome : uint8_t { Ok, Timeout, Interrupted, Spurious, IllegalMonitor, Aborted };

// One executed event, for a timeline (trace=): who, what, and whether the step pre-empted the
// thread that ran before although it could have gone on.
struct TraceEvent {
  ThreadId thread;
  Op op;
  bool preempt;
};

const char* outcome_name(Outcome o);

struct ThreadState {
  enum Status : uint8_t {
    Pending,   // at a scheduling point, waiting to perform `pending`
    Running,   // the one thread executing
    Waiting,   // in the wait set of pending.obj
    Detached,  // blocked in the JVM where the model cannot see; comes back on its own
    Dead
  };
  ThreadId id = 0;
  ThreadId parent = kNoThread;
  std::string name;  // stable across runs: "0" for main, "0.2" for its second child, ...
  uint64_t name_hash = 0;
  uint32_t children = 0;
  uint64_t events = 0;   // executed events, numbering them within the thread
  uint64_t choices = 0;  // steps of the schedule it took that touch something shared (SURW)
  Status status = Pending;
  Op pending;
  Outcome outcome = Outcome::Ok;
  uint32_t saved_count = 0;  // monitor recursion released by a wait
  bool interrupted = false;
  bool permit = false;         // LockSupport's permit
  bool suspended = false;      // Thread.suspend() without its resume() yet
  uint32_t monitors_held = 0;  // monitors it owns (the model's)
  // Model::changes() at its last step that changed nothing, and at the timed waits that timed
  // out since (`turns` of them): a thread turning in a loop on the clock (Model::turning_on_time).
  uint64_t quiet_at = UINT64_MAX, turns_at = UINT64_MAX;
  uint32_t turns = 0;
  // The clock, and how much of it was jumps, when its timed operation began; the longest of its
  // timeouts, and of its sleeps, that steps reached (Model::step_timeout_ns, step_sleep_ns).
  int64_t wait_from = 0, jumped_from = 0, step_timeout = 0, step_sleep = 0;
  // Model::steps() when its I/O wait's descriptor was last found not ready (UINT64_MAX: not
  // since it arrived): see Model::kIoRecheckSteps.
  mutable uint64_t io_quiet_at = UINT64_MAX;
  // Spurious wake-ups in a row at one wait or park site (no notify, permit, timeout or interrupt
  // between them), that site, and the step from which it may wake spuriously there again
  // (Model::set_spurious).
  uint32_t spurious_run = 0;
  int32_t spurious_site = 0;
  uint64_t spurious_from = 0;
};

struct MonitorState {
  ThreadId owner = kNoThread;
  uint32_t count = 0;
  std::vector<ThreadId> waiters;  // wait set, in arrival order
};

// Stable-name callback so the fingerprint can name objects; the caller owns naming.
class Model {
 public:
  explicit Model(Strategy& strategy) : strategy_(strategy) {}

  // The first thread (main), running.
  ThreadId add_main();
  // Threads a thread creates start Pending with a Begin step.
  ThreadId spawn(ThreadId parent);

  // The running thread arrives at a scheduling point wanting to perform `op`.
  void arrive(ThreadId t, const Op& op);
  // Operations applied when the running thread arrives, before the next decision: a monitor
  // released (Exit), a thread created (Start, use spawn), the thread's end (End), and Wait.
  void release(ThreadId t, ObjectId monitor);
  void started(ThreadId t, ThreadId child);
  void end(ThreadId t);
  // Wait on `monitor`: releases it and joins its wait set, or (when the thread is interrupted
  // or does not hold the monitor) fails at once; returns true when the thread now waits.
  bool wait(ThreadId t, ObjectId monitor, bool timed, int32_t site, uint64_t where = 0,
            int64_t deadline = -1);

  // LockSupport.unpark(target) by `t` (kNoThread: by a thread jsched does not control).
  void unpark(ThreadId t, ThreadId target);

  // Marks a thread blocked outside the model's sight / back at a scheduling point.
  void detach(ThreadId t);

  // Chooses and executes one enabled transition; returns the thread now running, or nothing
  // when no thread is enabled.
  std::optional<ThreadId> step();
  // The last step chose among a few threads (kFewCandidates at most), `t` one of them: `t`, if
  // not chosen, may well get the turn back soon. A thread that could not go (blocked) was none.
  static constexpr size_t kFewCandidates = 4;
  bool chose_among_few(ThreadId t) const {
    for (size_t i = 0; i < few_count_; ++i)
      if (few_[i] == t) return true;
    return false;
  }

  // All enabled transitions, ordered by thread id (valid until the next call).
  const std::vector<Candidate>& enabled() const;
  bool deadlocked() const;  // alive threads, none enabled, none detached
  bool any_alive() const;
  size_t detached_count() const;

  const ThreadState& thread(ThreadId t) const { return threads_.at(t); }
  // What Thread.getState() says of thread `t` (java_state.h).
  JavaState java_state(ThreadId t) const;
  size_t thread_count() const { return threads_.size(); }
  const std::unordered_map<ObjectId, MonitorState>& monitors() const { return monitors_; }
  uint64_t steps() const { return steps_; }
  // Steps that change what another thread may see (the watchdog's progress: a thread spinning
  // on plain fields makes steps under accesses=shared or all, and is hung all the same, as it
  // is without a step under accesses=volatile): all but plain reads, plain writes to what no
  // other thread has touched, and spurious wake-ups.
  uint64_t progress() const { return progress_; }
  // Steps and events that change the program's state as its threads see it: writes another
  // thread sees, notifies, unparks, interrupts, threads started and ended, I/O that arrived, a
  // thread gone where the model cannot see, threads outside the model let act. Not reads, lock
  // and unlock, waits and sleeps, spurious wake-ups.
  uint64_t changes() const { return changes_; }
  // A livelock the model can vouch for (the watchdog asks once changes() has stood still for
  // its window): since the last change every thread that made a step only turned on timed
  // waits, each timing out at least `min_turns` times, while every other thread is dead or
  // blocked with no deadline and no way to run, main among the ones turning or blocked. The
  // same states repeat and only the clock moves. The threads turning, or none.
  std::vector<ThreadId> turning_on_time(uint32_t min_turns) const;
  Outcome outcome(ThreadId t) const { return threads_.at(t).outcome; }
  Fingerprint& fingerprint() { return fingerprint_; }
  // Every executed event goes to `t` as well (null: none).
  void trace_into(std::vector<TraceEvent>* t) { trace_ = t; }
  // Every executed operation that is a HaPSet event goes to `h` (null: none).
  void learn_hapsets(HapsetLearner* h) { hap_ = h; }
  // Every executed operation goes to `r`, which looks for races on plain fields (null: none).
  void detect_races(RaceDetector* r) { races_ = r; }
  // Thread `t`, running, performs `op` without a scheduling point: the race detector sees it.
  void observe(ThreadId t, const Op& op) {
    if (races_) races_->event(t, op);
  }
  // Spurious wake-ups (the Java specification allows Object.wait, Condition.await and
  // LockSupport.park to return with no notify or unpark): at a step where some thread waits in
  // wait() or an untimed park() and another thread could run, with probability `p` the waiting
  // threads are candidates too, woken with Outcome::Spurious if chosen. The draws come from
  // `seed`, so a run and its replay draw alike. Never when no other thread could run: a
  // spurious wake-up is not progress, and a deadlock stays a deadlock. A thread that woke
  // spuriously k times in a row at one site (each time it went back to waiting there, as a loop
  // around its wait does) sits out the next (2^k - 1)/p steps: an idle daemon waiting for work
  // (a Timer's thread, a pool's idle worker) woke at one step in ten or so, a handoff there and
  // back each time, a tenth of a database's run, and its k-th wake-up in a row shows nothing its
  // first did not. Its first one after a real wake-up, or at another site, comes at the full p.
  void set_spurious(double p, uint64_t seed) {
    spurious_p_ = p;
    spurious_rng_ = Rng(seed ^ 0x7370757269f0757aULL);
  }

  // Virtual time (docs/agent.md, "Time"): `now()` ns since the execution began. Every executed
  // step costs `ns`; a timed operation (Op::timed, its deadline in Op::slot: a sleep, a timed
  // wait, join, park or I/O wait) can time out once now() has reached its deadline, and when no
  // thread can run otherwise time jumps to the earliest deadline. With `early`, a timed
  // operation may also time out at any step, time jumping to its deadline (a thread descheduled
  // for longer than the timeout: not a sleep, which never ends before its time). A deadline
  // below 0 is none known: such an operation may time out at any step (abstract programs).
  void set_time(int64_t step_ns, bool early) {
    step_ns_ = step_ns;
    early_timeouts_ = early;
  }
  int64_t now() const { return now_; }
  // Thread t's longest timed operation that timed out with at least half of its time passed by
  // steps, not by jumps: its deadline came from the program's own steps at `step_ns` each, which
  // a real JVM may run far faster (a timeout it would not reach). 0 when there was none.
  int64_t step_timeout_ns(ThreadId t) const { return threads_.at(t).step_timeout; }
  // The same for its sleeps: a thread that slept while others stepped (a test polling its
  // workers every 50 ms) saw their work at `step_ns` a step, slower than a real JVM's.
  int64_t step_sleep_ns(ThreadId t) const { return threads_.at(t).step_sleep; }

  // Threads outside the model that may still act (unpark, interrupt: threads the program
  // started from outside every execution). While `may_act()` says so and no thread can run,
  // time does not jump to the next deadline until release_outside(), and no deadlock is
  // called. `may_act` is asked only when no thread can run.
  void set_outside(std::function<bool()> may_act) { outside_ = std::move(may_act); }
  void release_outside() {
    released_ = true;
    ++changes_;  // they may have acted
  }
  // No thread runs because outside threads, or detached ones, may act first (set by enabled()).
  bool held_for_outside() const { return outside_active_ && !released_ && enabled_.empty(); }
  // No thread runs, and one waits for I/O whose other end is in this process: what a thread
  // wrote may not have reached the descriptor yet (the kernel delivers loopback data on its own
  // time), so time does not jump nor is a deadlock called until release_outside() (set by
  // enabled()). A client's read timed out at once while the server's answer was on its way.
  // Not held when nothing is on its way to any waiter (set_io_ready's `in_flight`).
  bool held_for_io() const { return io_hold_; }

  // Whether file descriptor `fd` is ready for the poll events `events` now (IoWait), and
  // whether what would make it ready may be on its way (without `in_flight`, it always may:
  // held_for_io() holds every time no thread runs while one waits for I/O).
  using IoReady = bool (*)(int fd, uint32_t events);
  void set_io_ready(IoReady f, IoReady in_flight = nullptr) {
    io_ready_ = f;
    io_in_flight_ = in_flight;
  }
  // A waiter's descriptor found not ready is asked again after this many steps, not at each
  // one: with a few threads in I/O waits (a server's selectors and acceptor) a poll() each at
  // every scheduling point was a tenth of a server's time. Data noticed a few steps late is data
  // the kernel delivered a few microseconds later, a schedule the program can meet anyway; when
  // no other thread can run, every waiter is asked afresh (enabled()).
  static constexpr uint64_t kIoRecheckSteps = 16;

  // Interrupt status, for isInterrupted()/interrupted().
  bool interrupted(ThreadId t) const { return threads_.at(t).interrupted; }
  void clear_interrupt(ThreadId t) { threads_.at(t).interrupted = false; }
  void set_interrupt(ThreadId t) { threads_.at(t).interrupted = true; }
  // Thread.suspend()/resume(): a suspended thread is not enabled, whatever it waits for.
  void suspend(ThreadId t, bool on) { threads_.at(t).suspended = on; }

 private:
  // Whether `t` can take a step at virtual time `now`.
  bool is_enabled(const ThreadState& t, int64_t now) const;
  // enabled()'s list of the threads is_enabled, and may_wake_.
  void list_enabled() const;
  bool may_wake_spuriously(const ThreadState& t) const;
  // After thread `t`'s wait or park at `site` ended: spurious wake-ups in a row, and its next
  // chance.
  void count_spurious(ThreadState& t, int32_t site);
  // Thread `t` begins to wait or park at `site`: another site than its spurious wake-ups' gets
  // its full chance at once.
  static void wait_site(ThreadState& t, int32_t site) {
    if (site != t.spurious_site) t.spurious_from = 0;
  }
  // A thread blocked in a timed operation that has not timed out: its deadline, or nothing.
  std::optional<int64_t> pending_deadline(const ThreadState& t) const;
  // Whether the thread's timed operation may time out now (its deadline reached, or early
  // timeouts), as far as time goes.
  bool may_time_out(const ThreadState& t, int64_t now) const;
  bool io_ready(const ThreadState& t) const;
  bool io_in_flight(const Op& op) const {
    return !io_in_flight_ || io_in_flight_(int(op.obj), uint32_t(op.var));
  }
  void execute(ThreadState& t);
  void jump(int64_t to);  // time passes to `to` without a step
  // `t`'s timed operation `op` timed out, or its sleep (or busy time) ended: the clock is at its
  // deadline at least.
  void timed_out(ThreadState& t, const Op& op);
  void slept(ThreadState& t, const Op& op);
  // Jumps to `deadline`; the span of `t`'s wait until it when steps passed half of it or more.
  int64_t stepped_span(const ThreadState& t, int64_t deadline);
  void record(ThreadState& t, const Op& op);
  MonitorState& monitor(ObjectId m) { return monitors_[m]; }
  void forget_if_idle(ObjectId m);

  Strategy& strategy_;
  std::vector<ThreadState> threads_;
  // Monitors stay in the map once seen (re-inserting them on every acquire would allocate on
  // the hot path); idle ones are swept when the map grows large.
  std::unordered_map<ObjectId, MonitorState> monitors_;
  mutable std::vector<Candidate> enabled_;
  // enabled()'s first pass may take a waiter's recent "not ready" (io_fresh_ false); one it
  // took it from sets io_stale_.
  mutable bool io_fresh_ = true, io_stale_ = false;
  mutable bool may_wake_ = false;  // enabled() saw a thread that may wake spuriously
  uint64_t steps_ = 0;
  uint64_t progress_ = 0;
  uint64_t changes_ = 0;
  bool changes_what_others_see(const ThreadState& t, const Op& op);
  // Whether executing `op` (`seen`: changes_what_others_see) changed the program's state
  // (changes()), and a timed wait that timed out is a turn of its thread.
  void count_change(ThreadState& t, const Op& op, bool seen);
  // Locations written or read: the one thread that touched each, or several (plain accesses),
  // and the fingerprint's levels of the location, kept together so that an access step looks
  // its location up once (a cache miss each in a heavy program's table).
  struct Variable {
    ThreadId thread = kNoThread;  // kNoThread: nobody yet
    Fingerprint::Levels levels;
  };
  LocationTable<Variable> variables_;
  Variable* variable_ = nullptr;  // the one the last record() touched, until the next one
  static constexpr size_t kMaxTouched = size_t(1) << 20;
  Fingerprint fingerprint_;
  HapsetLearner* hap_ = nullptr;
  RaceDetector* races_ = nullptr;
  IoReady io_ready_ = nullptr, io_in_flight_ = nullptr;
  std::vector<TraceEvent>* trace_ = nullptr;
  ThreadId last_ = kNoThread;          // the thread of the step before
  ThreadId few_[kFewCandidates] = {};  // the last step's candidates, if few
  size_t few_count_ = 0;
  bool preempt_now_ = false;  // the step being executed pre-empts last_
  double spurious_p_ = 0;
  Rng spurious_rng_{0};
  bool spurious_now_ = false;  // this step's draw: waiting threads are candidates
  int64_t now_ = 0;
  int64_t jumped_ = 0;  // how much of now_ came from jumps (to a deadline), not from steps
  int64_t step_ns_ = 0;
  bool early_timeouts_ = false;
  // enabled() found nothing enabled: the threads with the earliest deadline are, at that time.
  mutable int64_t jump_to_ = -1;
  std::function<bool()> outside_;
  mutable bool outside_active_ = false;  // enabled() found none enabled, and outside_() true or
                                         // a thread detached
  mutable bool io_hold_ = false;         // enabled() found none enabled, I/O waits pending
  bool released_ = false;                // release_outside(), until the next step
};

}  // namespace jsched::sched
