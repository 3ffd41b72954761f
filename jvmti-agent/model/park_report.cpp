#include "jvmti-agent/model/park_report.h"

#include <string_view>

#include "jvmti-agent/java_text.h"

namespace jsched::agent {

namespace {

// The blocker's class without its package ("ReentrantLock$NonfairSync").
std::string simple_class_name(JNIEnv* env, jobject o) {
  jclass c = env->GetObjectClass(o);
  std::string out = java_class_name(env, c);
  env->DeleteLocalRef(c);
  size_t dot = out.rfind('.');
  return dot == std::string::npos ? out : out.substr(dot + 1);
}

}  // namespace

std::string park_blocker(JNIEnv* env, jthread t,
                         const std::function<std::string(jobject)>& name_of) {
  jclass ls = env->FindClass("java/util/concurrent/locks/LockSupport");
  jmethodID get =
      ls ? env->GetStaticMethodID(ls, "getBlocker", "(Ljava/lang/Thread;)Ljava/lang/Object;")
         : nullptr;
  jobject blocker = get ? env->CallStaticObjectMethod(ls, get, t) : nullptr;
  env->ExceptionClear();
  if (blocker == nullptr) return "an unpark";
  std::string out = "a " + simple_class_name(env, blocker);
  jclass aos = env->FindClass("java/util/concurrent/locks/AbstractOwnableSynchronizer");
  if (aos && env->IsInstanceOf(blocker, aos)) {
    jmethodID owner_of = env->GetMethodID(aos, "getExclusiveOwnerThread", "()Ljava/lang/Thread;");
    jobject owner = owner_of ? env->CallObjectMethod(blocker, owner_of) : nullptr;
    env->ExceptionClear();
    if (owner) {
      std::string name = name_of(owner);
      out += " held by " +
             (name.empty() ? std::string("a thread jsched does not control") : "thread " + name);
    }
  }
  env->ExceptionClear();
  return out;
}

bool idle_worker(jvmtiEnv* jvmti, jthread t) {
  jvmtiFrameInfo frames[24];
  jint count = 0;
  if (jvmti->GetStackTrace(t, 0, 24, frames, &count) != JVMTI_ERROR_NONE) return false;
  for (jint i = 0; i < count; ++i) {
    char *name = nullptr, *csig = nullptr;
    jclass cls = nullptr;
    jvmti->GetMethodName(frames[i].method, &name, nullptr, nullptr);
    jvmti->GetMethodDeclaringClass(frames[i].method, &cls);
    if (cls) jvmti->GetClassSignature(cls, &csig, nullptr);
    std::string_view c = csig ? csig : "", m = name ? name : "";
    // The way down from the park (or wait) to the pool's "wait for work" frame.
    bool plumbing = c == "Ljava/lang/Object;" || c == "Ljava/lang/JSchedShim;" ||
                    c == "Ljava/lang/Thread;" || c.starts_with("Ljava/util/concurrent/locks/") ||
                    (c == "Ljava/util/concurrent/ForkJoinPool;" && m.ends_with("anagedBlock")) ||
                    (c.starts_with("Ljava/util/concurrent/") && c.find("Queue") != c.npos) ||
                    c == "Ljava/util/TaskQueue;";
    bool waits_for_work = (c == "Ljava/util/concurrent/ThreadPoolExecutor;" && m == "getTask") ||
                          (c == "Ljava/util/concurrent/ForkJoinPool;" && m == "awaitWork") ||
                          (c == "Ljava/util/TimerThread;" && m == "mainLoop");
    if (name) jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
    if (csig) jvmti->Deallocate(reinterpret_cast<unsigned char*>(csig));
    if (waits_for_work) return true;
    if (!plumbing) return false;
  }
  return false;
}

}  // namespace jsched::agent
