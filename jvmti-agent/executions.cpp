#include "jvmti-agent/executions.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <string>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/runtime.h"
#include "jvmti-agent/static_reset.h"
#include "jvmti-agent/test_minimizer.h"
#include "rewriter/junit_method_wrapping.h"

extern const unsigned char jsched_main_class[];
extern const size_t jsched_main_class_size;

namespace jsched::agent {

namespace {

using Clock = std::chrono::steady_clock;

struct Helper {
  jclass cls = nullptr;  // java.lang.JSchedMain
  jmethodID fresh_loader = nullptr, main_thread = nullptr, test_thread = nullptr, close = nullptr;
};
Helper g_helper;
uint64_t g_first_seed = 0;   // every driver call starts here (each test method, say)
uint64_t g_first_steps = 0;  // steps= as given
// One execution at a time in the JVM: test methods run in parallel by the test runner take
// turns.
std::mutex g_driver_mu;

// Executions that are over. A Runtime is deleted once every thread of it is gone and it has
// been retired for a while: threads jsched does not control read the current Runtime without a
// lock (LockSupport.unpark and clock reads in JDK code), and the while is far beyond those
// calls. An execution whose threads are not all gone (one blocked outside jsched's view, say)
// is never deleted.
std::mutex g_retired_mu;
std::deque<std::pair<Runtime*, Clock::time_point>> g_retired;

void retire(Runtime* rt) {
  std::lock_guard<std::mutex> g(g_retired_mu);
  auto now = Clock::now();
  g_retired.emplace_back(rt, now);
  while (!g_retired.empty() && now - g_retired.front().second > std::chrono::milliseconds(200)) {
    Runtime* old = g_retired.front().first;
    g_retired.pop_front();
    if (old->all_gone()) delete old;
  }
}

// The pending exception as text (cleared).
std::string take_exception(JNIEnv* env) {
  jthrowable e = env->ExceptionOccurred();
  env->ExceptionClear();
  return java_to_string(env, e);
}

// Runs thread 0 `thread` (not started) as execution `i` under `strategy`, to its end; the
// caller retires the Runtime.
Runtime* run_execution(JNIEnv* env, jobject thread, uint64_t i,
                       std::unique_ptr<sched::Strategy> strategy, RunOutcome& outcome) {
  AgentState& s = state();
  auto* rt = new Runtime(s, s.jvmti, std::move(strategy));
  OneCore::Visit on_its_core(rt->core());
  rt->start_execution(env, static_cast<jthread>(thread), i);
  set_runtime(rt);
  env->CallVoidMethod(thread, refs().Thread_start);
  if (env->ExceptionCheck()) {
    log_line("error: cannot start thread 0 of iteration " + std::to_string(i) + ": " +
             take_exception(env));
    _exit(2);
  }
  outcome = rt->end();
  set_runtime(nullptr);
  rt->end_threads();
  return rt;
}

// Whether every thread of the execution is gone within a moment (those it ended unwind through
// their finally blocks).
bool threads_end(Runtime* rt) {
  auto until = Clock::now() + std::chrono::milliseconds(200);
  while (!rt->threads_ended()) {
    if (Clock::now() > until) return false;
    usleep(200);
  }
  return true;
}

// The executions of one driver call: seeds, what they found, progress on long loops.
class Loop {
 public:
  explicit Loop(std::string what) : what_(std::move(what)), start_(Clock::now()) {
    base_ = g_first_seed;
    const Options& o = state().options;
    count_ = o.iterations;
    learn_steps_ = o.strategy == Strategy::Pct && g_first_steps == 0 && o.plan.empty();
    state().options.steps = g_first_steps;  // each loop learns anew (each test method, say)
  }

  uint64_t count() const { return count_; }

  // Whether run() should wait for each execution's threads to be gone (a reused class loader:
  // a thread left running would use the next execution's statics).
  void await_threads(bool on) { await_threads_ = on; }
  bool threads_gone() const { return threads_gone_; }

  // Runs execution i with thread 0 `thread` (not started); false when the loop should stop.
  bool run(JNIEnv* env, jobject thread, uint64_t i) {
    AgentState& s = state();
    s.options.seed = base_ + i;
    // PCT without steps= or a plan learns k from the executions before (docs/agent.md): the most
    // steps one took. The execution's replay command says the k it ran with.
    if (learn_steps_ && max_steps_ > 0) s.options.steps = max_steps_;
    RunOutcome o = RunOutcome::Ok;
    Runtime* rt = run_execution(env, thread, i, s.new_strategy(), o);
    max_steps_ = std::max(max_steps_, rt->ctl().steps());
    threads_gone_ = !await_threads_ || threads_end(rt);
    ++done_;
    if (o != RunOutcome::Ok) {
      ++found_;
      if (!first_) {
        first_ = o;
        first_iteration_ = i;
        first_seed_ = rt->seed();
        first_steps_ = s.options.steps;
        first_detail_ = rt->detail();
        first_replay_ = rt->agent_option();
      }
    }
    retire(rt);
    progress();
    // An error (jsched's own failure, or classes it could not instrument) ends the loop: no
    // later execution can be trusted either.
    return o == RunOutcome::Ok || (s.options.explore && o != RunOutcome::Error);
  }

  // "200 iterations in 0.4 s (500 per second), seeds 1..200: no finding"
  std::string summary() const {
    double secs = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string line = what_ + std::to_string(done_) + (done_ == 1 ? " iteration" : " iterations") +
                       " in " + fixed(secs) + " s (" + fixed(secs > 0 ? done_ / secs : 0) +
                       " per second), seeds " + std::to_string(base_) + ".." +
                       std::to_string(base_ + (done_ ? done_ - 1 : 0)) + ": ";
    if (!first_) return line + "no finding";
    if (*first_ == RunOutcome::Error)
      return line + "an error of jsched's in iteration " + std::to_string(first_iteration_) +
             " (seed " + std::to_string(first_seed_) + "), no verdict";
    return line + std::to_string(found_) + (found_ == 1 ? " finding" : " findings") +
           ", the first a " + outcome_name(*first_) + " in iteration " +
           std::to_string(first_iteration_) + " (seed " + std::to_string(first_seed_) + ")";
  }

  std::optional<RunOutcome> first() const { return first_; }
  uint64_t first_iteration() const { return first_iteration_; }
  uint64_t first_seed() const { return first_seed_; }
  uint64_t first_steps() const { return first_steps_; }  // the PCT k it ran with
  const std::string& first_detail() const { return first_detail_; }
  const std::string& first_replay() const { return first_replay_; }

 private:
  static std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f" : "%.0f", v);
    return buf;
  }

  void progress() {
    auto now = Clock::now();
    if (now - last_progress_ < std::chrono::seconds(10)) return;
    if (last_progress_ == Clock::time_point{}) {  // the first ten seconds are quiet
      last_progress_ = start_;
      if (now - start_ < std::chrono::seconds(10)) return;
    }
    last_progress_ = now;
    log_line(what_ + std::to_string(done_) + " of " + std::to_string(count_) + " iterations, " +
             std::to_string(found_) + (found_ == 1 ? " finding" : " findings"));
  }

  std::string what_;
  uint64_t base_ = 0, count_ = 1, done_ = 0, found_ = 0, max_steps_ = 0;
  bool learn_steps_ = false, await_threads_ = false, threads_gone_ = true;
  Clock::time_point start_, last_progress_{};
  std::optional<RunOutcome> first_;
  uint64_t first_iteration_ = 0, first_seed_ = 0, first_steps_ = 0;
  std::string first_detail_, first_replay_;
};

// Calls target's `body()V`, declared by its class or a superclass (private there).
void run_inline(JNIEnv* env, jobject target, const std::string& body) {
  for (jclass c = env->GetObjectClass(target); c != nullptr; c = env->GetSuperclass(c)) {
    jmethodID m = env->GetMethodID(c, body.c_str(), "()V");
    if (m == nullptr) {
      env->ExceptionClear();
      continue;
    }
    env->CallNonvirtualVoidMethod(target, c, m);
    return;  // its exception, if any, goes on to the caller
  }
  env->ThrowNew(env->FindClass("java/lang/NoSuchMethodError"), body.c_str());
}

}  // namespace

bool prepare_executions(JNIEnv* env) {
  jclass c = env->DefineClass("java/lang/JSchedMain", nullptr,
                              reinterpret_cast<const jbyte*>(jsched_main_class),
                              jsize(jsched_main_class_size));
  if (c == nullptr) return env->ExceptionDescribe(), false;
  Helper h;
  h.cls = static_cast<jclass>(env->NewGlobalRef(c));
  h.fresh_loader = env->GetStaticMethodID(c, "freshLoader", "()Ljava/lang/ClassLoader;");
  h.main_thread =
      env->GetStaticMethodID(c, "mainThread",
                             "(Ljava/lang/String;Ljava/lang/ClassLoader;[Ljava/lang/String;)"
                             "Ljava/lang/Thread;");
  h.test_thread = env->GetStaticMethodID(
      c, "testThread", "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Thread;");
  h.close = env->GetStaticMethodID(c, "close", "(Ljava/lang/ClassLoader;)V");
  if (!h.fresh_loader || !h.main_thread || !h.test_thread || !h.close)
    return env->ExceptionDescribe(), false;
  g_helper = h;
  g_first_seed = state().options.seed;
  g_first_steps = state().options.steps;
  // Every execution adds its line to the report.
  const std::string& report = state().options.report;
  if (!report.empty()) std::ofstream(report, std::ios::trunc);
  return true;
}

namespace {

// The line of the test method's frame in a finding's stack ("at demo.T.m(T.java:18)", the
// body running as jsched$test$m or as m): where the test failed; 0 if the stack has none.
int test_line(const std::string& detail, const std::string& cls, const std::string& method) {
  for (const std::string& name :
       {cls + "." + method + "(", cls + "." + std::string(rw::kTestBodyPrefix) + method + "("}) {
    size_t at = detail.find(name);
    if (at == std::string::npos) continue;
    size_t colon = detail.find(':', at + name.size()), close = detail.find(')', at);
    if (colon == std::string::npos || close == std::string::npos || colon > close) continue;
    return std::atoi(detail.c_str() + colon + 1);
  }
  return 0;
}

// Throws the AssertionError that fails a test, with its stack starting at the test method's
// frame and that frame at the line where the finding happened: test runners name that frame
// (the wrapper the agent made has no line of its own: Surefire said "m:-1").
void throw_at_test_line(JNIEnv* env, const std::string& msg, const std::string& cls,
                        const std::string& method, const std::string& detail) {
  jclass ae = env->FindClass("java/lang/AssertionError");
  jmethodID ctor = env->GetMethodID(ae, "<init>", "(Ljava/lang/Object;)V");
  jstring jmsg = env->NewStringUTF(msg.c_str());
  auto err = static_cast<jthrowable>(env->NewObject(ae, ctor, jmsg));
  if (err == nullptr) {
    env->ExceptionClear();
    env->ThrowNew(ae, msg.c_str());
    return;
  }
  const int line = test_line(detail, cls, method);
  jclass throwable = env->FindClass("java/lang/Throwable");
  jclass ste = env->FindClass("java/lang/StackTraceElement");
  jmethodID get = env->GetMethodID(throwable, "getStackTrace", "()[Ljava/lang/StackTraceElement;");
  jmethodID set = env->GetMethodID(throwable, "setStackTrace", "([Ljava/lang/StackTraceElement;)V");
  jmethodID cls_of = env->GetMethodID(ste, "getClassName", "()Ljava/lang/String;");
  jmethodID method_of = env->GetMethodID(ste, "getMethodName", "()Ljava/lang/String;");
  jmethodID file_of = env->GetMethodID(ste, "getFileName", "()Ljava/lang/String;");
  jmethodID make =
      env->GetMethodID(ste, "<init>", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;I)V");
  auto trace = static_cast<jobjectArray>(env->CallObjectMethod(err, get));
  jsize n = trace ? env->GetArrayLength(trace) : 0;
  for (jsize k = 0; k < n && line > 0; ++k) {
    jobject e = env->GetObjectArrayElement(trace, k);
    if (java_string(env, static_cast<jstring>(env->CallObjectMethod(e, cls_of))) != cls ||
        java_string(env, static_cast<jstring>(env->CallObjectMethod(e, method_of))) != method)
      continue;
    jobjectArray fixed = env->NewObjectArray(n - k, ste, nullptr);
    jobject at = env->NewObject(ste, make, env->CallObjectMethod(e, cls_of),
                                env->CallObjectMethod(e, method_of),
                                env->CallObjectMethod(e, file_of), jint(line));
    env->SetObjectArrayElement(fixed, 0, at);
    for (jsize j = k + 1; j < n; ++j)
      env->SetObjectArrayElement(fixed, j - k, env->GetObjectArrayElement(trace, j));
    env->CallVoidMethod(err, set, fixed);
    break;
  }
  env->ExceptionClear();
  env->Throw(err);
}

}  // namespace

}  // namespace jsched::agent

using namespace jsched::agent;
using jsched::RunOutcome;

extern "C" {

// The diverted main (jvmti-agent/main_diversion.h): the program's main, iterations times.
JNIEXPORT void JNICALL Java_java_lang_JSchedShim_jschedIterate(JNIEnv* env, jclass,
                                                               jobjectArray args, jclass main) {
  if (main == nullptr || g_helper.cls == nullptr) return;
  std::lock_guard<std::mutex> one_at_a_time(g_driver_mu);
  std::string name = java_class_name(env, main);
  jstring jname = env->NewStringUTF(name.c_str());
  Loop loop("");
  // Statics reset (rewriter/static_reset.h): one loader while it can, else one per execution.
  const bool reset = state().rewrite.static_reset;
  bool fresh = !reset;
  jobject shared = nullptr;  // global ref
  for (uint64_t i = 0; i < loop.count(); ++i) {
    if (!fresh && shared == nullptr) {
      jobject l = env->CallStaticObjectMethod(g_helper.cls, g_helper.fresh_loader);
      if (l != nullptr) shared = env->NewGlobalRef(l);
    }
    jobject loader = fresh ? env->CallStaticObjectMethod(g_helper.cls, g_helper.fresh_loader)
                           : (shared ? env->NewLocalRef(shared) : nullptr);
    if (reset) set_generation(env, int(i % 0x7ffffffe) + 1);
    jobject thread = loader ? env->CallStaticObjectMethod(g_helper.cls, g_helper.main_thread, jname,
                                                          loader, args)
                            : nullptr;
    if (thread == nullptr) {
      log_line("error: cannot run " + name +
               ".main from a class loader of its own: " + take_exception(env));
      _exit(2);
    }
    loop.await_threads(!fresh);
    bool go_on = loop.run(env, thread, i);
    if (fresh) {
      env->CallStaticVoidMethod(g_helper.cls, g_helper.close, loader);
      env->ExceptionClear();
    } else if (go_on && i + 1 < loop.count()) {
      std::string why = reset_blocker(env, shared);
      if (why.empty() && !loop.threads_gone())
        why = "a thread of iteration " + std::to_string(i) + " outlived it";
      if (!why.empty()) {
        log_line("note: " + why +
                 ": the next iterations load the program's classes afresh "
                 "(as with statics=reload)");
        env->CallStaticVoidMethod(g_helper.cls, g_helper.close, loader);
        env->ExceptionClear();
        env->DeleteGlobalRef(shared);
        shared = nullptr;
        fresh = true;
      }
    }
    env->DeleteLocalRef(thread);
    env->DeleteLocalRef(loader);
    if (!go_on) break;
  }
  log_line(loop.summary());
  flush_java_streams(env);
  std::fflush(stdout);
  _exit(loop.first() ? int(*loop.first()) : 0);
}

// A wrapped test method (rewriter/junit_method_wrapping.h): its body, iterations times; a finding
// fails the test with the seed that reproduces it.
JNIEXPORT void JNICALL Java_java_lang_JSchedShim_jschedRunTest(JNIEnv* env, jclass, jobject target,
                                                               jstring method) {
  if (target == nullptr || method == nullptr || g_helper.cls == nullptr) return;
  std::string body = java_string(env, method);
  if (Runtime::current()) {
    // A test method called from inside an execution (a test calling another): its body runs
    // there, as part of that execution.
    run_inline(env, target, body);
    return;
  }
  std::lock_guard<std::mutex> one_at_a_time(g_driver_mu);
  std::string test_class = java_class_name(env, env->GetObjectClass(target));
  std::string test_method = body.substr(std::min(body.size(), jsched::rw::kTestBodyPrefix.size()));
  std::string test = test_class + "." + test_method;
  Loop loop(test + ": ");
  for (uint64_t i = 0; i < loop.count(); ++i) {
    jobject thread =
        env->CallStaticObjectMethod(g_helper.cls, g_helper.test_thread, target, method);
    if (thread == nullptr) return;  // its exception fails the test
    bool go_on = loop.run(env, thread, i);
    env->DeleteLocalRef(thread);
    if (!go_on) break;
  }
  log_line(loop.summary());
  if (!loop.first()) return;
  const bool error = *loop.first() == RunOutcome::Error;
  std::string msg =
      std::string(error ? "jsched could not run this test faithfully (an error of "
                          "jsched's, not a bug of the test)"
                        : std::string("jsched found a ") + outcome_name(*loop.first())) +
      " in iteration " + std::to_string(loop.first_iteration()) + " (strategy " +
      strategy_name(state().options) + ", seed " + std::to_string(loop.first_seed()) +
      "): " + loop.first_detail() +
      "\nreplay: run this test alone (e.g. mvn test -Dtest=" + test_class + "#" + test_method +
      ") with " + loop.first_replay();
  if (state().options.minimize && state().options.strategy != Strategy::Follow &&
      worth_minimizing(*loop.first())) {
    TestFinding f{test, loop.first_seed(), loop.first_steps(), *loop.first(), loop.first_detail()};
    auto run_body = [&](std::unique_ptr<jsched::sched::Strategy> strategy) {
      jobject thread =
          env->CallStaticObjectMethod(g_helper.cls, g_helper.test_thread, target, method);
      if (thread == nullptr) {
        env->ExceptionClear();
        return std::make_pair(RunOutcome::Ok, std::string());
      }
      RunOutcome o = RunOutcome::Ok;
      Runtime* rt = run_execution(env, thread, loop.first_iteration(), std::move(strategy), o);
      std::string detail = rt->detail();
      retire(rt);
      env->DeleteLocalRef(thread);
      return std::make_pair(o, detail);
    };
    MinimalTestSchedule m = minimize_test_finding(f, run_body);
    std::string line =
        m.error.empty()
            ? "minimal schedule: " + std::to_string(m.before) + " -> " + std::to_string(m.after) +
                  " pre-emptions (" + std::to_string(m.executions) +
                  " executions); run this test alone with " + agent_argument("follow=" + m.file)
            : "minimal schedule: none (" + m.error + ")";
    log_line(test + ": " + line);
    msg += "\n" + line;
  }
  throw_at_test_line(env, msg, test_class, test_method, loop.first_detail());
}

}  // extern "C"
