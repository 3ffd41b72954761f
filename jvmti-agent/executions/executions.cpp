#include "jvmti-agent/executions/executions.h"

#include <unistd.h>

#include <fstream>
#include <mutex>
#include <string>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/execution_loop.h"
#include "jvmti-agent/executions/kept_thread_zero.h"
#include "jvmti-agent/executions/one_core.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"

extern const unsigned char jsched_main_class[];
extern const size_t jsched_main_class_size;

namespace jsched::agent {

bool prepare_executions(JNIEnv* env) {
  jclass c = env->DefineClass("java/lang/JSchedMain", nullptr,
                              reinterpret_cast<const jbyte*>(jsched_main_class),
                              jsize(jsched_main_class_size));
  if (c == nullptr) return env->ExceptionDescribe(), false;
  DriverHelper& h = driver_helper();
  h.cls = static_cast<jclass>(env->NewGlobalRef(c));
  h.fresh_loader = env->GetStaticMethodID(c, "freshLoader", "()Ljava/lang/ClassLoader;");
  h.main_job =
      env->GetStaticMethodID(c, "mainJob",
                             "(Ljava/lang/String;Ljava/lang/ClassLoader;[Ljava/lang/String;)"
                             "Ljava/lang/JSchedMain;");
  h.keepable = env->GetStaticMethodID(c, "keepable", "()Z");
  h.thread_for = env->GetMethodID(c, "threadFor", "(Ljava/lang/Thread;)Ljava/lang/Thread;");
  h.close = env->GetStaticMethodID(c, "close", "(Ljava/lang/ClassLoader;)V");
  h.junit4 = env->GetStaticMethodID(c, "junit4", "(Ljava/lang/Object;)Ljava/lang/JSchedMain;");
  h.junit3 = env->GetStaticMethodID(c, "junit3", "(Ljava/lang/Object;)Ljava/lang/JSchedMain;");
  h.jupiter = env->GetStaticMethodID(
      c, "jupiter",
      "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/JSchedMain;");
  h.thread = env->GetMethodID(c, "thread", "()Ljava/lang/Thread;");
  h.aborted = env->GetMethodID(c, "aborted", "()Ljava/lang/Throwable;");
  h.run_plainly = env->GetMethodID(c, "runPlainly", "(J)Ljava/lang/Throwable;");
  h.trim = env->GetStaticMethodID(c, "trimIfDriven", "(Ljava/lang/Throwable;)V");
  if (!h.trim || !h.fresh_loader || !h.main_job || !h.keepable || !h.thread_for || !h.close ||
      !h.junit4 || !h.junit3 || !h.jupiter || !h.thread || !h.aborted || !h.run_plainly)
    return env->ExceptionDescribe(), false;
  remember_first_options(state().options.seed, state().options.steps);
  // Every execution adds its line to the report.
  const std::string& report = state().options.report;
  if (!report.empty()) std::ofstream(report, std::ios::trunc);
  return true;
}

}  // namespace jsched::agent

using namespace jsched::agent;
using jsched::RunOutcome;

extern "C" {

// The diverted main (jvmti-agent/instrumentation/main_diversion.h): the program's main, iterations
// times.
JNIEXPORT void JNICALL Java_java_lang_JSchedShim_jschedIterate(JNIEnv* env, jclass,
                                                               jobjectArray args, jclass main) {
  if (main == nullptr || driver_helper().cls == nullptr) return;
  std::lock_guard<std::mutex> one_at_a_time(driver_mutex());
  const DriverHelper& h = driver_helper();
  std::string name = java_class_name(env, main);
  jstring jname = env->NewStringUTF(name.c_str());
  ExecutionLoop loop("");
  OneCore::Stay on_one_core;
  bool unfinished = false;  // stopped before its iterations were done: an error
  // Statics reset (rewriter/static_reset.h): one loader while it can, else one per execution.
  const bool reset = state().rewrite.static_reset;
  bool fresh = !reset;
  // The launcher's loader until an execution leaves its classes unusable; then the driver's.
  bool launcher = state().shared_main;
  jobject shared = nullptr;  // global ref
  bool said_spoiled = false;
  for (uint64_t i = 0; i < loop.count(); ++i) {
    if (!fresh && shared == nullptr) {
      // The launcher's loader when the main class there can run each execution (it then
      // holds the program as every other path to it sees it), else one of the driver's.
      jobject l =
          launcher ? state().system_loader : env->CallStaticObjectMethod(h.cls, h.fresh_loader);
      if (l != nullptr) shared = env->NewGlobalRef(l);
    }
    jobject loader = fresh ? env->CallStaticObjectMethod(h.cls, h.fresh_loader)
                           : (shared ? env->NewLocalRef(shared) : nullptr);
    if (reset) set_generation(env, int(i % 0x7ffffffe) + 1);
    jobject job =
        loader ? env->CallStaticObjectMethod(h.cls, h.main_job, jname, loader, args) : nullptr;
    jobject kept = job && env->CallStaticBooleanMethod(h.cls, h.keepable)
                       ? kept_thread_zero::take(env)
                       : nullptr;
    jobject thread = job ? env->CallObjectMethod(job, h.thread_for, kept) : nullptr;
    if (thread == nullptr) {
      log_line("error: cannot run " + name +
               ".main from a class loader of its own: " + take_exception(env));
      _exit(2);
    }
    loop.await_threads(!fresh);
    bool go_on = loop.run(env, thread, i, kept ? job : nullptr);
    if (fresh) {
      if (go_on && i + 1 < loop.count() && loaded_native_libraries(env, loader)) {
        log_line("error: the iterations stop after iteration " + std::to_string(i) +
                 ": the program loaded native libraries, which the next iteration's class "
                 "loader cannot load again");
        unfinished = true;
        go_on = false;
      }
      env->CallStaticVoidMethod(h.cls, h.close, loader);
      env->ExceptionClear();
    } else if (go_on && i + 1 < loop.count()) {
      std::string why = reset_blocker(env, shared);
      if (why.empty() && !loop.threads_gone())
        why = "a thread of iteration " + std::to_string(i) + " outlived it";
      // The launcher's loader counts too: libraries that find the program through
      // ClassLoader.getSystemClassLoader() (jffi's) load there.
      if (!why.empty() && (loaded_native_libraries(env, shared) ||
                           loaded_native_libraries(env, state().system_loader))) {
        // Fresh loaders would fail on the program's JNI libraries, and that failure would be
        // reported as the program's bug.
        log_line("error: the iterations stop after iteration " + std::to_string(i) + ": " + why +
                 ", and the next iteration cannot load the program afresh either (it loaded "
                 "native libraries, which a second class loader cannot load)");
        unfinished = true;
        go_on = false;
      } else if (!why.empty()) {
        // A refusal holds in every loader: one per execution from now on. What spoiled only
        // this loader's classes (an initializer that threw, a thread stuck in one for good)
        // takes one new loader, whose classes the later executions reset again.
        fresh = !reset_refusal().empty();
        // Said once: a program that leaves a thread behind in every execution would say it
        // every time.
        if (fresh || !said_spoiled)
          log_line("note: " + why +
                   (fresh ? ": the next iterations load the program's classes afresh "
                            "(as with statics=reload)"
                          : ": the next iteration loads the program's classes afresh, and the "
                            "ones after it reuse them (so each time an iteration leaves them "
                            "so; said once)"));
        said_spoiled = said_spoiled || !fresh;
        if (!launcher) env->CallStaticVoidMethod(h.cls, h.close, loader);
        env->ExceptionClear();
        env->DeleteGlobalRef(shared);
        shared = nullptr;
        launcher = false;
      }
    }
    env->DeleteLocalRef(thread);
    env->DeleteLocalRef(kept);
    env->DeleteLocalRef(job);
    env->DeleteLocalRef(loader);
    if (!go_on) break;
  }
  log_line(loop.summary());
  flush_java_streams(env);
  std::fflush(stdout);
  _exit(loop.first() ? int(*loop.first()) : unfinished ? int(RunOutcome::Error) : 0);
}

}  // extern "C"
