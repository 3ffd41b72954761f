#include "jvmti-agent/java_text.h"

#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

std::string java_string(JNIEnv* env, jstring s) {
  if (s == nullptr) return "";
  const char* chars = env->GetStringUTFChars(s, nullptr);
  std::string out(chars ? chars : "");
  if (chars) env->ReleaseStringUTFChars(s, chars);
  return out;
}

namespace {

// `m`: the method's id resolved at start (jvm_refs.h), or null before then.
std::string call_string(JNIEnv* env, jobject o, jmethodID m, const char* cls, const char* method) {
  if (o == nullptr) return "";
  if (m == nullptr) {
    jclass c = env->FindClass(cls);
    m = c ? env->GetMethodID(c, method, "()Ljava/lang/String;") : nullptr;
    if (c) env->DeleteLocalRef(c);
    if (m == nullptr) {
      env->ExceptionClear();
      return "";
    }
  }
  auto s = static_cast<jstring>(env->CallObjectMethod(o, m));
  env->ExceptionClear();
  std::string out = java_string(env, s);
  if (s) env->DeleteLocalRef(s);
  return out;
}

}  // namespace

std::string java_to_string(JNIEnv* env, jobject o) {
  return call_string(env, o, refs().Object_toString, "java/lang/Object", "toString");
}

std::string java_class_name(JNIEnv* env, jclass c) {
  return call_string(env, c, refs().Class_getName, "java/lang/Class", "getName");
}

}  // namespace jsched::agent
