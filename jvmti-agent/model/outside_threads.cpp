#include "jvmti-agent/model/outside_threads.h"

#include <algorithm>

#include "jvmti-agent/model/kernel_threads.h"

namespace jsched::agent {

namespace {

jint state_of(jvmtiEnv* jvmti, jobject t) {
  jint st = 0;
  if (jvmti->GetThreadState(static_cast<jthread>(t), &st) != JVMTI_ERROR_NONE)
    return JVMTI_THREAD_STATE_TERMINATED;
  return st;
}

bool can_act(jvmtiEnv* jvmti, const OutsideThreads::Entry& e) {
  const jint st = state_of(jvmti, e.thread);
  if (st & JVMTI_THREAD_STATE_TERMINATED) return false;
  if (!(st & JVMTI_THREAD_STATE_ALIVE)) return true;  // not started yet: it is about to
  if (e.woken != std::chrono::steady_clock::time_point{} &&
      std::chrono::steady_clock::now() - e.woken < OutsideThreads::kWokenMs)
    return true;  // unparked, and not yet parked again
  if (e.helper) {
    if (!(st & JVMTI_THREAD_STATE_RUNNABLE)) return false;
    // The JVM's own threads and agent threads run no Java code: they never wake the program.
    // A thread just started has no frame yet either.
    jint frames = 0;
    if (jvmti->GetFrameCount(static_cast<jthread>(e.thread), &frames) != JVMTI_ERROR_NONE)
      return false;
    return frames > 0 ||
           std::chrono::steady_clock::now() - e.since < std::chrono::milliseconds(100);
  }
  return !(st &
           (JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER | JVMTI_THREAD_STATE_WAITING_INDEFINITELY));
}

const char* state_name(jint st) {
  if (!(st & JVMTI_THREAD_STATE_ALIVE)) return "starting";
  if (st & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) return "blocked on a monitor";
  if (st & JVMTI_THREAD_STATE_WAITING_INDEFINITELY) return "waiting";
  if (st & JVMTI_THREAD_STATE_SLEEPING) return "sleeping";
  if (st & JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT) return "waiting with a timeout";
  return "running";
}

bool program_class(const ClassFilter& filter, std::string_view name) {
  return !jdk_package(name) && filter.instrument(name, false);
}

// A class of the program on the calling thread's stack.
bool program_on_stack(JNIEnv* env, jvmtiEnv* jvmti, const ClassFilter& filter) {
  jvmtiFrameInfo frames[64];
  jint count = 0;
  if (jvmti->GetStackTrace(nullptr, 0, 64, frames, &count) != JVMTI_ERROR_NONE) return false;
  for (jint i = 0; i < count; ++i) {
    jclass c = nullptr;
    if (jvmti->GetMethodDeclaringClass(frames[i].method, &c) != JVMTI_ERROR_NONE) continue;
    char* sig = nullptr;
    bool program = false;
    if (jvmti->GetClassSignature(c, &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
      std::string_view name(sig);
      if (name.size() > 2 && name.front() == 'L')
        program = program_class(filter, name.substr(1, name.size() - 2));
      jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    env->DeleteLocalRef(c);
    if (program) return true;
  }
  return false;
}

}  // namespace

void OutsideThreads::started(JNIEnv* env, jvmtiEnv* jvmti, const ClassFilter& filter,
                             const std::string& caller, jthread t) {
  if (!program_class(filter, caller) && !program_on_stack(env, jvmti, filter)) return;
  adopt(env, jvmti, t);
}

void OutsideThreads::add(JNIEnv* env, jvmtiEnv* jvmti, jthread t, bool helper, int os_tid) {
  std::lock_guard<std::mutex> g(mu_);
  auto ended = [&](const Entry& e) {
    if (!(state_of(jvmti, e.thread) & JVMTI_THREAD_STATE_TERMINATED)) return false;
    env->DeleteGlobalRef(e.thread);
    return true;
  };
  threads_.erase(std::remove_if(threads_.begin(), threads_.end(), ended), threads_.end());
  for (Entry& e : threads_) {
    if (env->IsSameObject(e.thread, t)) {
      e.helper = e.helper && helper;
      if (os_tid != 0) e.os_tid = os_tid;
      return;
    }
  }
  jobject ref = env->NewGlobalRef(t);
  if (ref == nullptr) return;
  threads_.push_back(Entry{ref, helper, std::chrono::steady_clock::now(), os_tid});
  count_.store(threads_.size(), std::memory_order_relaxed);
}

void OutsideThreads::forget(JNIEnv* env, jobject t) {
  if (!any()) return;
  std::lock_guard<std::mutex> g(mu_);
  auto it = std::find_if(threads_.begin(), threads_.end(),
                         [&](const Entry& e) { return env->IsSameObject(e.thread, t); });
  if (it == threads_.end()) return;
  env->DeleteGlobalRef(it->thread);
  threads_.erase(it);
  count_.store(threads_.size(), std::memory_order_relaxed);
}

void OutsideThreads::woken(JNIEnv* env, jobject t) {
  if (!any() || t == nullptr) return;
  std::lock_guard<std::mutex> g(mu_);
  for (Entry& e : threads_) {
    if (env->IsSameObject(e.thread, t)) e.woken = std::chrono::steady_clock::now();
  }
}

void OutsideThreads::parks(JNIEnv* env, jobject self) {
  if (!any() || self == nullptr) return;
  std::lock_guard<std::mutex> g(mu_);
  for (Entry& e : threads_) {
    if (env->IsSameObject(e.thread, self)) e.woken = {};
  }
}

bool OutsideThreads::may_act(jvmtiEnv* jvmti) {
  if (!any()) return false;
  std::lock_guard<std::mutex> g(mu_);
  return std::any_of(threads_.begin(), threads_.end(),
                     [&](const Entry& e) { return can_act(jvmti, e); });
}

void OutsideThreads::mark_cpu() {
  if (!any()) return;
  std::lock_guard<std::mutex> g(mu_);
  for (Entry& e : threads_) {
    const std::optional<KernelThread> k = kernel_thread(e.os_tid);
    e.cpu_mark = k ? k->cpu_s : kNoMark;
  }
}

bool OutsideThreads::held_back(jvmtiEnv* jvmti, double cpu_s) {
  if (!any()) return false;
  std::lock_guard<std::mutex> g(mu_);
  return std::any_of(threads_.begin(), threads_.end(), [&](const Entry& e) {
    if (e.cpu_mark == kNoMark || !can_act(jvmti, e)) return false;
    const std::optional<KernelThread> k = kernel_thread(e.os_tid);
    return k && k->state == 'R' && k->cpu_s < e.cpu_mark + cpu_s;
  });
}

std::vector<std::string> OutsideThreads::describe(jvmtiEnv* jvmti) {
  std::vector<std::string> out;
  if (!any()) return out;
  std::lock_guard<std::mutex> g(mu_);
  for (const Entry& e : threads_) {
    jobject t = e.thread;
    jint st = state_of(jvmti, t);
    if (st & JVMTI_THREAD_STATE_TERMINATED) continue;
    if (e.helper && !can_act(jvmti, e)) continue;  // the JVM's housekeeping, say: noise here
    jvmtiThreadInfo info{};
    std::string name = "?";
    if (jvmti->GetThreadInfo(static_cast<jthread>(t), &info) == JVMTI_ERROR_NONE && info.name) {
      name = info.name;
      jvmti->Deallocate(reinterpret_cast<unsigned char*>(info.name));
    }
    out.push_back("'" + name + "' (" + state_name(st) + ")");
  }
  return out;
}

}  // namespace jsched::agent
