#include "jvmti-agent/executions/plain_uncaught.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

std::string uncaught_signature(JNIEnv* env, jthrowable e, jobjectArray trace) {
  jclass c = env->GetObjectClass(e);
  std::string sig = java_class_name(env, c);
  env->DeleteLocalRef(c);
  if (sig.empty()) sig = "?";
  const bool own = trace == nullptr;
  if (own)
    trace = static_cast<jobjectArray>(env->CallObjectMethod(e, refs().Throwable_getStackTrace));
  if (trace != nullptr && env->GetArrayLength(trace) > 0) {
    jobject top = env->GetObjectArrayElement(trace, 0);
    sig += " at " + java_to_string(env, top);
    env->DeleteLocalRef(top);
  }
  if (own && trace != nullptr) env->DeleteLocalRef(trace);
  env->ExceptionClear();
  return sig;
}

void PlainUncaught::record(bool on) {
  std::lock_guard<std::mutex> g(mu_);
  if (on) seen_.clear();
  on_ = on;
}

void PlainUncaught::seen(const std::string& signature) {
  std::lock_guard<std::mutex> g(mu_);
  if (on_ && seen_.size() < 1000) seen_.push_back(signature);
}

bool PlainUncaught::recording() const {
  std::lock_guard<std::mutex> g(mu_);
  return on_;
}

bool PlainUncaught::saw(const std::string& signature) const {
  std::lock_guard<std::mutex> g(mu_);
  return std::find(seen_.begin(), seen_.end(), signature) != seen_.end();
}

bool PlainUncaught::threw(const std::string& signature, int ms) {
  {
    std::lock_guard<std::mutex> g(mu_);
    on_ = true;  // what the plain run's threads still throw, as they end
  }
  for (int waited = 0; waited < ms && !saw(signature); waited += 10)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  record(false);
  return saw(signature);
}

void PlainUncaught::allow(const std::string& signature) {
  std::lock_guard<std::mutex> g(mu_);
  allowed_.push_back(signature);
}

bool PlainUncaught::allowed(const std::string& signature) const {
  std::lock_guard<std::mutex> g(mu_);
  return std::find(allowed_.begin(), allowed_.end(), signature) != allowed_.end();
}

void PlainUncaught::clear_allowed() {
  std::lock_guard<std::mutex> g(mu_);
  allowed_.clear();
}

PlainUncaught& plain_uncaught() {
  static PlainUncaught p;
  return p;
}

}  // namespace jsched::agent
