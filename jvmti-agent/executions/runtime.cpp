#include "jvmti-agent/executions/runtime.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "jvmti-agent/agent_thread.h"
#include "jvmti-agent/executions/carried_threads.h"
#include "jvmti-agent/executions/driver_wake.h"
#include "jvmti-agent/executions/execution_loop.h"
#include "jvmti-agent/executions/kept_thread_zero.h"
#include "jvmti-agent/executions/plain_uncaught.h"
#include "jvmti-agent/executions/tsca_report.h"
#include "jvmti-agent/hooks/frame_method.h"
#include "jvmti-agent/hooks/observer.h"
#include "jvmti-agent/instrumentation/own_fault.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/model/class_init_waits.h"
#include "jvmti-agent/model/io_waits.h"
#include "jvmti-agent/model/park_report.h"
#include "jvmti-agent/model/thread_starts.h"
#include "jvmti-agent/model/virtual_thread_service.h"
#include "jvmti-agent/model/virtual_threads.h"
#include "jvmti-agent/shell_words.h"
#include "protocol/json_object.h"
#include "rewriter/hooks.h"
#include "scheduler/core/fingerprint.h"

namespace jsched::agent {

namespace {

std::atomic<Runtime*> g_runtime{nullptr};
std::mutex g_runtime_mu;  // held by the watchdog while it looks at the current execution
std::atomic<uint64_t> g_epoch{0}, g_epochs{0};
std::atomic<bool> g_vm_dying{false};  // the watchdog ends (the JVM's exit waits for it)
thread_local ThreadCtx* t_ctx = nullptr;
// A carrier of virtual threads (model/virtual_threads.h): the context is the mounted virtual
// thread's, kept in its JVMTI thread-local storage, which follows it from carrier to carrier.
thread_local bool t_carrier = false;

ThreadCtx* here() {
  if (!t_carrier) [[likely]]
    return t_ctx;
  void* c = nullptr;
  if (state().jvmti->GetThreadLocalStorage(nullptr, &c) != JVMTI_ERROR_NONE) return nullptr;
  return static_cast<ThreadCtx*>(c);
}

void set_here(ThreadCtx* c) {
  if (!t_carrier) [[likely]] {
    t_ctx = c;
    return;
  }
  state().jvmti->SetThreadLocalStorage(nullptr, c);
}

// Threads a controlled thread started whose JVMTI ThreadStart has not come yet, by tag: their
// execution, which need not be the current one by then.
std::mutex g_starting_mu;
std::unordered_map<uint64_t, Runtime*> g_starting;
std::mutex g_ctx_mu;
std::deque<ThreadCtx> g_ctxs;  // stable addresses; contexts live as long as the process

ThreadCtx& new_ctx(sched::ThreadId id, const std::string& name, Runtime* owner) {
  std::lock_guard<std::mutex> g(g_ctx_mu);
  ThreadCtx& c = g_ctxs.emplace_back();
  c.id = id;
  c.name_hash = sched::hash_string(name);
  c.epoch = owner->epoch();
  c.owner = owner;
  return c;
}

}  // namespace

namespace {
// The JVM's own System.out and System.err, as they were at start (remember_java_streams).
std::atomic<jobject> g_std_streams[2] = {nullptr, nullptr};
constexpr const char* kStreamNames[2] = {"out", "err"};
}  // namespace

void remember_java_streams(JNIEnv* env) {
  jclass system = env->FindClass("java/lang/System");
  for (int i = 0; i < 2; ++i) {
    jfieldID f =
        system ? env->GetStaticFieldID(system, kStreamNames[i], "Ljava/io/PrintStream;") : nullptr;
    jobject ps = f ? env->GetStaticObjectField(system, f) : nullptr;
    if (ps) g_std_streams[i].store(env->NewGlobalRef(ps));
    env->ExceptionClear();
  }
}

void flush_java_streams(JNIEnv* env) {
  // The streams the JVM started with, not those a program set in their place: flushing a
  // program's stream runs its code, which may wait for one of its threads that jsched has
  // stopped (jconsole's OutputViewer pipes System.out to a thread of its own: the JVM hung).
  for (std::atomic<jobject>& stream : g_std_streams) {
    jobject ps = stream.load();
    if (ps) env->CallVoidMethod(ps, env->GetMethodID(env->GetObjectClass(ps), "flush", "()V"));
    env->ExceptionClear();
  }
}

void replay_diverged(const std::string& why) {
  log_line("replay diverged " + why + ": this run is not the recorded one");
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(kReplayDivergedStatus);
}

Runtime* runtime() {
  return g_runtime.load(std::memory_order_acquire);
}
void set_runtime(Runtime* r) {
  std::lock_guard<std::mutex> g(g_runtime_mu);
  g_epoch.store(r ? r->epoch() : 0, std::memory_order_release);
  g_runtime.store(r, std::memory_order_release);
}

ThreadCtx* Runtime::current() {
  ThreadCtx* c = here();
  if (c == nullptr || c->depth != 0) return nullptr;
  return c->epoch == g_epoch.load(std::memory_order_relaxed) ? c : nullptr;
}

bool Runtime::on_controlled_thread() {
  return here() != nullptr;
}

bool Runtime::stale() {
  return over() && here()->depth == 0;
}

bool Runtime::over() {
  ThreadCtx* c = here();
  return c != nullptr && c->epoch != g_epoch.load(std::memory_order_relaxed);
}

void Runtime::end_stale(JNIEnv* env) {
  ThreadCtx* c = here();
  if (c == nullptr || env->ExceptionCheck()) return;  // already unwinding
  // A thread that catches Throwable in a loop would take ThreadDeath for ever, at full speed.
  constexpr uint32_t kMaxDeaths = 100;
  if (++c->deaths > kMaxDeaths) {
    // It never acts again: no execution may wait for it as a thread outside that may (it would
    // hold every later execution's time jumps for their grace, to the JVM's end).
    jthread self = nullptr;
    if (state().jvmti->GetCurrentThread(&self) == JVMTI_ERROR_NONE) {
      state().outside.forget(env, self);
      env->DeleteLocalRef(self);
    }
    for (;;) pause();
  }
  if (jthrowable e = new_thread_death(env)) env->Throw(e);
}

bool Runtime::spins_stale() {
  // Far more than an executor's worker passes on its way back to its queue.
  constexpr uint32_t kStalePoints = 100000;
  ThreadCtx* c = here();
  return c != nullptr && ++c->stale_points > kStalePoints;
}

void Runtime::end_threads(JNIEnv* env) {
  std::vector<sched::ThreadId> alive = ctl_.inspect([](sched::Model& m) {
    std::vector<sched::ThreadId> ids;
    for (size_t i = 0; i < m.thread_count(); ++i)
      if (m.thread(sched::ThreadId(i)).status != sched::ThreadState::Dead)
        ids.push_back(sched::ThreadId(i));
    return ids;
  });
  // Most end at their next hook; one blocked where jsched does not see (a process reaper in
  // native code) may still act while the next executions run. Counted so before they wake: a
  // thread 0 that unwinds to its driver at once is back in jsched's hands there
  // (kept_thread_zero.h), and must not be counted again after.
  for (sched::ThreadId id : alive) {
    if (jthread t = jthread_of(id)) agent_.outside.adopt(env, jvmti_, t);
  }
  ctl_.abort();
  // One waiting for a class's initializer, run again, ends at the interrupt: nothing else would
  // wake it when that initializer waits too.
  std::map<sched::ThreadId, InitWait> init_waits;
  {
    std::lock_guard<std::mutex> g(mu_);
    init_waits = init_waits_;
  }
  for (const auto& [id, w] : init_waits) {
    jthread t = jthread_of(id);
    if (t != nullptr && in_reset_code(jvmti_, t, "awaitInitialization")) jvmti_->InterruptThread(t);
  }
}

bool Runtime::await_threads_ended(std::chrono::milliseconds limit) {
  // Thread 0 on its way back to wait for the next execution (kept_thread_zero.h) is waited
  // for too: it is the last to leave, and the driver needs it next.
  driver_wake::wait_for(limit,
                        [this] { return threads_ended() && !kept_thread_zero::returning(); });
  return threads_ended();
}

ThreadCtx* Runtime::leave_execution() {
  ThreadCtx* c = here();
  if (c == nullptr || !over()) return nullptr;
  set_here(nullptr);
  // Its Runtime may be deleted once every thread has left: this is the last touch of it.
  if (Runtime* owner = std::exchange(c->owner, nullptr)) {
    std::lock_guard<std::mutex> g(owner->left_mu_);
    if (owner->left_.size() <= c->id) owner->left_.resize(c->id + 1, false);
    owner->left_[c->id] = true;
  }
  driver_wake::notify();
  return c;
}

void Runtime::end_as_stale(JNIEnv* env, ThreadCtx& left) {
  set_here(&left);
  end_stale(env);
}

bool Runtime::is_thread_zero_now() {
  ThreadCtx* c = here();
  Runtime* rt = runtime();
  return c != nullptr && rt != nullptr && c->owner == rt && c->id == 0 && c->depth == 0 &&
         !over() && !rt->finishing();
}

bool Runtime::thread_zero_of_an_ended_execution() {
  ThreadCtx* c = here();
  return c != nullptr && c->id == 0 && c->depth == 0 && over();
}

void Runtime::any_thread_ended(JNIEnv* env, jthread t) {
  carried_thread_ended();
  if (t_carrier && here() != nullptr) carrier_freed();  // a virtual thread of the model
  if (over()) {
    leave_execution();
  } else if (Runtime* rt = runtime()) {
    rt->thread_ended(env, t);
  }
  driver_wake::notify();
}

Runtime::Runtime(AgentState& agent, jvmtiEnv* jvmti, std::unique_ptr<sched::Strategy> strategy)
    : agent_(agent),
      ctl_(std::move(strategy), agent.options.record.empty() ? nullptr : &log_),
      clock_([this] { return ctl_.now(); }),
      random_(agent.options.seed ^ 0x72616e646f6d2121ULL),
      jvmti_(jvmti),
      names_(jvmti),
      seed_(agent.options.seed),
      epoch_(++g_epochs) {
  log_.options = format_options(agent.options);
  if (!agent.options.trace.empty())
    ctl_.inspect([this](sched::Model& m) {
      m.trace_into(&trace_);
      return 0;
    });
  if (rw::plain_points(agent.accesses)) {
    races_ = std::make_unique<sched::RaceDetector>();
    ctl_.inspect([this](sched::Model& m) {
      m.detect_races(races_.get());
      return 0;
    });
  }
  ctl_.set_spurious(agent.options.spurious, seed_);
  ctl_.set_time(agent.step_time_ns, agent.options.early_timeouts);
  ctl_.set_io_ready(&fd_ready, &fd_in_flight);
  ctl_.set_outside([&agent, jvmti] { return agent.outside.may_act(jvmti); });
  if (Statements* st = agent.statements.get()) {
    agent.hapset.next_execution();
    ctl_.learn_hapsets(&agent.hapset, [st] { return st->current(); });
  }
}

Runtime::~Runtime() {
  JNIEnv* env = nullptr;
  if (agent_.vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) return;
  for (jthread t : threads_) {
    if (t) env->DeleteGlobalRef(t);
  }
}

void Runtime::finish_at(uint64_t step, RunOutcome outcome, const std::string& why) {
  ctl_.stop_at(step, [this, outcome, why] {
    JNIEnv* e = nullptr;
    agent_.vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_8);
    finish(e, outcome, why + describe_threads(e, true));
  });
}

void Runtime::attach_main(JNIEnv* env, jthread main, ThreadCtx& ctx) {
  start_ns_ = now_ns();
  ctl_.on_deadlock([this] {
    JNIEnv* e = nullptr;
    agent_.vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_8);
    if (std::string idle = idle_workers_only(); !idle.empty()) {
      finish(e, RunOutcome::Ok,
             "the program is done but left " + idle +
                 " waiting for work (its executor or timer was never shut down; a plain JVM "
                 "would not exit)");
    } else {
      finish(e, RunOutcome::Deadlock, describe_threads(e, true));
    }
  });
  ctl_.confirm_deadlocks_later([this] {
    JNIEnv* e = nullptr;
    // A caller the JVM does not know (none is expected) leaves it to the watchdog.
    return agent_.vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_8) == JNI_OK &&
           !thread_starts::any_in_flight(jvmti_, e);
  });
  ctl_.on_error([](const std::string& msg) { replay_diverged(msg); });
  if (agent_.replay && agent_.replay->hang_steps() > 0) {
    const bool livelock = agent_.replay->livelock();
    const uint64_t at = agent_.replay->hang_steps();
    finish_at(at, livelock ? RunOutcome::Livelock : RunOutcome::Hang,
              std::string(livelock ? "the recorded run livelocked after "
                                   : "the recorded run hung after ") +
                  std::to_string(at) + " steps (its watchdog); here at the same step: ");
  }
  sched::ThreadId id = ctl_.attach_main();
  {
    std::lock_guard<std::mutex> g(mu_);
    threads_.push_back(static_cast<jthread>(env->NewGlobalRef(main)));
  }
  InRuntime guard(ctx);
  // Others name main by its Thread object too (unpark, interrupt, join).
  uint64_t tag = object_id(env, main, ctx);
  std::lock_guard<std::mutex> g(mu_);
  thread_by_tag_[tag] = id;
}

void Runtime::start(JNIEnv* env, jthread main) {
  set_here(&new_ctx(0, "0", this));
  watchdog_.thread_is_here(0);
  core_.join();
  attach_main(env, main, *here());
}

void Runtime::start_execution(JNIEnv* env, jthread t, uint64_t iteration) {
  iteration_ = iteration;
  last_iteration_ = iteration;
  last_seed_ = seed_;
  ctl_.end_with_thread_zero(agent_.tests);
  ctl_.on_done([this] {
    JNIEnv* e = nullptr;
    agent_.vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_8);
    finish(e, RunOutcome::Ok, "");
  });
  // Thread 0's context is made now (its object's name counts as its first touch, as for the
  // launcher's main thread) and taken up by the thread when it starts.
  main_ctx_ = &new_ctx(0, "0", this);
  // A thread 0 kept from the last execution carries that one's name: named afresh, as a new
  // thread's object is.
  jvmti_->SetTag(t, 0);
  attach_main(env, t, *main_ctx_);
}

bool Runtime::has_outcome() {
  std::lock_guard<std::mutex> g(end_mu_);
  return outcome_.has_value();
}

RunOutcome Runtime::end() {
  // A thread 0 that ends the execution as it leaves it (kept_thread_zero.h) wakes the driver
  // once it waits for the next one, not at the end itself: woken there, the driver would only
  // wait for it again. The bound is for one that never comes back (take() waits no longer).
  while (!driver_wake::wait_for(std::chrono::milliseconds(100),
                                [this] { return has_outcome() && !kept_thread_zero::returning(); }))
    if (has_outcome()) break;
  std::lock_guard<std::mutex> g(end_mu_);
  return *outcome_;
}

bool Runtime::threads_ended() {
  std::vector<bool> left;
  {
    std::lock_guard<std::mutex> g(left_mu_);
    left = left_;
  }
  // Each either ended in the model or, after the execution's end, left it.
  return ctl_.inspect([&](sched::Model& m) {
    for (size_t i = 0; i < m.thread_count(); ++i) {
      if (m.thread(sched::ThreadId(i)).status != sched::ThreadState::Dead &&
          !(i < left.size() && left[i]))
        return false;
    }
    return true;
  });
}

bool Runtime::all_gone() {
  return threads_ended() && busy_.load() == 0;
}

void Runtime::start_watchdog(jvmtiEnv* jvmti, JNIEnv* env) {
  if (!start_agent_thread(jvmti, env, "jsched watchdog", &Runtime::watchdog_main, nullptr,
                          JVMTI_THREAD_MAX_PRIORITY))
    log_line("warning: cannot start the watchdog; hangs and hidden blocks will not be detected");
}

sched::ThreadId Runtime::spawn(JNIEnv* env, ThreadCtx& parent, jthread t) {
  if (is_virtual(env, t)) carrier_wanted(env);
  jmethodID is_daemon = env->GetMethodID(refs().Thread, "isDaemon", "()Z");
  bool daemon = env->CallBooleanMethod(t, is_daemon);
  sched::ThreadId child = ctl_.spawn(parent.id, daemon);
  uint64_t tag = object_id(env, t, parent);
  {
    std::lock_guard<std::mutex> g(g_starting_mu);
    g_starting[tag] = this;
  }
  std::lock_guard<std::mutex> g(mu_);
  thread_by_tag_[tag] = child;
  if (threads_.size() <= child) threads_.resize(child + 1, nullptr);
  threads_[child] = static_cast<jthread>(env->NewGlobalRef(t));
  return child;
}

void Runtime::on_carrier() {
  t_carrier = true;
}

void Runtime::any_thread_started(JNIEnv* env, jthread t) {
  if (is_carrier(env, t)) {  // it serves virtual threads only: never the program's thread
    on_carrier();
    return;
  }
  if (runs_for_virtual_threads(env, state().jvmti, t)) return;
  Runtime* rt = nullptr;
  jlong tag = 0;
  if (t != nullptr && state().jvmti->GetTag(t, &tag) == JVMTI_ERROR_NONE && tag != 0) {
    std::lock_guard<std::mutex> g(g_starting_mu);
    if (auto it = g_starting.find(uint64_t(tag)); it != g_starting.end()) {
      rt = it->second;
      g_starting.erase(it);
    }
  }
  if (rt == nullptr) rt = runtime();
  if (rt == nullptr) return;
  rt->thread_started(env, t);
  // Started during an execution, not as one of its threads (outside_threads.h).
  // (A tag names an object by its creation path: another execution's thread may carry it.)
  const sched::ThreadId id = rt->thread_of(t);
  if (t != nullptr && (id == sched::kNoThread || !env->IsSameObject(t, rt->jthread_of(id)))) {
    if (is_virtual(env, t)) {
      rt->virtual_thread_outside(env, t);
      return;
    }
    state().outside.helper(env, state().jvmti, t, int(gettid()));  // ThreadStart: in `t` itself
  }
  // Started after its execution was over (a thread main started just before it returned, say):
  // it ends before running any of the program's code. In tests, where it may be the first
  // worker of an executor the test class keeps, it runs on as stale threads do (to its first
  // sleep, wait or join, or its first park: carried_threads.h).
  if (over() && !state().tests) rt->stop_thread(env, t);
}

void Runtime::abandon(JNIEnv* env, sched::ThreadId child) {
  if (is_virtual(env, jthread_of(child))) carrier_freed();
  ctl_.end(child);
  jlong tag = 0;
  if (jvmti_->GetTag(jthread_of(child), &tag) != JVMTI_ERROR_NONE) return;
  std::lock_guard<std::mutex> g(g_starting_mu);
  g_starting.erase(uint64_t(tag));
}

sched::ThreadId Runtime::thread_of(jobject t) {
  jlong tag = 0;
  if (t == nullptr || jvmti_->GetTag(t, &tag) != JVMTI_ERROR_NONE || tag == 0)
    return sched::kNoThread;
  std::lock_guard<std::mutex> g(mu_);
  auto it = thread_by_tag_.find(uint64_t(tag));
  return it == thread_by_tag_.end() ? sched::kNoThread : it->second;
}

jthread Runtime::jthread_of(sched::ThreadId t) {
  std::lock_guard<std::mutex> g(mu_);
  return t < threads_.size() ? threads_[t] : nullptr;
}

void Runtime::thread_started(JNIEnv* env, jthread t) {
  if (here() != nullptr) return;  // main: its ThreadStart may come after VM init
  sched::ThreadId id = thread_of(t);
  if (id == sched::kNoThread) return;  // not started by a controlled thread
  // Names are stable, so a thread object of an earlier execution may carry the same one.
  if (!env->IsSameObject(t, jthread_of(id))) return;
  if (id == 0 && main_ctx_) {  // thread 0 of one of several executions: it runs already
    watchdog_.thread_is_here(id);
    core_.join();
    set_here(main_ctx_);
    return;
  }
  enter(id);
}

void Runtime::enter(sched::ThreadId id) {
  watchdog_.thread_is_here(id);
  core_.join();
  std::string name = ctl_.inspect([&](sched::Model& m) { return m.thread(id).name; });
  set_here(&new_ctx(id, name, this));
  ctl_.begin(id);
}

sched::ThreadId Runtime::adopt(JNIEnv* env, ThreadCtx& waker, jthread t) {
  jmethodID is_daemon = env->GetMethodID(refs().Thread, "isDaemon", "()Z");
  const bool daemon = env->CallBooleanMethod(t, is_daemon);
  const sched::ThreadId child = ctl_.spawn(waker.id, daemon);
  // Named afresh, as the waker names what it first touches: its name of an earlier execution
  // may be another thread's in this one.
  const uint64_t tag = names_.rename(t, waker.name_hash, waker.first_touches);
  std::lock_guard<std::mutex> g(mu_);
  thread_by_tag_[tag] = child;
  if (threads_.size() <= child) threads_.resize(child + 1, nullptr);
  threads_[child] = static_cast<jthread>(env->NewGlobalRef(t));
  return child;
}

void Runtime::thread_ended(JNIEnv* env, jthread) {
  ThreadCtx* c = here();
  if (c == nullptr) return;
  if (c->epoch != epoch_) {  // a thread of an earlier execution
    set_here(nullptr);
    return;
  }
  ++busy_;
  bool failed, ours;
  {
    std::lock_guard<std::mutex> g(mu_);
    failed = !bug_.empty();
    ours = bug_ours_;
  }
  if (failed) finish(env, ours ? RunOutcome::Error : RunOutcome::Bug, bug_);
  set_here(nullptr);
  ctl_.end(c->id);
  --busy_;  // the last touch of this Runtime: the driver may delete it from here on
}

FindingKinds& Runtime::finding_kinds() {
  static FindingKinds kinds;
  return kinds;
}

bool Runtime::uncaught(JNIEnv* env, ThreadCtx& ctx, jthrowable e) {
  InRuntime guard(ctx);
  std::string tname = ctl_.inspect([&](sched::Model& m) { return m.thread(ctx.id).name; });
  std::string text = "uncaught " + java_to_string(env, e) + " in thread " + tname;
  const std::string kind = FindingKinds::kind("BUG", text);
  // A kind printed in full before is one line now (finish), and nothing else reads its stack
  // unless a report or a trace keeps every detail: its frames are not formatted.
  const bool repeat = multi() && !agent_.tests && !agent_.minimizing &&
                      agent_.options.report.empty() && agent_.options.trace.empty() &&
                      finding_kinds().seen(kind);
  // Nor is its signature read (its top frame): only a test's executions and a loop's first
  // finding use it.
  std::string signature;
  if (!repeat) {
    trim_driver_frames(env, e);
    auto trace =
        static_cast<jobjectArray>(env->CallObjectMethod(e, refs().Throwable_getStackTrace));
    env->ExceptionClear();
    if (trace != nullptr) {
      jsize n = env->GetArrayLength(trace);
      for (jsize i = 0; i < n && i < 40; ++i) {
        jobject el = env->GetObjectArrayElement(trace, i);
        text += "\n    at " + java_to_string(env, el);
        env->DeleteLocalRef(el);
      }
    }
    signature = uncaught_signature(env, e, trace);
    if (trace != nullptr) env->DeleteLocalRef(trace);
  }
  if (plain_uncaught().allowed(signature)) return false;  // the test's own, printed as plainly
  // A class jsched broke, or code it added that cannot link: jsched's failure, not the
  // program's.
  const std::string fault = own_fault(env, e, agent_.classes);
  std::lock_guard<std::mutex> g(mu_);
  if (!bug_.empty()) return false;
  uncaught_signature_ = signature;
  bug_thread_ = ctx.id;
  bug_ = fault.empty() ? text : "jsched's own failure, not the program's: " + fault + "\n" + text;
  bug_ours_ = !fault.empty();
  return !bug_ours_ && multi() && !agent_.tests && finding_kinds().seen(kind);
}

void Runtime::printed_bug(const std::string& line) {
  ThreadCtx* c = current();
  std::string who = "a thread outside the execution";
  if (c && c->owner == this) {
    InRuntime guard(*c);
    who = "thread " + ctl_.inspect([&](sched::Model& m) { return m.thread(c->id).name; });
  }
  std::lock_guard<std::mutex> g(mu_);
  if (!bug_.empty()) return;
  bug_ = "bug-output: printed in " + who + ": " + line;
}

std::optional<InitWait> Runtime::class_being_initialized_for(sched::ThreadId id) {
  std::vector<std::pair<sched::ThreadId, jthread>> others;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (size_t i = 0; i < threads_.size(); ++i) {
      if (i != id && threads_[i]) others.emplace_back(sched::ThreadId(i), threads_[i]);
    }
  }
  return class_being_initialized(jvmti_, others);
}

void Runtime::awaits_initialization(sched::ThreadId id, const InitWait& w) {
  // Modelled, not hidden: the report lists it apart from the hidden blocks.
  auto [who, by] = ctl_.inspect(
      [&](sched::Model& m) { return std::make_pair(m.thread(id).name, m.thread(w.by).name); });
  std::lock_guard<std::mutex> g(mu_);
  init_waits_[id] = w;
  if (init_wait_log_.size() < 100)
    init_wait_log_.push_back("thread " + who + " waits for " + w.what + " by thread " + by);
}

bool Runtime::init_waits_deadlocked(bool modelled_only) {
  std::map<sched::ThreadId, InitWait> waits;
  {
    std::lock_guard<std::mutex> g(mu_);
    waits = init_waits_;
  }
  return ctl_.inspect([&](sched::Model& m) {
    if (!m.enabled().empty()) return false;
    bool any = false;
    for (size_t i = 0; i < m.thread_count(); ++i) {
      const sched::ThreadState& th = m.thread(sched::ThreadId(i));
      if (th.status == sched::ThreadState::Running) return false;
      if (th.status != sched::ThreadState::Detached) continue;
      auto w = waits.find(th.id);
      if (w == waits.end()) return false;  // blocked where we cannot tell on what
      if (modelled_only && !w->second.modelled) return false;
      if (m.thread(w->second.by).status == sched::ThreadState::Dead) return false;
      any = true;
    }
    return any;
  });
}

void Runtime::finish_if_reset_waits_deadlocked(JNIEnv* env) {
  if (init_waits_deadlocked(true)) finish(env, RunOutcome::Deadlock, describe_threads(env, true));
}

bool Runtime::stuck_in_jvm_initialization() {
  {
    std::lock_guard<std::mutex> g(mu_);
    const bool jvm_waits = std::any_of(init_waits_.begin(), init_waits_.end(),
                                       [](const auto& w) { return !w.second.modelled; });
    if (!jvm_waits) return false;
  }
  return init_waits_deadlocked(false);
}

void Runtime::blocks_unseen(ThreadCtx& c, const std::string& what, jthread t) {
  InRuntime g(c);
  if (ctl_.running() != c.id) return;
  hidden_block(c.id, what, t);
  ctl_.detach(c.id);
}

void Runtime::unblocked(ThreadCtx& c) {
  InRuntime g(c);
  watchdog_.thread_is_here(c.id);
  core_.join();
  ctl_.rejoin(c.id);
}

void Runtime::hidden_block(sched::ThreadId id, const std::string& what, jthread t) {
  std::string tname = ctl_.inspect([&](sched::Model& m) { return m.thread(id).name; });
  std::string stack = stack_of(t);
  std::lock_guard<std::mutex> g(mu_);
  init_waits_.erase(id);
  if (hidden_blocks_.size() < 100) hidden_blocks_.push_back("thread " + tname + what + stack);
}

std::string Runtime::stack_of(jthread t) {
  jvmtiFrameInfo frames[48];
  jint count = 0;
  if (t == nullptr || jvmti_->GetStackTrace(t, 0, 48, frames, &count) != JVMTI_ERROR_NONE)
    return "";
  // JDK frames a hook of jsched's called (a wait of its own) are not the program's.
  jint first = 0;
  for (jint i = 0; i < count; ++i) {
    FrameMethod m;
    if (!frame_method(jvmti_, frames[i].method, m)) break;
    if (m.hook) first = i + 1;
    if (m.hook || m.cls.rfind("java.", 0) != 0) break;
  }
  // Below main or the test in one of several executions: jsched's driver, and the reflection
  // that called main (as the launcher's stack would end at main).
  jint end = count;
  for (jint i = first; i < count; ++i) {
    FrameMethod m;
    if (!frame_method(jvmti_, frames[i].method, m) || m.cls != "java.lang.JSchedMain") continue;
    for (end = i; end > first; --end) {
      if (!frame_method(jvmti_, frames[end - 1].method, m) || !m.entry) break;
    }
    break;
  }
  std::string out;
  bool after_check = false;  // a method whose entry checked its class (static_reset.h)
  for (jint i = first; i < end; ++i) {
    FrameMethod m;
    jclass cls = nullptr;
    if (!frame_method(jvmti_, frames[i].method, m, &cls)) continue;
    if (std::exchange(after_check, m.name == "jsched$check") && frames[i].location == 0) continue;
    if (m.jsched) continue;
    int line = -1;
    jint entries = 0;
    jvmtiLineNumberEntry* table = nullptr;
    if (jvmti_->GetLineNumberTable(frames[i].method, &entries, &table) == JVMTI_ERROR_NONE) {
      for (jint k = 0; k < entries; ++k) {
        if (table[k].start_location <= frames[i].location) line = table[k].line_number;
      }
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(table));
    }
    char* file = nullptr;
    jvmti_->GetSourceFileName(cls, &file);
    out += "\n    at " + m.cls + "." + m.name + "(" + (file ? file : "Unknown Source") +
           (line >= 0 ? ":" + std::to_string(line) : std::string()) + ")";
    if (file) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(file));
  }
  return out;
}

std::string Runtime::idle_workers_only() {
  auto alive = ctl_.inspect([](sched::Model& m) {
    std::vector<std::pair<sched::ThreadId, std::string>> out;
    for (size_t i = 0; i < m.thread_count(); ++i) {
      const sched::ThreadState& t = m.thread(sched::ThreadId(i));
      if (t.status != sched::ThreadState::Dead) out.emplace_back(t.id, t.name);
    }
    return out;
  });
  std::string names;
  for (const auto& [t, name] : alive) {
    if (!idle_worker(jvmti_, jthread_of(t))) return "";
    names += (names.empty() ? "" : ", ") + name;
  }
  return (alive.size() == 1 ? "thread " : "threads ") + names;
}

std::string Runtime::describe_threads(JNIEnv* env, bool) {
  struct Row {
    sched::ThreadState state;
    // What it waits for ("runs ..." for the running thread); for a parked thread filled in
    // outside the scheduler's lock.
    std::string waits_for;
  };
  std::map<sched::ThreadId, InitWait> init_waits;
  {
    std::lock_guard<std::mutex> g(mu_);
    init_waits = init_waits_;
  }
  std::vector<Row> rows = ctl_.inspect([&](sched::Model& m) {
    std::vector<Row> out;
    for (size_t i = 0; i < m.thread_count(); ++i) {
      const sched::ThreadState& t = m.thread(sched::ThreadId(i));
      if (t.status == sched::ThreadState::Dead) continue;
      Row r{t, ""};
      auto owner_of = [&](sched::ObjectId obj) {
        auto it = m.monitors().find(obj);
        if (it == m.monitors().end() || it->second.owner == sched::kNoThread)
          return std::string("nobody");
        return "thread " + m.thread(it->second.owner).name;
      };
      const std::string obj = sched::hex64(t.pending.obj);
      if (t.status == sched::ThreadState::Running) {
        // A spin without scheduling points, a long computation, or a block nothing reported:
        // its `pending` is the operation it last performed, not one it waits to perform.
        r.waits_for = "runs and has reached no scheduling point since its " +
                      std::string(sched::op_name(t.pending.kind));
        std::string held;
        for (const auto& [mon, st] : m.monitors()) {
          if (st.owner == t.id) held += (held.empty() ? "" : ", ") + sched::hex64(mon);
        }
        if (!held.empty()) r.waits_for += ", holding monitor " + held;
      } else if (t.status == sched::ThreadState::Waiting) {
        r.waits_for = std::string("a notify on monitor ") + obj;
      } else if (t.pending.kind == sched::OpKind::Enter ||
                 t.pending.kind == sched::OpKind::Reacquire) {
        r.waits_for = std::string("monitor ") + obj + " held by " + owner_of(t.pending.obj);
      } else if (t.pending.kind == sched::OpKind::Join) {
        r.waits_for = "thread " + m.thread(t.pending.target).name + " to end";
      } else if (t.pending.kind == sched::OpKind::Park) {
        r.waits_for = "an unpark";
      } else if (t.pending.kind == sched::OpKind::IoWait) {
        r.waits_for = "its socket or selector (descriptor " + std::to_string(t.pending.obj) +
                      ") to be ready, which only threads of this program can make it";
      } else if (t.status == sched::ThreadState::Detached) {
        r.waits_for = "something outside jsched's view";
        if (auto w = init_waits.find(t.id); w != init_waits.end())
          r.waits_for = w->second.what + " by thread " + m.thread(w->second.by).name;
      } else {
        r.waits_for = std::string("its turn (next: ") + sched::op_name(t.pending.kind) + ")";
      }
      out.push_back(r);
    }
    return out;
  });
  // First line: each blocked thread at its innermost frame, so findings group by where they
  // block; then each thread with what it waits for and its stack.
  std::string head, text;
  auto name_of = [this](jobject thread) {
    sched::ThreadId id = thread_of(thread);
    if (id == sched::kNoThread) return std::string();
    return ctl_.inspect([&](sched::Model& m) { return m.thread(id).name; });
  };
  for (Row& r : rows) {
    if (r.state.pending.kind == sched::OpKind::Park && env)
      r.waits_for = park_blocker(env, jthread_of(r.state.id), name_of);
  }
  for (Row& r : rows) {
    if (r.state.status != sched::ThreadState::Running) continue;
    // Whether it spins, blocks or starves: what the JVM and the kernel say of it.
    jint jvmti_state = 0;
    jthread t = jthread_of(r.state.id);
    char state[48] = "";
    if (t && jvmti_->GetThreadState(t, &jvmti_state) == JVMTI_ERROR_NONE)
      std::snprintf(state, sizeof state, "JVMTI state 0x%x", unsigned(jvmti_state));
    const std::string os = watchdog_.os_describe(r.state.id);
    if (*state || !os.empty())
      r.waits_for += " (" + std::string(state) + (*state && !os.empty() ? ", " : "") + os + ")";
  }
  for (const Row& r : rows) {
    std::string stack = stack_of(jthread_of(r.state.id));
    // The summary names the innermost frame of the program, not LockSupport.park's.
    std::string top = "?";
    for (size_t at = stack.find("at "); at != std::string::npos; at = stack.find("\n    at ", at)) {
      at += stack.compare(at, 3, "at ") == 0 ? 3 : 8;
      std::string frame = stack.substr(at, stack.find('\n', at) - at);
      if (top == "?") top = frame;
      const bool jdk = frame.rfind("java.", 0) == 0 || frame.rfind("jdk.", 0) == 0 ||
                       frame.rfind("sun.", 0) == 0;
      if (!jdk) {
        top = frame;
        break;
      }
    }
    head += (head.empty() ? "" : ", ") + r.state.name + " at " + top;
    text += "\n  thread " + r.state.name +
            (r.state.status == sched::ThreadState::Running ? " " : " waits for ") + r.waits_for +
            ":" + stack;
  }
  // Threads jsched does not control that may have been meant to wake one of these.
  std::string outside;
  for (const std::string& t : agent_.outside.describe(jvmti_))
    outside += (outside.empty() ? "" : ", ") + t;
  if (!outside.empty())
    text += "\n  threads outside jsched's control (started outside the execution): " + outside;
  return head + text;
}

void Runtime::virtual_thread_outside(JNIEnv* env, jthread vthread) {
  if (finishing_ || is_service_thread(env, vthread)) return;
  agent_.outside.helper(env, jvmti_, vthread, 0);  // it may wake a controlled thread
  ++virtual_threads_;
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return;
  jvmtiThreadInfo info{};
  std::string name;
  if (jvmti_->GetThreadInfo(vthread, &info) == JVMTI_ERROR_NONE && info.name) {
    name = info.name;
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  }
  const bool warn = agent_.options.unsupported_warns;
  log_line(std::string(warn ? "warning" : "error") + ": the program started a virtual thread" +
           (name.empty() ? "" : " ('" + name + "')") +
           " where jsched does not see it (reflection, or JDK code it does not rewrite): " +
           (warn ? "such threads run uncontrolled (on-unsupported=warn)"
                 : "the run's verdict is an error (on-unsupported=warn lets them run "
                   "uncontrolled)"));
}

std::string Runtime::untrusted() const {
  if (agent_.options.unsupported_warns) return "";
  if (const uint64_t v = virtual_threads_.load(); v > 0) {
    return "the program started " + std::to_string(v) + " virtual thread" + (v == 1 ? "" : "s") +
           " where jsched does not see them, so no verdict can be trusted "
           "(on-unsupported=warn runs on with them uncontrolled)";
  }
  const uint64_t n = agent_.classes.unreadable_count();
  if (n == 0) return "";
  std::string why = "jsched could not instrument " + std::to_string(n) +
                    (n == 1 ? " class" : " classes") +
                    " it was asked to, so no verdict can be trusted "
                    "(on-unsupported=warn runs on with them uncontrolled):";
  for (const std::string& l : agent_.classes.unreadable_lines()) why += "\n  " + l;
  return why;
}

void Runtime::finish(JNIEnv* env, RunOutcome outcome, const std::string& detail_in) {
  if (finishing_.exchange(true)) {
    if (multi()) return;
    for (;;) pause();  // another thread is ending the run
  }
  std::string detail = detail_in;
  if (outcome == RunOutcome::Ok) {
    // A bug printed by the last thread to end (bug-output=) is still the execution's.
    std::lock_guard<std::mutex> g(mu_);
    if (!bug_.empty()) {
      outcome = bug_ours_ ? RunOutcome::Error : RunOutcome::Bug;
      detail = bug_;
    }
  }
  if (outcome == RunOutcome::Ok) {
    if (std::string why = untrusted(); !why.empty()) {
      outcome = RunOutcome::Error;
      detail = why;
    }
  }
  check_replay_complete(outcome);
  // One of several executions: nothing of it runs any more, whatever thread ends it. A hung
  // thread that never reaches a scheduling point again is stopped (ThreadDeath), so that it
  // does not spin on beside the executions that follow.
  if (multi()) {
    sched::ThreadId hung = outcome == RunOutcome::Hang ? ctl_.running() : sched::kNoThread;
    ctl_.freeze();
    if (hung != sched::kNoThread && env) stop_thread(env, jthread_of(hung));
  }
  std::string what = outcome == RunOutcome::Ok ? "ok" : outcome_name(outcome);
  if (outcome != RunOutcome::Ok)
    for (char& c : what) c = char(std::toupper(c));
  write_report(env, outcome, detail);
  if (env) {
    // What the program printed comes out before the report and the end of the process.
    ThreadCtx* c = here();
    if (c) ++c->depth;
    flush_java_streams(env);
    if (c) --c->depth;
  }
  // A clean end with something to say (threads left waiting for work) is said once per JVM.
  static std::atomic<bool> said_clean_note{false};
  const bool say =
      outcome != RunOutcome::Ok || !multi() || (!detail.empty() && !said_clean_note.exchange(true));
  if (say && !agent_.minimizing) {
    std::string where = multi() ? "iteration " + std::to_string(iteration_) + ", " : "";
    const std::string member = member_options(agent_);
    const std::string head = what + " (" + where + "strategy " + strategy_name(agent_.options) +
                             (member.empty() ? "" : " [" + member.substr(9) + "]") + ", seed " +
                             std::to_string(seed_) + "): ";
    std::optional<uint64_t> first;
    if (outcome != RunOutcome::Ok && multi() && !agent_.tests)
      first = finding_kinds().first_of(FindingKinds::kind(what, detail), iteration_);
    if (first) {
      log_line_soon(head + detail.substr(0, detail.find('\n')) + " (as in iteration " +
                    std::to_string(*first) + ", printed in full there)");
    } else {
      log_line(head + detail);
    }
    if (outcome != RunOutcome::Ok && !first) {
      // Under a test runner the JVM's command line replays nothing: the test does.
      log_line(agent_.tests ? "replay: run the test alone with " + agent_option()
                            : "replay: " + replay_command());
    }
  }
  log_races(outcome);
  std::fflush(stdout);
  std::fflush(stderr);
  if (!multi()) _exit(int(outcome));
  {
    std::lock_guard<std::mutex> g(end_mu_);
    detail_ = detail;
    outcome_ = outcome;
  }
  driver_wake::notify();
}

void Runtime::collect_races() {
  if (!races_ || races_collected_) return;
  races_collected_ = true;
  race_texts_ = ctl_.inspect([this](sched::Model& m) {
    return describe_races(*races_, agent_.sites,
                          [&m](sched::ThreadId t) { return m.thread(t).name; });
  });
}

// Each race once per JVM: a warning, unless this execution failed (it may be the cause).
void Runtime::log_races(RunOutcome outcome) {
  static std::mutex mu;
  static std::set<std::string> said;
  // The pairs of sites whose races were said (or found said under another site of the same
  // place): the races of thousands of executions are mostly those, and need no text.
  static std::set<std::tuple<int32_t, bool, int32_t, bool>> looked_at;
  if (agent_.minimizing) return;
  std::lock_guard<std::mutex> g(mu);
  if (!races_collected_ && races_) {
    const bool fresh = ctl_.inspect([this](sched::Model&) {
      bool any = false;
      for (const sched::Race& r : races_->races())
        any |=
            looked_at
                .insert(std::make_tuple(r.first.site, r.first.write, r.second.site, r.second.write))
                .second;
      return any;
    });
    if (!fresh) return;
  }
  collect_races();
  for (const RaceText& r : race_texts_) {
    if (!said.insert(r.key).second) continue;
    log_line(std::string(outcome == RunOutcome::Ok ? "warning: race" : "race") + " (seed " +
             std::to_string(seed_) + "): " + r.text +
             (outcome == RunOutcome::Ok
                  ? " (this execution ended well)"
                  : " (this execution: " + std::string(outcome_name(outcome)) + ")"));
  }
}

void Runtime::stop_thread(JNIEnv* env, jthread t) {
  jthrowable e = new_thread_death(env);
  if (e == nullptr || t == nullptr || jvmti_->StopThread(t, e) != JVMTI_ERROR_NONE) {
    env->ExceptionClear();
    log_line("warning: cannot stop the hung thread; it may go on running");
  }
}

void Runtime::stop_watchdog() {
  g_vm_dying = true;
}

int Runtime::exit_status(RunOutcome o) {
  if (o != RunOutcome::Exit && o != RunOutcome::Killed) return int(o);
  std::lock_guard<std::mutex> g(exit_mu_);
  return exit_status_ ? exit_status_ : 1;
}

namespace {
// The calling thread and its name ("?" where JVMTI cannot say).
std::pair<jthread, std::string> current_thread(jvmtiEnv* jvmti) {
  jthread self = nullptr;
  jvmtiThreadInfo info{};
  std::string name = "?";
  if (jvmti->GetCurrentThread(&self) == JVMTI_ERROR_NONE &&
      jvmti->GetThreadInfo(self, &info) == JVMTI_ERROR_NONE && info.name) {
    name = info.name;
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  }
  return {self, name};
}

// The JVM's signal handlers exit with 128 + the signal's number.
std::string killed_by(int status) {
  const char* abbrev = sigabbrev_np(status - 128);
  return std::string("killed by signal SIG") + (abbrev ? abbrev : "?") + " (exit status " +
         std::to_string(status) + ")";
}
}  // namespace

void Runtime::record_exit(int status, bool killed, const std::string& detail) {
  std::lock_guard<std::mutex> g(exit_mu_);
  if (!exit_detail_.empty()) return;
  exit_status_ = status;
  killed_ = killed;
  exit_detail_ = detail;
}

void Runtime::exiting(JNIEnv*, int status) {
  if (status == 0) return;
  auto [self, tname] = current_thread(jvmti_);
  std::string stack = stack_of(self);
  // The JVM's signal handlers (java.lang.Terminator).
  const bool signal = stack.find("java.lang.Terminator") != std::string::npos && status > 128;
  std::string detail;
  if (signal) {
    detail = killed_by(status);
  } else {
    ThreadCtx* c = here();
    std::string who =
        c && c->epoch == epoch_
            ? "thread " + ctl_.inspect([&](sched::Model& m) { return m.thread(c->id).name; })
            : "the uncontrolled thread '" + tname + "'";
    const bool halt = stack.find("java.lang.Runtime.halt") != std::string::npos;
    // The stack from the program's call on (Shutdown, Runtime and System frames dropped).
    for (const char* call : {"java.lang.System.exit(", "java.lang.Runtime.halt("}) {
      size_t at = stack.find(call);
      if (at != std::string::npos) {
        size_t next = stack.find('\n', at);
        stack = next == std::string::npos ? "" : stack.substr(next);
        break;
      }
    }
    detail = std::string(halt ? "Runtime.halt(" : "System.exit(") + std::to_string(status) +
             ") in " + who + stack;
  }
  record_exit(status, signal, detail);
}

void Runtime::exiting_between(jvmtiEnv* jvmti, int status) {
  const char* abbrev = status > 128 ? sigabbrev_np(status - 128) : nullptr;
  if (abbrev == nullptr) return;
  if (current_thread(jvmti).second != std::string("SIG") + abbrev + " handler") return;
  record_exit(status, true, killed_by(status));
}

void Runtime::vm_death_between() {
  const uint64_t last = last_iteration_.load();
  if (last == kSingle) return;
  std::lock_guard<std::mutex> g(exit_mu_);
  if (!killed_) return;  // a program's exit comes from one of its threads, in an execution
  log_line(exit_detail_ + " after iteration " + std::to_string(last) + " (seed " +
           std::to_string(last_seed_.load()) + "): the iterations stop there");
}

void Runtime::vm_death(JNIEnv* env) {
  std::string bug, exit_detail;
  bool killed, ours;
  {
    std::lock_guard<std::mutex> g(mu_);
    bug = bug_;
    ours = bug_ours_;
  }
  {
    std::lock_guard<std::mutex> g(exit_mu_);
    exit_detail = exit_detail_;
    killed = killed_;
  }
  if (!bug.empty() && !multi()) finish(env, ours ? RunOutcome::Error : RunOutcome::Bug, bug);
  const std::string stop = (killed ? exit_detail : std::string("the program called System.exit")) +
                           " in iteration " + std::to_string(iteration_) + " (seed " +
                           std::to_string(seed_) + "): the iterations stop there";
  if (finishing_.exchange(true)) {
    // Ending by itself as the signal came: its finish reports the execution, this line why no
    // other follows.
    if (multi() && killed) log_line(stop);
    return;
  }
  if (multi()) {
    log_line(stop);
    write_report(env, killed ? RunOutcome::Killed : RunOutcome::Exit,
                 exit_detail.empty() ? "System.exit(0)" : exit_detail);
    return;
  }
  check_replay_complete(RunOutcome::Ok);
  if (exit_detail.empty()) {
    if (std::string why = untrusted(); !why.empty()) {
      // The program ended the JVM itself (System.exit(0)): the verdict is still an error.
      write_report(env, RunOutcome::Error, why);
      log_line("ERROR (strategy " + strategy_name(agent_.options) + ", seed " +
               std::to_string(seed_) + "): " + why);
      std::fflush(stderr);
      _exit(int(RunOutcome::Error));
    }
    write_report(env, RunOutcome::Ok, "");
    log_races(RunOutcome::Ok);
    return;
  }
  // The program did not end by itself: the report says so rather than "ok".
  const RunOutcome o = killed ? RunOutcome::Killed : RunOutcome::Exit;
  write_report(env, o, exit_detail);
  log_races(o);
  log_line(std::string(outcome_name(o)) + " (strategy " + strategy_name(agent_.options) +
           ", seed " + std::to_string(seed_) +
           "): " + exit_detail.substr(0, exit_detail.find('\n')));
}

void JNICALL Runtime::watchdog_main(jvmtiEnv*, JNIEnv* env, void*) {
  OneCore::leave();
  while (!g_vm_dying) {
    timespec ts{0, 1000000};
    nanosleep(&ts, nullptr);
    std::lock_guard<std::mutex> g(g_runtime_mu);
    Runtime* rt = g_runtime.load();
    if (rt && !rt->finishing_ && rt->start_ns_ != 0) {
      // This loop never returns to Java: the local references a poll makes (JVMTI's
      // declaring classes, say) are freed with each poll's frame.
      if (env->PushLocalFrame(32) != 0) {
        env->ExceptionClear();
        continue;
      }
      rt->watchdog_.poll(env);
      env->PopLocalFrame(nullptr);
    }
  }
}

}  // namespace jsched::agent
