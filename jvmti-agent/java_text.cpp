#include "jvmti-agent/java_text.h"

namespace jsched::agent {

std::string java_string(JNIEnv* env, jstring s) {
  if (s == nullptr) return "";
  const char* chars = env->GetStringUTFChars(s, nullptr);
  std::string out(chars ? chars : "");
  if (chars) env->ReleaseStringUTFChars(s, chars);
  return out;
}

namespace {

std::string call_string(JNIEnv* env, jobject o, const char* cls, const char* method) {
  if (o == nullptr) return "";
  jmethodID m = env->GetMethodID(env->FindClass(cls), method, "()Ljava/lang/String;");
  auto s = static_cast<jstring>(env->CallObjectMethod(o, m));
  env->ExceptionClear();
  std::string out = java_string(env, s);
  if (s) env->DeleteLocalRef(s);
  return out;
}

}  // namespace

std::string java_to_string(JNIEnv* env, jobject o) {
  return call_string(env, o, "java/lang/Object", "toString");
}

std::string java_class_name(JNIEnv* env, jclass c) {
  return call_string(env, c, "java/lang/Class", "getName");
}

}  // namespace jsched::agent
