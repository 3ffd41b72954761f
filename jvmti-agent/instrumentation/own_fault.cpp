#include "jvmti-agent/instrumentation/own_fault.h"

#include <cctype>

#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '/';
}

// Members jsched adds or calls: the shim's classes and the methods and fields it adds.
bool names_jsched_member(const std::string& m) {
  for (const char* mark : {"java.lang.JSched", "java/lang/JSched", "jsched$"}) {
    if (m.find(mark) != std::string::npos) return true;
  }
  return false;
}

// The first class jsched changed that `message` names (dotted, internal "p/C" or descriptor
// "Lp/C;" forms), or "".
std::string named_class(const std::string& message, const ClassOutcomes& classes) {
  for (size_t i = 0; i < message.size();) {
    if (!name_char(message[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() && name_char(message[end])) ++end;
    std::string token = message.substr(i, end - i);
    i = end;
    while (!token.empty() && (token.back() == '.' || token.back() == '/')) token.pop_back();
    if (token.size() > 1 && token[0] == 'L' && token.find('/') != std::string::npos)
      token.erase(0, 1);
    for (char& c : token) c = c == '/' ? '.' : c;
    // "C.m(...)" in a verifier's location: the class is the token up to its last dot too.
    for (std::string t = token; !t.empty();) {
      if (classes.was_changed(t)) return t;
      size_t dot = t.rfind('.');
      if (dot == std::string::npos) break;
      t.resize(dot);
    }
  }
  return "";
}

}  // namespace

std::string own_fault(JNIEnv* env, jthrowable e, const ClassOutcomes& classes) {
  const JvmRefs& r = refs();
  std::string why;
  jthrowable t = e;
  for (int depth = 0; t != nullptr && depth < 8 && why.empty(); ++depth) {
    const std::string msg =
        java_string(env, static_cast<jstring>(env->CallObjectMethod(t, r.Throwable_getMessage)));
    env->ExceptionClear();
    const std::string what = java_class_name(env, env->GetObjectClass(t));
    if (env->IsInstanceOf(t, r.VerifyError) || env->IsInstanceOf(t, r.ClassFormatError)) {
      std::string cls = named_class(msg, classes);
      if (!cls.empty())
        why =
            what + " in class " + cls + ", which jsched rewrote: " + msg.substr(0, msg.find('\n'));
    } else if (env->IsInstanceOf(t, r.LinkageError) && names_jsched_member(msg)) {
      why = what + " naming code jsched added: " + msg.substr(0, msg.find('\n'));
    }
    jthrowable cause = static_cast<jthrowable>(env->CallObjectMethod(t, r.Throwable_getCause));
    env->ExceptionClear();
    if (cause != nullptr && env->IsSameObject(cause, t)) cause = nullptr;
    t = cause;
  }
  return why;
}

}  // namespace jsched::agent
