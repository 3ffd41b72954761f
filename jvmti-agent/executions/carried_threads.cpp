#include "jvmti-agent/executions/carried_threads.h"

#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

namespace {

struct Carried {
  jobject thread = nullptr;  // global ref
  // The execution that took it up, until the thread has entered it.
  Runtime* into = nullptr;
  sched::ThreadId id = sched::kNoThread;
  bool end = false;    // one too many: it ends
  bool plain = false;  // a thread no execution controls woke it
  uint64_t since = 0;  // when it last parked as carried (the limit ends the oldest)
};

std::mutex g_mu;
std::vector<Carried> g_carried;  // the threads parked in park_carried now
std::atomic<size_t> g_count{0};
uint64_t g_clock = 0;

// The thread has been carried (it runs plainly between its executions); the context of the
// execution it first outlived, which a thread the limit ends takes up again to end as before.
thread_local bool t_carried = false;
thread_local ThreadCtx* t_left = nullptr;

// Carried threads woken plainly that have not parked again (nor ended): a plain run of a test
// hands a shared executor's worker its task, and the next execution waits for it to be back.
thread_local bool t_lent = false;
std::mutex g_lent_mu;
// Never destroyed: a driver may wait on it as the process exits, and destroying a condition
// variable with a waiter blocks exit.
std::condition_variable& g_lent_cv = *new std::condition_variable;
size_t g_lent = 0;

// jdk.internal.misc.Unsafe's park and unpark, called through JNI: the real ones, which no hook
// sees.
struct RealPark {
  jobject unsafe = nullptr;  // global ref
  jmethodID park = nullptr, unpark = nullptr;
};

const RealPark& real_park(JNIEnv* env) {
  static RealPark p;
  static std::once_flag once;
  std::call_once(once, [env] {
    jclass c = env->FindClass("jdk/internal/misc/Unsafe");
    jmethodID get =
        c ? env->GetStaticMethodID(c, "getUnsafe", "()Ljdk/internal/misc/Unsafe;") : nullptr;
    jobject u = get ? env->CallStaticObjectMethod(c, get) : nullptr;
    if (u != nullptr) {
      p.park = env->GetMethodID(c, "park", "(ZJ)V");
      p.unpark = env->GetMethodID(c, "unpark", "(Ljava/lang/Object;)V");
      p.unsafe = env->NewGlobalRef(u);
    }
    env->ExceptionClear();
  });
  return p;
}

bool interrupted(JNIEnv* env, jthread self) {
  const bool on = env->CallBooleanMethod(self, refs().Thread_isInterrupted);
  env->ExceptionClear();
  return on;
}

Carried* find(JNIEnv* env, jobject t) {
  for (Carried& c : g_carried)
    if (env->IsSameObject(c.thread, t)) return &c;
  return nullptr;
}

void drop(JNIEnv* env, jobject t) {
  Carried* c = find(env, t);
  if (c == nullptr) return;
  env->DeleteGlobalRef(c->thread);
  g_carried.erase(g_carried.begin() + (c - g_carried.data()));
  g_count.store(g_carried.size(), std::memory_order_relaxed);
}

// Over the limit: the carried thread that has waited longest, not yet taken up, is told to end.
void end_oldest(JNIEnv* env, const RealPark& real) {
  Carried* oldest = nullptr;
  for (Carried& c : g_carried)
    if (!c.end && c.into == nullptr && (oldest == nullptr || c.since < oldest->since)) oldest = &c;
  if (oldest == nullptr) return;
  oldest->end = true;
  env->CallVoidMethod(real.unsafe, real.unpark, oldest->thread);
  env->ExceptionClear();
}

void lend() {
  if (t_lent) return;
  t_lent = true;
  std::lock_guard<std::mutex> g(g_lent_mu);
  ++g_lent;
}

void unlend() {
  if (!t_lent) return;
  t_lent = false;
  {
    std::lock_guard<std::mutex> g(g_lent_mu);
    --g_lent;
  }
  g_lent_cv.notify_all();
}

}  // namespace

bool parks_carried() {
  return state().tests && (Runtime::stale() || (t_carried && !Runtime::on_controlled_thread()));
}

void park_carried(JNIEnv* env) {
  const RealPark& real = real_park(env);
  jthread self = nullptr;
  if (real.unsafe == nullptr || state().jvmti->GetCurrentThread(&self) != JVMTI_ERROR_NONE) {
    Runtime::end_stale(env);  // as before there were carried threads
    return;
  }
  // Interrupted (by its execution, as it ended): its park returns, as it would have there. It
  // runs on as a stale thread, still counted in its execution, to its next park.
  if (interrupted(env, self)) {
    if (Runtime::spins_stale()) Runtime::end_stale(env);  // a loop that never clears it
    return;
  }
  t_carried = true;
  unlend();
  {
    std::lock_guard<std::mutex> g(g_mu);
    Carried* c = find(env, self);
    if (c == nullptr) {
      g_carried.push_back(Carried{env->NewGlobalRef(self)});
      g_count.store(g_carried.size(), std::memory_order_relaxed);
      c = &g_carried.back();
    }
    c->since = ++g_clock;
    if (g_carried.size() > kMaxCarried) end_oldest(env, real);
  }
  // Only now, once a waker finds it carried: the next execution may start as soon as it has left.
  if (ThreadCtx* left = Runtime::leave_execution()) t_left = left;
  Carried woken;
  for (bool first = true;; first = false) {
    // Without its timeout: time passes for a carried thread only in an execution (one that
    // waited with a timeout would count as a thread outside that may act at any moment, and
    // every execution would wait for it before each jump of its clock).
    env->CallVoidMethod(real.unsafe, real.park, JNI_FALSE, jlong(0));
    env->ExceptionClear();
    std::lock_guard<std::mutex> g(g_mu);
    if (Carried* c = find(env, self)) woken = *c;
    // A wake-up nobody gave leaves it parked (the JVM's own, spurious), except the first: an
    // unpark that came while it ran plainly, before it was carried, left its permit.
    if (first || woken.into != nullptr || woken.end || woken.plain || interrupted(env, self)) {
      drop(env, self);
      break;
    }
  }
  if (woken.into == nullptr && !woken.end) lend();
  if (woken.end) {
    t_carried = false;
    if (t_left != nullptr) Runtime::end_as_stale(env, *t_left);
  } else if (woken.into != nullptr) {
    // Its wake-up was real (the waker's queue has handed it a task, say): if that execution
    // ends before the thread takes its first step there, it returns all the same, a thread of
    // an execution that is over.
    woken.into->enter(woken.id);
  }
  // Woken plainly: it runs plainly until it parks again.
}

void woken_plainly(JNIEnv* env, jobject t) {
  if (g_count.load(std::memory_order_relaxed) == 0 || t == nullptr) return;
  std::lock_guard<std::mutex> g(g_mu);
  if (Carried* c = find(env, t)) c->plain = true;
}

bool wake_carried(JNIEnv* env, jobject t, Runtime& rt, ThreadCtx& waker) {
  if (g_count.load(std::memory_order_relaxed) == 0) return false;
  const RealPark& real = real_park(env);
  sched::ThreadId child;
  {
    std::lock_guard<std::mutex> g(g_mu);
    Carried* c = find(env, t);
    if (c == nullptr || c->end || c->into != nullptr) return false;
    child = rt.adopt(env, waker, static_cast<jthread>(t));
    state().outside.forget(env, t);  // the execution's own thread now
    c->into = &rt;
    c->id = child;
  }
  env->CallVoidMethod(real.unsafe, real.unpark, t);
  env->ExceptionClear();
  rt.ctl().started(waker.id, child);
  return true;
}

void carried_thread_ended() {
  unlend();
}

bool await_plain_carried(std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lk(g_lent_mu);
  return g_lent_cv.wait_for(lk, limit, [] { return g_lent == 0; });
}

}  // namespace jsched::agent
