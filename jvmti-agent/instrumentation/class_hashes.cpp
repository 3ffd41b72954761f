#include "jvmti-agent/instrumentation/class_hashes.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "jvmti-agent/agent_thread.h"

namespace jsched::agent {

namespace {

// One hashing thread and its queue. Never destroyed: the thread waits on it while the
// process exits (destroying a condition variable with a waiter blocks exit).
struct Hasher {
  std::mutex mu;
  std::condition_variable asked, done;
  std::deque<jobject> queue;  // global references, hashed in this order
  uint64_t asked_count = 0, done_count = 0;
  bool running = false;
};

Hasher& classes = *new Hasher;
std::atomic<int> g_waiters{0};

void JNICALL hasher_main(jvmtiEnv* jvmti, JNIEnv* env, void* arg) {
  Hasher& h = *static_cast<Hasher*>(arg);
  std::unique_lock<std::mutex> lk(h.mu);
  while (h.running) {
    h.asked.wait(lk, [&h] { return !h.queue.empty() || !h.running; });
    while (!h.queue.empty()) {
      jobject o = h.queue.front();
      h.queue.pop_front();
      jint hash = 0;
      jvmti->GetObjectHashCode(o, &hash);  // the first call fixes the hash, drawn on this thread
      env->DeleteGlobalRef(o);
      ++h.done_count;
    }
    h.done.notify_all();
  }
}

bool start_hasher(jvmtiEnv* jvmti, JNIEnv* env, Hasher& h, const char* name) {
  {
    std::lock_guard<std::mutex> lk(h.mu);
    h.running = true;  // before the thread starts: it runs while this holds
  }
  if (start_agent_thread(jvmti, env, name, &hasher_main, &h, JVMTI_THREAD_NORM_PRIORITY))
    return true;
  std::lock_guard<std::mutex> lk(h.mu);
  h.running = false;
  return false;
}

void stop_hasher(Hasher& h) {
  std::lock_guard<std::mutex> lk(h.mu);
  h.running = false;
  h.asked.notify_one();
}

// Waits until `h` has hashed `objects` (local references of the caller).
void hash_on(Hasher& h, JNIEnv* env, const std::vector<jobject>& objects) {
  std::unique_lock<std::mutex> lk(h.mu);
  if (!h.running) return;
  for (jobject o : objects) h.queue.push_back(env->NewGlobalRef(o));
  h.asked_count += objects.size();
  const uint64_t mine = h.asked_count;
  h.asked.notify_one();
  ++g_waiters;
  h.done.wait(lk, [&h, mine] { return h.done_count >= mine; });
  --g_waiters;
}

std::string signature(jvmtiEnv* jvmti, jclass c) {
  char* sig = nullptr;
  if (jvmti->GetClassSignature(c, &sig, nullptr) != JVMTI_ERROR_NONE || sig == nullptr) return "";
  std::string s = sig;
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
  return s;
}

}  // namespace

bool ClassHashes::start(jvmtiEnv* jvmti, JNIEnv* env) {
  if (!start_hasher(jvmti, env, classes, "jsched class hashes")) return false;
  // The classes so far, in an order of their names (the order the JVM lists them in need not
  // repeat), then the primitive types, which no list holds.
  jint n = 0;
  jclass* loaded = nullptr;
  if (jvmti->GetLoadedClasses(&n, &loaded) != JVMTI_ERROR_NONE) return false;
  std::vector<std::pair<std::string, jclass>> named;
  named.reserve(size_t(n));
  for (jint i = 0; i < n; ++i) named.emplace_back(signature(jvmti, loaded[i]), loaded[i]);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(loaded));
  std::stable_sort(named.begin(), named.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<jobject> objects;
  objects.reserve(named.size() + 9);
  for (const auto& [sig, c] : named) objects.push_back(c);
  for (const char* box : {"java/lang/Boolean", "java/lang/Byte", "java/lang/Character",
                          "java/lang/Short", "java/lang/Integer", "java/lang/Long",
                          "java/lang/Float", "java/lang/Double", "java/lang/Void"}) {
    jclass b = env->FindClass(box);
    jfieldID f = b ? env->GetStaticFieldID(b, "TYPE", "Ljava/lang/Class;") : nullptr;
    if (f == nullptr) return false;
    objects.push_back(env->GetStaticObjectField(b, f));
  }
  for (jobject o : objects) {
    jint hash = 0;
    jvmti->GetObjectHashCode(o, &hash);  // on main: see loaded()
    env->DeleteLocalRef(o);
  }
  return true;
}

void ClassHashes::stop() {
  stop_hasher(classes);
}

bool ClassHashes::waiting() {
  return g_waiters.load() > 0;
}

void ClassHashes::loaded(jvmtiEnv* jvmti, JNIEnv* env, jclass cls, bool main) {
  if (main) {
    jint hash = 0;
    jvmti->GetObjectHashCode(cls, &hash);
  } else {
    hash_on(classes, env, {cls});
  }
}

}  // namespace jsched::agent
