#include "jvmti-agent/hooks/output_oracle.h"

#include <regex>
#include <string>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"

extern const unsigned char jsched_output_class[];
extern const size_t jsched_output_class_size;

namespace jsched::agent {

namespace {

const std::regex* g_pattern = nullptr;  // set once, before any line can come
jclass g_output = nullptr;
jmethodID g_install = nullptr;

}  // namespace

bool watch_output(JNIEnv* env) {
  const std::string& pattern = state().options.bug_output;
  if (pattern.empty()) return true;
  if (g_output == nullptr) {
    g_pattern = new std::regex(pattern, std::regex::ECMAScript | std::regex::optimize);
    jclass c = env->DefineClass("java/lang/JSchedOutput", nullptr,
                                reinterpret_cast<const jbyte*>(jsched_output_class),
                                jsize(jsched_output_class_size));
    if (c == nullptr) {
      env->ExceptionDescribe();
      return false;
    }
    g_output = static_cast<jclass>(env->NewGlobalRef(c));
    g_install = env->GetStaticMethodID(g_output, "install", "()V");
    if (g_install == nullptr) {
      env->ExceptionDescribe();
      return false;
    }
  }
  env->CallStaticVoidMethod(g_output, g_install);
  if (env->ExceptionCheck()) {
    env->ExceptionDescribe();
    return false;
  }
  return true;
}

}  // namespace jsched::agent

extern "C" JNIEXPORT void JNICALL Java_java_lang_JSchedOutput_line(JNIEnv* env, jclass,
                                                                   jstring text) {
  using namespace jsched::agent;
  if (g_pattern == nullptr || text == nullptr) return;
  const char* chars = env->GetStringUTFChars(text, nullptr);
  if (chars == nullptr) return;
  const std::string line(chars);
  env->ReleaseStringUTFChars(text, chars);
  if (!std::regex_search(line, *g_pattern)) return;
  if (Runtime* rt = runtime()) rt->printed_bug(line);
}
