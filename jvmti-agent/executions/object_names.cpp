#include "jvmti-agent/executions/object_names.h"

#include <string>

#include "jvmti-agent/jvm_refs.h"
#include "scheduler/core/fingerprint.h"

namespace jsched::agent {

namespace {
uint64_t nonzero(uint64_t v) {
  return v ? v : 1;
}
}  // namespace

sched::ObjectId ObjectNames::of(JNIEnv* env, jobject o, uint64_t thread, uint64_t& touches) {
  jlong tag = 0;
  jvmti_->GetTag(o, &tag);
  if (tag != 0) return uint64_t(tag);
  char* sig = nullptr;
  // Class objects (the monitors of static synchronized methods) are named by their class.
  // (java.lang.Class is final: an instance of it is a class.)
  if (env->IsInstanceOf(o, refs().Class) &&
      jvmti_->GetClassSignature(static_cast<jclass>(o), &sig, nullptr) == JVMTI_ERROR_NONE) {
    const uint64_t name = nonzero(sched::hash_string(std::string("class:") + sig));
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
    jvmti_->SetTag(o, jlong(name));
    return name;
  }
  return rename(o, thread, touches);
}

sched::ObjectId ObjectNames::rename(jobject o, uint64_t thread, uint64_t& touches) {
  const uint64_t name = nonzero(sched::mix64(thread ^ 0x5bd1e995ULL ^ sched::mix64(++touches)));
  jvmti_->SetTag(o, jlong(name));
  return name;
}

sched::ObjectId ObjectNames::derived(jobject o, sched::ObjectId from) {
  jlong tag = 0;
  if (jvmti_->GetTag(o, &tag) == JVMTI_ERROR_NONE && tag != 0) return uint64_t(tag);
  const uint64_t name = nonzero(sched::mix64(from ^ 0x73796e6368726f6eULL));
  jvmti_->SetTag(o, jlong(name));
  return name;
}

void ObjectNames::name_new(jobject o, uint64_t thread, uint64_t& allocations) {
  ++allocations;  // counted either way: later allocations keep their names
  jlong tag = 0;
  if (jvmti_->GetTag(o, &tag) != JVMTI_ERROR_NONE || tag != 0) return;
  jvmti_->SetTag(o, jlong(nonzero(sched::mix64(thread ^ sched::mix64(allocations)))));
}

}  // namespace jsched::agent
