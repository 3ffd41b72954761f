// The natives of the hooks (java-shim/java/lang/JSchedShim.java). Each is exported twice: for
// java.lang.JSchedShim (default mode) and, as an alias, for java.lang.Thread (JDK mode), so
// the JVM finds them by name in this library. Site 0 is the no-op call that links them.
//
// A native acts only for a controlled thread that is not already inside jsched; otherwise it
// returns at once (false for those that return boolean: the hook then does the plain thing).
#include <jni.h>
#include <sched.h>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/carried_threads.h"
#include "jvmti-agent/executions/execution_loop.h"
#include "jvmti-agent/executions/kept_thread_zero.h"
#include "jvmti-agent/executions/plain_uncaught.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/hooks/frame_method.h"
#include "jvmti-agent/hooks/observer.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/model/io_waits.h"
#include "jvmti-agent/model/lock_synchronizers.h"
#include "jvmti-agent/model/virtual_thread_service.h"
#include "jvmti-agent/model/virtual_threads.h"
#include "rewriter/hooks.h"
#include "scheduler/core/fingerprint.h"

using jsched::rw::Hook;
using namespace jsched::agent;
namespace sched = jsched::sched;

// A native of JSchedShim, and the same function under java.lang.Thread's name (JDK mode).
#define JSCHED_NATIVE(ret, name, ...)                                  \
  JNIEXPORT ret JNICALL Java_java_lang_JSchedShim_##name(__VA_ARGS__); \
  JNIEXPORT ret JNICALL Java_java_lang_Thread_##name(__VA_ARGS__)      \
      __attribute__((alias("Java_java_lang_JSchedShim_" #name)));      \
  JNIEXPORT ret JNICALL Java_java_lang_JSchedShim_##name(__VA_ARGS__)

namespace {

// Where a thread whose execution is over may be ended (ThreadDeath as the hook returns).
enum class Ends : uint8_t {
  // Never: the hooks that come after a monitorexit (javac's handler covers them and would run its
  // monitorexit again, on a monitor no longer held, for ever), and those JDK code calls for a
  // value (a class initializer that threw would stay failed for every later execution).
  Never,
  Blocking,  // where it blocks: a sleep, a wait, a join, a monitor
  // Any other scheduling point; not in tests, where the thread may be an executor's worker on its
  // way back to its queue, and ThreadDeath inside java.util.concurrent's code would leave the
  // executor broken for the tests that follow (a lock never released, a worker counted that is
  // gone). It runs on plainly to its next blocking point or park (carried_threads.h), unless it
  // spins.
  Point,
};

// Asked only of a thread whose execution is over.
bool ends_here(Ends e) {
  return e == Ends::Blocking ||
         (e == Ends::Point && (!state().tests || (Runtime::stale() && Runtime::spins_stale())));
}

// The runtime and the calling thread's context when the hook should act.
struct Active {
  Runtime* rt = nullptr;
  ThreadCtx* ctx = nullptr;
  explicit operator bool() const { return ctx != nullptr; }
};

Active active(JNIEnv* env, Ends ends) {
  Active a;
  a.rt = runtime();
  if (a.rt) a.ctx = Runtime::current();
  if (a.ctx == nullptr && Runtime::stale() && ends_here(ends)) Runtime::end_stale(env);
  return a;
}

// The running thread waits in `wait` where the model cannot see: a hidden block (`what`, for
// the report), so that the others run meanwhile.
template <class Wait>
void wait_unseen(const Active& a, const char* what, Wait&& wait) {
  jthread self = nullptr;
  a.rt->jvmti()->GetCurrentThread(&self);
  a.rt->blocks_unseen(*a.ctx, what, self);
  wait();
  a.rt->unblocked(*a.ctx);
}

// The current thread's uncaught throwable goes to a handler that does nothing
// (JSchedShim.uncaughtException).
// The ids both functions below use, resolved on the first finding of the JVM.
struct HandlerRefs {
  jclass group = nullptr, handler = nullptr;
  jmethodID get_default = nullptr, get_handler = nullptr, set_handler = nullptr, parent = nullptr;
  // What getDefaultUncaughtExceptionHandler returns, read without calling it: the JVM runs
  // that getter interpreted when only native code calls it, and an interpreted call is where
  // a thread that ran compiled code so far bangs its stack's shadow pages (about 20 pages,
  // most of them given back to the kernel at an earlier thread's end: 60 to 100 us of page
  // faults in every execution whose worker finds the bug).
  jfieldID default_handler = nullptr;
};

const HandlerRefs& handler_refs(JNIEnv* env) {
  static const HandlerRefs r = [env] {
    HandlerRefs h;
    h.group = optional_class(env, "java/lang/ThreadGroup");
    h.handler = optional_class(env, "java/lang/Thread$UncaughtExceptionHandler");
    const char* handler_type = "()Ljava/lang/Thread$UncaughtExceptionHandler;";
    h.get_default =
        env->GetStaticMethodID(refs().Thread, "getDefaultUncaughtExceptionHandler", handler_type);
    h.default_handler = env->GetStaticFieldID(refs().Thread, "defaultUncaughtExceptionHandler",
                                              "Ljava/lang/Thread$UncaughtExceptionHandler;");
    env->ExceptionClear();
    h.get_handler = env->GetMethodID(refs().Thread, "getUncaughtExceptionHandler", handler_type);
    h.set_handler = env->GetMethodID(refs().Thread, "setUncaughtExceptionHandler",
                                     "(Ljava/lang/Thread$UncaughtExceptionHandler;)V");
    h.parent =
        h.group ? env->GetMethodID(h.group, "getParent", "()Ljava/lang/ThreadGroup;") : nullptr;
    env->ExceptionClear();
    return h;
  }();
  return r;
}

void silence_uncaught(JNIEnv* env, jclass shim) {
  const HandlerRefs& h = handler_refs(env);
  jthread self = nullptr;
  jobject quiet = env->AllocObject(shim);  // java.lang.Thread in JDK mode: not a handler
  if (h.handler && quiet && h.set_handler && env->IsInstanceOf(quiet, h.handler) &&
      state().jvmti->GetCurrentThread(&self) == JVMTI_ERROR_NONE)
    env->CallVoidMethod(self, h.set_handler, quiet);
  env->ExceptionClear();
}

// Waits for the JVM to end `t`, which the model saw end: a moment (its exit outside jsched),
// or none for a thread 0 that runs on for the next execution (kept_thread_zero.h).
void await_jvm_end(JNIEnv* env, jthread t) {
  if (kept_thread_zero::runs_on(env, t)) return;
  jmethodID alive = env->GetMethodID(refs().Thread, "isAlive", "()Z");
  while (env->CallBooleanMethod(t, alive)) sched_yield();
}

// Whether the current thread's uncaught throwable would only be printed by the JVM: no default
// handler, and the thread's handler its group, with no group up the chain that overrides
// ThreadGroup (program code that may act on it).
bool printed_by_the_jvm(JNIEnv* env) {
  const HandlerRefs& h = handler_refs(env);
  jthread self = nullptr;
  bool plain =
      h.get_default && h.get_handler && h.parent &&
      state().jvmti->GetCurrentThread(&self) == JVMTI_ERROR_NONE &&
      (h.default_handler ? env->GetStaticObjectField(refs().Thread, h.default_handler)
                         : env->CallStaticObjectMethod(refs().Thread, h.get_default)) == nullptr;
  for (jobject g = plain ? env->CallObjectMethod(self, h.get_handler) : nullptr;
       plain && g != nullptr && !env->ExceptionCheck(); g = env->CallObjectMethod(g, h.parent)) {
    jclass c = env->GetObjectClass(g);
    plain = env->IsSameObject(c, h.group);
    env->DeleteLocalRef(c);
  }
  plain = plain && !env->ExceptionCheck();
  env->ExceptionClear();
  return plain;
}

// Inside jsched until the hook returns (InRuntime); then, if the thread's execution ended while
// it waited in the scheduler, it ends too (ThreadDeath pending as the hook returns).
class Acting {
 public:
  Acting(JNIEnv* env, ThreadCtx& c, Ends ends = Ends::Point) : env_(env), in_(c), ends_(ends) {}
  ~Acting() {
    if (Runtime::over() && ends_here(ends_)) Runtime::end_stale(env_);
  }
  Acting(const Acting&) = delete;
  Acting& operator=(const Acting&) = delete;

 private:
  JNIEnv* env_;
  InRuntime in_;
  Ends ends_;
};

bool holds_lock(JNIEnv* env, jobject o) {
  return env->CallStaticBooleanMethod(refs().Thread, refs().Thread_holdsLock, o);
}

// Keeps the model's interrupt flag in step with an interrupt it did not see; `clears` too: with
// a clear it did not see (the JVM's flag is then the truth).
void sync_interrupt(JNIEnv* env, const Active& a, bool clears = false) {
  jthread self = nullptr;
  if (a.rt->jvmti()->GetCurrentThread(&self) != JVMTI_ERROR_NONE) return;
  if (env->CallBooleanMethod(self, refs().Thread_isInterrupted))
    a.rt->ctl().mark_interrupted(a.ctx->id);
  else if (clears)
    a.rt->ctl().interrupted(a.ctx->id, true);
  env->DeleteLocalRef(self);
}

// InterruptedException, with the JVM's interrupt flag cleared as Java's blocking calls do. The
// ThreadDeath of a Thread.stop() that woke the thread is thrown as soon as it runs Java code (the
// call here): it wins over the InterruptedException, as it does in the JVM.
void throw_interrupted(JNIEnv* env, const char* what) {
  env->CallStaticBooleanMethod(refs().Thread, refs().Thread_interrupted);
  if (!env->ExceptionCheck()) env->ThrowNew(env->FindClass("java/lang/InterruptedException"), what);
}

// A thread started by a controlled one: registered in the model, started by `start`, and its
// start a step of the parent's.
template <class Start>
void start_controlled(JNIEnv* env, const Active& a, jthread t, Start start) {
  sched::ThreadId child = a.rt->spawn(env, *a.ctx, t);
  start();
  jint state = 0;
  a.rt->jvmti()->GetThreadState(t, &state);
  if (env->ExceptionCheck() || state == 0) {
    // Not started (already started, or an override of start() that never calls super): the
    // model must not wait for it.
    a.rt->abandon(env, child);
    return;
  }
  a.rt->ctl().started(a.ctx->id, child);
}

// A thread no execution controls starts `t` (outside_threads.h).
void outside_start(JNIEnv* env, jthread t, jint site) {
  AgentState& s = state();
  if (!s.controlled) return;
  if (Runtime::on_controlled_thread()) {  // a thread of an execution that is over
    s.outside.adopt(env, s.jvmti, t);
    return;
  }
  const Site* at = s.sites.get(site);
  s.outside.started(env, s.jvmti, s.filter, at ? *at->cls : std::string(), t);
}

// Whether `t`, started at `site`, starts plainly, outside the model: a thread the JDK starts for
// virtual threads (never waited for).
bool starts_plainly(JNIEnv* env, jthread t, jint site) {
  if (t == nullptr) return false;
  AgentState& s = state();
  const Site* at = s.sites.get(site);
  if (at != nullptr && serves_virtual_threads(env, s.jvmti, *at->cls, t)) {
    if (is_virtual(env, t)) remember_service_thread(env, t);
    return true;
  }
  return false;
}

// Thread `t` (not null) started at `site` by `start`: a thread of the model when a controlled
// thread starts it.
template <class Start>
void start_thread(JNIEnv* env, jthread t, jint site, Start start) {
  if (!starts_plainly(env, t, site)) {
    Active a = active(env, Ends::Point);
    if (a) {
      Acting g(env, *a.ctx);
      start_controlled(env, a, t, start);
      return;
    }
    outside_start(env, t, site);
  }
  start();
}

// LockSupport's park, `h` at `site`, in the model: whether it parked there (otherwise the caller
// parks plainly).
bool park(JNIEnv* env, Hook h, bool absolute, jlong time, jint site) {
  observe(h);
  // A test's thread whose execution is over stays parked (an idle worker of an executor the
  // test class keeps): the next execution may take it up (carried_threads.h).
  if (parks_carried()) {
    park_carried(env);
    return true;
  }
  Active a = active(env, Ends::Blocking);
  if (!a) {
    if (state().outside.any()) {
      jthread self = nullptr;
      if (state().jvmti->GetCurrentThread(&self) == JVMTI_ERROR_NONE && self != nullptr) {
        state().outside.parks(env, self);
        env->DeleteLocalRef(self);
      }
    }
    return false;
  }
  if (!absolute && time < 0) return true;  // Unsafe.park returns at once
  sched::Outcome parked;
  {
    Acting g(env, *a.ctx, state().tests ? Ends::Never : Ends::Blocking);
    // LockSupport.park leaves the interrupt flag to its caller, who may clear it where jsched
    // does not look (JDK code).
    sync_interrupt(env, a, true);
    bool timed = absolute || time > 0;
    int64_t deadline = timed ? a.rt->clock().deadline(absolute, time) : 0;
    parked = a.rt->ctl().park(a.ctx->id, timed, deadline, site);
    if (parked == sched::Outcome::Timeout) a.rt->clock().advance_to(deadline);
  }
  // Parked still as its execution ended: it goes on parking. One that was woken returns, to end
  // at its next hook.
  if (parked == sched::Outcome::Aborted && parks_carried()) park_carried(env);
  return true;
}

// LockSupport's unpark of `thread`, `h`: whether the model did it (otherwise the caller unparks
// plainly).
bool unpark(JNIEnv* env, Hook h, jobject thread) {
  observe(h);
  Runtime* rt = runtime();
  if (rt == nullptr || thread == nullptr) {
    woken_plainly(env, thread);
    return false;
  }
  sched::ThreadId target = rt->thread_of(thread);
  if (target == sched::kNoThread) {
    Active a = active(env, Ends::Never);
    if (!a) {
      woken_plainly(env, thread);
      return false;
    }
    Acting g(env, *a.ctx);
    // A thread that parks for real, unless it is carried (it then joins this execution).
    if (wake_carried(env, thread, *a.rt, *a.ctx)) return true;
    state().outside.woken(env, thread);
    return false;
  }
  Active a = active(env, Ends::Point);
  if (a) {
    Acting g(env, *a.ctx);
    rt->ctl().unpark(a.ctx->id, target);
  } else {
    rt->ctl().unpark(sched::kNoThread, target);
  }
  // A thread blocked outside the model (a join of a thread jsched does not control, say) may
  // be parked in the JVM: the JVM's unpark too.
  return !rt->ctl().inspect(
      [&](sched::Model& m) { return m.thread(target).status == sched::ThreadState::Detached; });
}

// Whether the caller of LockSupport's park (three frames down: this native, the shim's hook,
// LockSupport) is the JDK's socket code: a virtual thread that waits for I/O, which a poller
// thread of the JDK's, outside the model, ends.
bool parks_for_io(jvmtiEnv* jvmti) {
  jvmtiFrameInfo f;
  jint n = 0;
  if (jvmti->GetStackTrace(nullptr, 3, 1, &f, &n) != JVMTI_ERROR_NONE || n != 1) return false;
  FrameMethod m;
  return frame_method(jvmti, f.method, m) && m.cls.starts_with("sun.nio.ch.");
}

// `receiver`'s method `name` with descriptor `desc` (void), called with `args`.
template <class... Args>
void call_void(JNIEnv* env, jobject receiver, const char* name, const char* desc, Args... args) {
  jclass c = env->GetObjectClass(receiver);
  jmethodID m = c ? env->GetMethodID(c, name, desc) : nullptr;
  if (m != nullptr) env->CallVoidMethod(receiver, m, args...);
  if (c) env->DeleteLocalRef(c);
}

// Whether a read of a final reference at `s` reaches only objects with points of their own.
bool reaches_instrumented(const Site& s) {
  std::atomic_ref<uint8_t> covered(s.covered);
  if (covered.load(std::memory_order_relaxed)) return true;
  if (!state().instrumented.covers(*s.desc)) return false;
  covered.store(1, std::memory_order_relaxed);
  return true;
}

}  // namespace

extern "C" {

JSCHED_NATIVE(void, jschedEnter, JNIEnv* env, jclass, jobject lock, jint site) {
  if (site == 0) return;
  observe(Hook::MonitorEnter);
  Active a = active(env, Ends::Blocking);
  if (!a || lock == nullptr) return;
  Acting g(env, *a.ctx, Ends::Blocking);
  a.rt->ctl().point(a.ctx->id, sched::Op::monitor(sched::OpKind::Enter,
                                                  a.rt->object_id(env, lock, *a.ctx), site));
}

JSCHED_NATIVE(void, jschedExit, JNIEnv* env, jclass, jobject lock, jint site) {
  if (site == 0) return;
  observe(Hook::MonitorExit);
  Active a = active(env, Ends::Never);
  if (!a || lock == nullptr) return;
  InRuntime g(*a.ctx);
  a.rt->ctl().release(a.ctx->id, a.rt->object_id(env, lock, *a.ctx), site);
}

JSCHED_NATIVE(jboolean, jschedWait, JNIEnv* env, jclass, jobject o, jlong millis, jint nanos,
              jboolean timed, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ObjectWait);
  Active a = active(env, Ends::Blocking);
  if (!a || o == nullptr) return JNI_FALSE;
  Acting g(env, *a.ctx, Ends::Blocking);
  if (!holds_lock(env, o)) return JNI_FALSE;  // the plain wait throws IllegalMonitorStateException
  sync_interrupt(env, a);
  sched::ObjectId m = a.rt->object_id(env, o, *a.ctx);
  // Release the JVM's monitor completely, as Object.wait would, so the thread that runs next
  // can really take it; count the exits to restore the same state afterwards.
  int exits = 0;
  while (holds_lock(env, o)) {
    env->MonitorExit(o);
    ++exits;
  }
  const int64_t deadline = a.rt->clock().deadline_after(millis, nanos);
  sched::Outcome r = a.rt->ctl().wait(a.ctx->id, m, timed, deadline, site);
  for (int i = 0; i < exits; ++i) env->MonitorEnter(o);
  switch (r) {
    case sched::Outcome::Interrupted:
      throw_interrupted(env, "wait interrupted");
      return JNI_TRUE;
    case sched::Outcome::IllegalMonitor:
      return JNI_FALSE;            // taken where jsched did not see
    case sched::Outcome::Timeout:  // the clock reaches the wait's deadline
      a.rt->clock().advance_to(deadline);
      return JNI_TRUE;
    default:
      return JNI_TRUE;
  }
}

JSCHED_NATIVE(jboolean, jschedNotify, JNIEnv* env, jclass, jobject o, jboolean all, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(all ? Hook::ObjectNotifyAll : Hook::ObjectNotify);
  Active a = active(env, Ends::Point);
  if (!a || o == nullptr) return JNI_FALSE;
  Acting g(env, *a.ctx);
  if (!holds_lock(env, o)) return JNI_FALSE;
  sched::OpKind k = all ? sched::OpKind::NotifyAll : sched::OpKind::Notify;
  sched::Outcome r =
      a.rt->ctl().point(a.ctx->id, sched::Op::monitor(k, a.rt->object_id(env, o, *a.ctx), site));
  return r == sched::Outcome::IllegalMonitor ? JNI_FALSE : JNI_TRUE;
}

JSCHED_NATIVE(jboolean, jschedStart, JNIEnv* env, jclass, jthread t, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadStart);
  if (t == nullptr) return JNI_FALSE;  // the plain start throws
  start_thread(env, t, site, [&] { env->CallVoidMethod(t, refs().Thread_start); });
  return JNI_TRUE;
}

JSCHED_NATIVE(jobject, jschedBuilderStart, JNIEnv* env, jclass, jobject builder, jobject task,
              jint site) {
  if (site == 0) return nullptr;
  observe(builder ? Hook::ThreadBuilderStart : Hook::ThreadStartVirtual);
  if (builder == nullptr) {  // Thread.startVirtualThread(task)
    jmethodID of = env->GetStaticMethodID(refs().Thread, "ofVirtual",
                                          "()Ljava/lang/Thread$Builder$OfVirtual;");
    builder = of ? env->CallStaticObjectMethod(refs().Thread, of) : nullptr;
    if (builder == nullptr) return nullptr;  // an exception is pending
  }
  // Builder.start(task) is unstarted(task), then start().
  jclass b = env->FindClass("java/lang/Thread$Builder");
  jmethodID unstarted =
      b ? env->GetMethodID(b, "unstarted", "(Ljava/lang/Runnable;)Ljava/lang/Thread;") : nullptr;
  if (unstarted == nullptr) return nullptr;
  auto t = static_cast<jthread>(env->CallObjectMethod(builder, unstarted, task));
  if (t == nullptr || env->ExceptionCheck()) return nullptr;
  start_thread(env, t, site, [&] { env->CallVoidMethod(t, refs().Thread_start); });
  return t;
}

JSCHED_NATIVE(void, jschedStartIn, JNIEnv* env, jclass, jobject access, jthread t,
              jobject container, jint site) {
  if (site == 0) return;
  observe(Hook::ThreadStartIn);
  if (access == nullptr) {
    env->ThrowNew(env->FindClass("java/lang/NullPointerException"), "JavaLangAccess");
    return;
  }
  jmethodID start = env->GetMethodID(env->GetObjectClass(access), "start",
                                     "(Ljava/lang/Thread;Ljdk/internal/vm/ThreadContainer;)V");
  if (start == nullptr) return;  // NoSuchMethodError pending
  auto plain = [&] { env->CallVoidMethod(access, start, t, container); };
  if (t == nullptr) return plain();
  start_thread(env, t, site, plain);
}

JSCHED_NATIVE(jboolean, jschedJoin, JNIEnv* env, jclass, jthread t, jlong millis, jboolean timed,
              jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadJoin);
  Active a = active(env, Ends::Blocking);
  if (!a || t == nullptr) return JNI_FALSE;
  sched::ThreadId target = a.rt->thread_of(t);
  Acting g(env, *a.ctx, Ends::Blocking);
  if (target == sched::kNoThread) {
    // A thread jsched does not control ends where it cannot see: the JVM's join, as a block
    // outside its view. (A virtual thread's join parks on a latch: left to the model, that park
    // waited for a wake-up no thread of the model could give, a false deadlock whenever the
    // virtual thread had not yet run.)
    wait_unseen(a, ": joining a thread jsched does not control", [&] {
      if (timed)
        env->CallVoidMethod(t, refs().Thread_join_J, millis);
      else
        env->CallVoidMethod(t, refs().Thread_join);
    });
    return JNI_TRUE;
  }
  sync_interrupt(env, a);
  const int64_t deadline = a.rt->clock().deadline_after(millis, 0);
  sched::Op join = sched::Op::thread(sched::OpKind::Join, target, timed, site);
  join.slot = timed ? deadline : -1;
  sched::Outcome r = a.rt->ctl().point(a.ctx->id, join);
  if (r == sched::Outcome::Interrupted) {
    throw_interrupted(env, "join interrupted");
  } else if (r == sched::Outcome::Timeout) {
    a.rt->clock().advance_to(deadline);
  } else if (r == sched::Outcome::Ok) {
    // The model saw the thread end; the JVM finishes it a moment later (outside jsched).
    await_jvm_end(env, t);
  }
  return JNI_TRUE;
}

JSCHED_NATIVE(jboolean, jschedSleep, JNIEnv* env, jclass, jlong millis, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadSleep);
  Active a = active(env, Ends::Blocking);
  if (!a) return JNI_FALSE;
  Acting g(env, *a.ctx, Ends::Blocking);
  sync_interrupt(env, a);
  // Time is the scheduler's: a sleep never really delays; it ends when virtual time reaches
  // its deadline (others' steps move it, or it jumps there when no thread can run), so the
  // others run meanwhile as they would on a real JVM (sched::Model::set_time).
  const int64_t deadline = a.rt->clock().deadline_after(millis, 0);
  sched::Op op = sched::Op::of(sched::OpKind::Sleep);
  op.site = site;
  op.timed = true;
  op.slot = deadline;
  if (a.rt->ctl().point(a.ctx->id, op) == sched::Outcome::Interrupted)
    throw_interrupted(env, "sleep interrupted");
  else
    a.rt->clock().advance_to(deadline);
  return JNI_TRUE;
}

JSCHED_NATIVE(void, jschedGc, JNIEnv* env, jclass, jint site) {
  if (site == 0) return;
  observe(Hook::SystemGc);
  Active a = active(env, Ends::Point);
  if (!a) return;
  Acting g(env, *a.ctx);
  sched::Op op = sched::Op::of(sched::OpKind::Busy);
  op.site = site;
  op.timed = true;
  op.slot = a.rt->clock().deadline_after(0, kGcTimeNs);
  a.rt->ctl().point(a.ctx->id, op);
}

JSCHED_NATIVE(jboolean, jschedYield, JNIEnv* env, jclass, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ThreadYield);
  Active a = active(env, Ends::Point);
  if (!a) return JNI_FALSE;
  Acting g(env, *a.ctx);
  sched::Op op = sched::Op::of(sched::OpKind::Yield);
  op.site = site;
  a.rt->ctl().point(a.ctx->id, op);
  return JNI_TRUE;
}

JSCHED_NATIVE(void, jschedInterrupt, JNIEnv* env, jclass, jthread t, jint site) {
  if (site == 0) return;
  observe(Hook::ThreadInterrupt);
  Active a = active(env, Ends::Point);
  if (!a) woken_plainly(env, t);
  if (!a || t == nullptr) return;
  sched::ThreadId target = a.rt->thread_of(t);
  Acting g(env, *a.ctx);
  // A carried thread (an idle worker the executor's shutdownNow interrupts) joins first.
  if (target == sched::kNoThread && wake_carried(env, t, *a.rt, *a.ctx))
    target = a.rt->thread_of(t);
  if (target == sched::kNoThread) return;
  a.rt->ctl().point(a.ctx->id, sched::Op::thread(sched::OpKind::Interrupt, target, false, site));
}

JSCHED_NATIVE(jint, jschedIsInterrupted, JNIEnv* env, jclass, jthread t, jboolean clear,
              jint site) {
  if (site == 0) return -1;
  observe(clear ? Hook::ThreadInterrupted : Hook::ThreadIsInterrupted);
  Active a = active(env, Ends::Never);
  if (!a || t == nullptr) return -1;
  sched::ThreadId target = a.rt->thread_of(t);
  if (target == sched::kNoThread) return -1;
  // The JVM's flag is set along with the model's; only a model flag the JVM lacks matters.
  return a.rt->ctl().interrupted(target, clear) ? 1 : -1;
}

JSCHED_NATIVE(jint, jschedIsAlive, JNIEnv* env, jclass, jthread t, jint site) {
  if (site == 0) return -1;
  observe(Hook::ThreadIsAlive);
  Active a = active(env, Ends::Point);
  if (!a || t == nullptr) return -1;
  sched::ThreadId target = a.rt->thread_of(t);
  if (target == sched::kNoThread) return -1;
  Acting g(env, *a.ctx);
  sched::Op op = sched::Op::of(sched::OpKind::Yield);
  op.site = site;
  a.rt->ctl().point(a.ctx->id, op);
  const bool dead = a.rt->ctl().inspect(
      [&](sched::Model& m) { return m.thread(target).status == sched::ThreadState::Dead; });
  if (!dead) return 1;
  // The model saw it end; the JVM finishes it a moment later (outside jsched), as for join.
  await_jvm_end(env, t);
  return 0;
}

// Thread.getState(): the ordinal of the Thread.State the model knows, or -1 (the JVM's answer).
JSCHED_NATIVE(jint, jschedGetState, JNIEnv* env, jclass, jthread t, jint site) {
  if (site == 0) return -1;
  observe(Hook::ThreadGetState);
  Active a = active(env, Ends::Point);
  if (!a || t == nullptr) return -1;
  sched::ThreadId target = a.rt->thread_of(t);
  if (target == sched::kNoThread) return -1;
  Acting g(env, *a.ctx);
  sched::Op op = sched::Op::of(sched::OpKind::Yield);
  op.site = site;
  a.rt->ctl().point(a.ctx->id, op);
  const sched::JavaState s =
      a.rt->ctl().inspect([&](sched::Model& m) { return m.java_state(target); });
  return s == sched::JavaState::Unknown ? -1 : jint(s);
}

// Thread.suspend()/resume() of a controlled thread: the model's flag, then a scheduling point
// (a thread that suspends itself stops there). False: the JVM's own call.
JSCHED_NATIVE(jboolean, jschedSuspend, JNIEnv* env, jclass, jthread t, jboolean suspend,
              jint site) {
  if (site == 0) return JNI_FALSE;
  observe(suspend ? Hook::ThreadSuspend : Hook::ThreadResume);
  Active a = active(env, Ends::Point);
  if (!a || t == nullptr) return JNI_FALSE;
  sched::ThreadId target = a.rt->thread_of(t);
  if (target == sched::kNoThread) return JNI_FALSE;
  Acting g(env, *a.ctx);
  a.rt->ctl().suspend(target, suspend);
  sched::Op op = sched::Op::of(sched::OpKind::Yield);
  op.site = site;
  a.rt->ctl().point(a.ctx->id, op);
  return JNI_TRUE;
}

// True when `owner` resolves the site's static method to java.lang.Thread's own.
JSCHED_NATIVE(jboolean, jschedResolves, JNIEnv* env, jclass, jclass owner, jint site) {
  if (site == 0) return JNI_FALSE;
  observe(Hook::ResolvesToThread);
  const Site* s = state().sites.get(site);
  if (s == nullptr || owner == nullptr) return JNI_FALSE;
  if (!env->IsAssignableFrom(owner, refs().Thread)) return JNI_FALSE;
  jmethodID m = env->GetStaticMethodID(owner, s->name->c_str(), s->desc->c_str());
  if (m == nullptr) {
    env->ExceptionClear();
    return JNI_FALSE;
  }
  jclass declaring = nullptr;
  if (state().jvmti->GetMethodDeclaringClass(m, &declaring) != JVMTI_ERROR_NONE) return JNI_FALSE;
  jboolean same = env->IsSameObject(declaring, refs().Thread);
  env->DeleteLocalRef(declaring);
  return same;
}

JSCHED_NATIVE(void, jschedAccess, JNIEnv* env, jclass, jobject o, jint index, jboolean write,
              jint site) {
  if (site == 0) return;
  observe(index >= 0 ? (write ? Hook::ArrayStore : Hook::ArrayLoad)
                     : (write ? Hook::PutField : Hook::GetField));
  Active a = active(env, Ends::Point);
  if (!a) return;
  const Site* s = state().sites.get(site);
  if (s == nullptr) return;
  const bool is_static = jsched::agent::is_static(*s);
  if (o == nullptr && !is_static) return;  // an object under construction, or a null receiver
  Acting g(env, *a.ctx);
  if (ProfileRecorder* p = state().profile.get()) p->access(env, o, *s, a.ctx->id);
  if (!state().access_points || !s->point) return;
  if (s->reaches && reaches_instrumented(*s)) return;
  // A plain access before the execution's first thread starts another (Controller::alone).
  // Volatile accesses stay points while alone: the watchdog counts them as progress.
  if (!s->ordered && jsched::rw::plain_points(state().accesses) && a.rt->ctl().alone()) return;
  sched::ObjectId obj;
  int64_t slot;
  if (is_static) {
    obj = s->location;
    slot = 0;
  } else {
    obj = a.rt->object_id(env, o, *a.ctx);
    slot = index >= 0 ? int64_t(index) : int64_t(s->location);
  }
  sched::Op op = sched::Op::variable(write, obj, slot, site);
  op.ordered = s->ordered;
  if (state().race_check) {  // a race-check profile run: seen, never a point
    a.rt->ctl().observe(a.ctx->id, op);
    return;
  }
  // accesses=shared: a plain access inside a synchronized block is no point. Another thread
  // that wants the monitor could only block, and one that races without it has points of its
  // own at its accesses (a race needs one side unlocked, or two locks).
  if (state().accesses == jsched::rw::Accesses::Shared && !op.ordered &&
      a.rt->ctl().observe_if_locked(a.ctx->id, op))
    return;
  a.rt->ctl().point(a.ctx->id, op);
}

JSCHED_NATIVE(void, jschedAllocated, JNIEnv* env, jclass, jobject o, jint site) {
  if (site == 0) return;
  observe(Hook::Allocated);
  Active a = active(env, Ends::Point);
  if (!a || o == nullptr) return;
  a.rt->name_new_object(o, *a.ctx);
  if (ProfileRecorder* p = state().profile.get()) {
    if (const Site* s = state().sites.get(site)) {
      Acting g(env, *a.ctx);
      p->allocated(env, o, *s);
    }
  }
}

JSCHED_NATIVE(void, jschedTracked, JNIEnv* env, jclass, jint slot, jint site) {
  if (site == 0) return;
  observe(Hook::TrackedStatic);
  AgentState& st = state();
  if (!st.tracker) return;
  VariableTracker::Handover h = st.tracker->handover(env, slot);
  Active a = active(env, Ends::Point);
  if (!a) return;  // a change point passed by an uncontrolled thread is lost
  Acting g(env, *a.ctx);
  if (h.switch_now) a.rt->ctl().point(a.ctx->id, sched::Op::of(sched::OpKind::Continue));
  if (h.change_point) {
    if (st.change_point) st.change_point(a.ctx->id, h.index);
    st.tracker->request_switch(env);
  }
}

JSCHED_NATIVE(jboolean, jschedPark, JNIEnv* env, jclass, jboolean absolute, jlong time, jint site) {
  if (site == 0) return JNI_FALSE;
  return park(env, Hook::UnsafePark, absolute, time, site) ? JNI_TRUE : JNI_FALSE;
}

JSCHED_NATIVE(jboolean, jschedUnpark, JNIEnv* env, jclass, jobject thread, jint site) {
  if (site == 0) return JNI_FALSE;
  return unpark(env, Hook::UnsafeUnpark, thread) ? JNI_TRUE : JNI_FALSE;
}

JSCHED_NATIVE(void, jschedVirtualPark, JNIEnv* env, jclass, jobject access, jlong nanos,
              jboolean timed, jint site) {
  if (site == 0) return;
  auto plain = [&] {
    if (timed)
      call_void(env, access, "parkVirtualThread", "(J)V", nanos);
    else
      call_void(env, access, "parkVirtualThread", "()V");
  };
  // Waiting for a socket: a hidden block, as a platform thread's wait in the kernel is.
  if (Active a = active(env, Ends::Never); a && parks_for_io(state().jvmti)) {
    observe(timed ? Hook::VirtualParkNanos : Hook::VirtualPark);
    wait_unseen(a, ": waiting for I/O (parked in the JDK's socket code)", plain);
    return;
  }
  if (!park(env, timed ? Hook::VirtualParkNanos : Hook::VirtualPark, false, timed ? nanos : 0,
            site))
    plain();
}

JSCHED_NATIVE(void, jschedVirtualUnpark, JNIEnv* env, jclass, jobject access, jthread t,
              jint site) {
  if (site == 0) return;
  // The real unpark as well: the thread may be parked for real, waiting for I/O (a poller thread
  // of the JDK's unparks it), and a stray permit only makes a real park return early, which
  // every park allows.
  unpark(env, Hook::VirtualUnpark, t);
  call_void(env, access, "unparkVirtualThread", "(Ljava/lang/Thread;)V", t);
}

JSCHED_NATIVE(void, jschedSync, JNIEnv* env, jclass, jobject o, jboolean write, jint site) {
  if (site == 0) return;
  observe(write ? Hook::SyncCall : Hook::SyncRead);
  Active a = active(env, Ends::Point);
  if (!a || o == nullptr) return;
  Acting g(env, *a.ctx);
  const sched::ObjectId id = a.rt->object_id(env, o, *a.ctx);
  sched::Op op = sched::Op::sync(id, write, site);
  const Site* s = state().sites.get(site);
  if (s != nullptr && LockSynchronizers::may_be_one(*s->owner))
    op.orders_through = a.rt->synchronizer_id(env, o, id);
  a.rt->ctl().point(a.ctx->id, op);
}

JSCHED_NATIVE(jlong, jschedEpochNanos, JNIEnv*, jclass, jint site) {
  if (site == 0) return 0;
  Runtime* rt = runtime();
  if (rt == nullptr) return VirtualClock::real_epoch_nanos();
  return rt->clock().epoch_nanos(Runtime::current() != nullptr);
}

JSCHED_NATIVE(jlong, jschedClock, JNIEnv*, jclass, jboolean millis, jint site) {
  if (site == 0) return 0;
  Runtime* rt = runtime();
  if (rt == nullptr) return VirtualClock::real(millis);
  bool controlled = Runtime::current() != nullptr;
  return millis ? rt->clock().millis(controlled) : rt->clock().nanos(controlled);
}

JSCHED_NATIVE(void, jschedUncaught, JNIEnv* env, jclass shim, jthrowable e) {
  if (e == nullptr) return;
  if (Runtime::current() == nullptr && plain_uncaught().recording())
    plain_uncaught().seen(uncaught_signature(env, e));
  // The ThreadDeath jsched threw at a hung thread as its execution ended is jsched's, too: from
  // JDK 20 on, ThreadGroup prints it like any other throwable.
  Runtime* rt = runtime();
  const bool stopped = rt != nullptr && rt->finishing() && env->IsInstanceOf(e, refs().ThreadDeath);
  if (Runtime::over() || stopped) {
    // Its execution is over: it ends silently.
    silence_uncaught(env, shim);
    return;
  }
  Active a = active(env, Ends::Never);
  if (!a) return;
  // A finding printed in full before: the JVM's printing of its stack, thousands of times in a
  // run whose executions all find it, says nothing new (unless the program handles it itself).
  if (a.rt->uncaught(env, *a.ctx, e) && printed_by_the_jvm(env))
    silence_uncaught(env, shim);
  else
    trim_driver_frames(env, e);  // the JVM prints it, or the program's handler sees it
}

JSCHED_NATIVE(void, jschedExiting, JNIEnv* env, jclass, jint status) {
  if (Runtime* rt = runtime()) {
    rt->exiting(env, status);
  } else if (status != 0) {
    Runtime::exiting_between(state().jvmti, status);
  }
}

JSCHED_NATIVE(jlong, jschedRandomSeed, JNIEnv* env, jclass, jlong seed, jint site) {
  if (site == 0) return seed;
  Active a = active(env, Ends::Never);
  return a ? jlong(a.rt->next_random()) : seed;
}

JSCHED_NATIVE(jboolean, jschedControlled, JNIEnv* env, jclass, jint site) {
  if (site == 0) return JNI_FALSE;
  return active(env, Ends::Never) ? JNI_TRUE : JNI_FALSE;
}

JSCHED_NATIVE(jint, jschedIdentityHash, JNIEnv* env, jclass, jobject o) {
  if (o == nullptr) return 0;
  Runtime* rt = runtime();
  jlong tag = 0;
  if (rt) rt->jvmti()->GetTag(o, &tag);
  if (tag == 0) {
    // Named now by a controlled thread (its first touch), else by its JVM identity hash: an
    // object keeps one hash for its life.
    if (Active a = active(env, Ends::Never)) {
      InRuntime g(*a.ctx);
      tag = jlong(a.rt->object_id(env, o, *a.ctx));
    } else {
      static jclass system =
          static_cast<jclass>(env->NewGlobalRef(env->FindClass("java/lang/System")));
      static jmethodID identity =
          env->GetStaticMethodID(system, "identityHashCode", "(Ljava/lang/Object;)I");
      const jint h = env->CallStaticIntMethod(system, identity, o);
      tag = jlong(uint32_t(h)) | (jlong(1) << 40);  // never 0: tags name objects
      if (!rt) return h;
      rt->jvmti()->SetTag(o, tag);
    }
  }
  return jint(uint64_t(tag) ^ (uint64_t(tag) >> 32));
}

JSCHED_NATIVE(jlong, jschedThreadId, JNIEnv* env, jclass, jlong id, jint site) {
  if (site == 0) return id;
  Active a = active(env, Ends::Never);
  return a ? jlong(a.ctx->id) + 1 : id;
}

JSCHED_NATIVE(jlong, jschedIoWait, JNIEnv* env, jclass, jobject fd_object, jint fd, jint events,
              jlong millis, jint site) {
  if (site == 0 || millis == 0) return millis;  // 0: a poll that does not block
  Active a = active(env, Ends::Blocking);
  if (!a) return millis;
  if (fd_object) {
    static jfieldID field = env->GetFieldID(env->GetObjectClass(fd_object), "fd", "I");
    fd = env->GetIntField(fd_object, field);
  }
  if (fd < 0 || !peer_in_process(fd)) return millis;  // the world outside: a real wait
  Acting g(env, *a.ctx, Ends::Blocking);
  const bool timed = millis > 0;
  const int64_t deadline = timed ? a.rt->clock().deadline_after(millis, 0) : 0;
  if (a.rt->ctl().io_wait(a.ctx->id, fd, uint32_t(events), timed, deadline, site) ==
      sched::Outcome::Timeout)
    a.rt->clock().advance_to(deadline);
  return 0;
}

}  // extern "C"
