#include "jvmti-agent/agent_thread.h"

namespace jsched::agent {

bool start_agent_thread(jvmtiEnv* jvmti, JNIEnv* env, const char* name, jvmtiStartFunction run,
                        void* arg, jint priority) {
  jclass thread_class = env->FindClass("java/lang/Thread");
  jmethodID ctor =
      thread_class ? env->GetMethodID(thread_class, "<init>", "(Ljava/lang/String;)V") : nullptr;
  jstring jname = ctor ? env->NewStringUTF(name) : nullptr;
  jobject t = jname ? env->NewObject(thread_class, ctor, jname) : nullptr;
  if (t == nullptr || jvmti->RunAgentThread(t, run, arg, priority) != JVMTI_ERROR_NONE) {
    env->ExceptionClear();
    return false;
  }
  return true;
}

}  // namespace jsched::agent
