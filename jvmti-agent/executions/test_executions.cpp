// The test methods under a test runner as executions (docs/agent.md, "Tests"): JUnit runs one
// test with its whole lifecycle where rewriter/test_runner_entry.h diverted it, and the driver
// here runs that lifecycle once per execution on a controlled thread 0 (a new test instance,
// set-up, the method, tear-down), stops at a finding, narrows it to its fewest pre-emptions and
// fails the test with the seed that reproduces it.
#include <jni.h>

#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/execution_loop.h"
#include "jvmti-agent/executions/plain_uncaught.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/executions/test_minimizer.h"
#include "jvmti-agent/executions/test_timeouts.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/java_text.h"
#include "jvmti-agent/jvm_refs.h"

namespace jsched::agent {

namespace {

// How long the check of a plain run's uncaught exceptions waits for the one it looks for.
constexpr int kPlainUncaughtWaitMs = 2000;

// The test, as failures name it.
struct TestName {
  std::string cls, method;
  std::string full() const { return cls + "." + method; }
};

// The file and line of the test method's frame in a finding's stack ("at demo.T.m(T.java:18)"):
// where the test failed; line 0 if the stack has none.
std::pair<std::string, int> test_frame(const std::string& detail, const TestName& t) {
  const std::string name = t.full() + "(";
  size_t at = detail.find(name);
  if (at == std::string::npos) return {"", 0};
  size_t open = at + name.size(), colon = detail.find(':', open), close = detail.find(')', at);
  if (colon == std::string::npos || close == std::string::npos || colon > close) return {"", 0};
  return {detail.substr(open, colon - open), std::atoi(detail.c_str() + colon + 1)};
}

// Throws the AssertionError that fails a test, with a first frame at the test method's line
// where the finding happened: test runners name the test by that frame (the driver's own
// stack has no frame of the test).
void throw_at_test_line(JNIEnv* env, const std::string& msg, const TestName& t,
                        const std::string& detail) {
  jclass ae = env->FindClass("java/lang/AssertionError");
  jmethodID ctor = env->GetMethodID(ae, "<init>", "(Ljava/lang/Object;)V");
  auto err = static_cast<jthrowable>(env->NewObject(ae, ctor, env->NewStringUTF(msg.c_str())));
  if (err == nullptr) {
    env->ExceptionClear();
    env->ThrowNew(ae, msg.c_str());
    return;
  }
  auto [file, line] = test_frame(detail, t);
  jclass throwable = env->FindClass("java/lang/Throwable");
  jclass ste = env->FindClass("java/lang/StackTraceElement");
  jmethodID get = env->GetMethodID(throwable, "getStackTrace", "()[Ljava/lang/StackTraceElement;");
  jmethodID set = env->GetMethodID(throwable, "setStackTrace", "([Ljava/lang/StackTraceElement;)V");
  jmethodID make =
      env->GetMethodID(ste, "<init>", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;I)V");
  auto trace = static_cast<jobjectArray>(env->CallObjectMethod(err, get));
  const jsize n = trace ? env->GetArrayLength(trace) : 0;
  jobjectArray fixed = env->NewObjectArray(n + 1, ste, nullptr);
  jobject first = env->NewObject(
      ste, make, env->NewStringUTF(t.cls.c_str()), env->NewStringUTF(t.method.c_str()),
      file.empty() ? nullptr : env->NewStringUTF(file.c_str()), jint(line > 0 ? line : -1));
  if (fixed != nullptr && first != nullptr) {
    env->SetObjectArrayElement(fixed, 0, first);
    for (jsize j = 0; j < n; ++j)
      env->SetObjectArrayElement(fixed, j + 1, env->GetObjectArrayElement(trace, j));
    env->CallVoidMethod(err, set, fixed);
  }
  env->ExceptionClear();
  env->Throw(err);
}

// Statics reset in tests (rewriter/static_reset.h): each execution is a generation of its own,
// and the code between executions (JUnit's, @BeforeAll, @AfterAll) runs at generation 0, where
// nothing starts over and what it initializes is kept
// (jvmti-agent/instrumentation/static_reset.cpp).
class Generation {
 public:
  explicit Generation(JNIEnv* env) : env_(env) {
    static int next = 0;
    if (!state().rewrite.static_reset) return;
    // A class whose statics cannot start clean (an interface with an initializer): tests cannot
    // load classes afresh, so from then on no class starts over (partly reset state would
    // mix executions).
    if (std::string why = reset_refusal(); !why.empty()) {
      static bool said = false;
      if (!std::exchange(said, true))
        log_line("note: from here on, statics carry over between test executions: " + why);
      return;
    }
    next = next % 0x7ffffffe + 1;
    set_generation(env_, next);
  }
  ~Generation() {
    if (state().rewrite.static_reset) set_generation(env_, 0);
  }
  Generation(const Generation&) = delete;
  Generation& operator=(const Generation&) = delete;

 private:
  JNIEnv* env_;
};

// Throws what tells the test runner a test was skipped (an assumption that did not hold):
// JUnit 5's TestAbortedException, else JUnit 4's AssumptionViolatedException.
void abort_test(JNIEnv* env, const std::string& why) {
  log_line(why);
  for (const char* cls :
       {"org/opentest4j/TestAbortedException", "org/junit/AssumptionViolatedException"}) {
    jclass c = nullptr;
    // The test runner's classes: through the thread's context loader (Surefire's).
    jclass thread = env->FindClass("java/lang/Thread");
    jobject self = env->CallStaticObjectMethod(
        thread, env->GetStaticMethodID(thread, "currentThread", "()Ljava/lang/Thread;"));
    jobject loader = env->CallObjectMethod(
        self, env->GetMethodID(thread, "getContextClassLoader", "()Ljava/lang/ClassLoader;"));
    jclass cl = env->FindClass("java/lang/Class");
    jmethodID for_name = env->GetStaticMethodID(
        cl, "forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
    std::string dotted(cls);
    for (char& ch : dotted) ch = ch == '/' ? '.' : ch;
    c = static_cast<jclass>(env->CallStaticObjectMethod(
        cl, for_name, env->NewStringUTF(dotted.c_str()), false, loader));
    if (env->ExceptionCheck() || c == nullptr) {
      env->ExceptionClear();
      continue;
    }
    env->ThrowNew(c, why.c_str());
    return;
  }
  env->ThrowNew(env->FindClass("java/lang/AssertionError"), why.c_str());
}

// Makes the runnable (a java.lang.JSchedMain) of one execution of the test.
using MakeExecution = std::function<jobject(JNIEnv*)>;

jobject thread_of(JNIEnv* env, jobject runnable) {
  return runnable ? env->CallObjectMethod(runnable, driver_helper().thread) : nullptr;
}

std::string call_string(JNIEnv* env, jobject o, const char* method) {
  jclass c = env->GetObjectClass(o);
  jmethodID m = env->GetMethodID(c, method, "()Ljava/lang/String;");
  std::string s = m ? java_string(env, static_cast<jstring>(env->CallObjectMethod(o, m))) : "";
  env->ExceptionClear();
  return s;
}

// What the test throws when run once without jsched (its toString), or "" when it passes
// (or is skipped, or does not end within the hang window).
std::string plain_failure(JNIEnv* env, const MakeExecution& make) {
  Generation statics(env);
  jobject runnable = make(env);
  if (runnable == nullptr) {
    env->ExceptionClear();
    return "";
  }
  jobject thrown = env->CallObjectMethod(runnable, driver_helper().run_plainly,
                                         jlong(state().options.timeout_ms));
  env->DeleteLocalRef(runnable);
  if (env->ExceptionCheck() || thrown == nullptr) {
    env->ExceptionClear();
    return "";
  }
  std::string text = call_string(env, thrown, "toString");
  env->DeleteLocalRef(thrown);
  return text.empty() ? "an exception" : text;
}

// The test's executions, one per seed, with the verdict thrown into JUnit: a finding fails the
// test, an abort (an assumption that did not hold) skips it, an error of jsched's fails it as
// jsched's. `limit`: at most that many executions (a test factory's tests run once).
void run_test(JNIEnv* env, const TestName& t, const MakeExecution& make, uint64_t limit) {
  std::lock_guard<std::mutex> one_at_a_time(driver_mutex());
  ++state().tests_run;
  ExecutionLoop loop(t.full() + ": ");
  loop.limit(limit);
  // Threads an execution leaves behind run on to their next park, where they wait as carried
  // threads (carried_threads.h), or to their end: the next execution starts once they are there,
  // or they would take its tasks from a shared executor's queue uncontrolled.
  loop.await_threads(true);
  plain_uncaught().clear_allowed();
  // The test runs once plainly for a bug finding (at most once: the checks below share it).
  std::optional<std::string> plain;
  auto plain_run = [&]() -> const std::string& {
    if (!plain) {
      plain_uncaught().record(true);
      plain = plain_failure(env, make);
      plain_uncaught().record(false);
    }
    return *plain;
  };
  auto bug = [&] {
    return loop.first() == RunOutcome::Bug && state().options.strategy != Strategy::Follow;
  };
  jthrowable aborted = nullptr;
  for (uint64_t i = 0; i < loop.count(); ++i) {
    bool go_on = false;
    {
      Generation statics(env);
      jobject runnable = make(env);
      jobject thread = thread_of(env, runnable);
      if (thread == nullptr) return;  // its exception fails the test
      go_on = loop.run(env, thread, i);
      aborted = static_cast<jthrowable>(env->CallObjectMethod(runnable, driver_helper().aborted));
      env->DeleteLocalRef(thread);
      env->DeleteLocalRef(runnable);
    }
    if (aborted != nullptr) break;
    if (!go_on && bug() && !loop.first_uncaught().empty() && plain_run().empty() &&
        plain_uncaught().threw(loop.first_uncaught(), kPlainUncaughtWaitMs)) {
      log_line(t.full() + ": the uncaught " + loop.first_uncaught() + " of execution " +
               std::to_string(i) +
               " is thrown in a plain run too, where the test passes: the test's own doing, "
               "not a finding");
      plain_uncaught().allow(loop.first_uncaught());
      loop.forget_first();
      continue;
    }
    if (!go_on) break;
  }
  log_line(loop.summary());
  if (aborted != nullptr && !loop.first()) {
    env->Throw(aborted);
    return;
  }
  if (!loop.first()) return;
  if (*loop.first() == RunOutcome::Timeout) {
    // Slow under jsched, not hung and not failed: the test is not verified, and says so as a
    // skipped test (an abort), not as a pass or a failure.
    abort_test(env, "jsched: the test's execution " + std::to_string(loop.first_iteration()) +
                        " (seed " + std::to_string(loop.first_seed()) + ") did not end within " +
                        std::to_string(state().options.budget()) + " ms, still making steps (" +
                        loop.first_detail() + "): not verified; budget= gives it more time");
    return;
  }
  // The first finding's execution again, under another strategy (its replay, a candidate
  // schedule): its outcome and detail.
  auto run_body = [&](std::unique_ptr<sched::Strategy> strategy) {
    Generation statics(env);
    jobject runnable = make(env);
    jobject thread = thread_of(env, runnable);
    env->DeleteLocalRef(runnable);
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
  // Whether the first finding's execution, its seed again, still fails when steps take
  // kFastStepNs, about what they take in a warm JVM: a failure that followed a timeout only the
  // steps reached, and that cheaper steps make go away, came from jsched's clock.
  auto fails_with_fast_steps = [&] {
    AgentState& s = state();
    const uint64_t seed = s.options.seed, steps = s.options.steps;
    const int64_t step_time = s.step_time_ns;
    s.options.seed = loop.first_seed();
    s.options.steps = loop.first_steps();
    s.step_time_ns = kFastStepNs;
    const RunOutcome o = run_body(s.new_strategy()).first;
    s.step_time_ns = step_time;
    s.options.seed = seed;
    s.options.steps = steps;
    // Out of its budget, or an error of jsched's: the failure did not come again either.
    return o == RunOutcome::Bug || o == RunOutcome::Deadlock || o == RunOutcome::Hang ||
           o == RunOutcome::Livelock;
  };
  if (bug() && timed_out_by_steps(loop.first_detail(), loop.first_made()) && plain_run().empty()) {
    abort_test(env, "jsched: the test's own timeout expired in execution " +
                        std::to_string(loop.first_iteration()) + " (seed " +
                        std::to_string(loop.first_seed()) + ") on jsched's virtual clock, after " +
                        std::to_string(loop.first_made()) +
                        " scheduling steps that count 1 us each, and not in a plain run: slow "
                        "under jsched, not verified (" +
                        loop.first_detail().substr(0, loop.first_detail().find('\n')) + ")");
    return;
  }
  // The same for a timed operation of the program's (a timed join, a barrier's await) whose
  // time its steps passed, or a sleep of the failed thread's while others stepped (a test that
  // measures its workers' progress every 50 ms): the same seed again with cheaper steps tells
  // whether the failure came from jsched's clock.
  const int64_t timeout = loop.first_step_timeout_ns(), slept = loop.first_step_sleep_ns();
  if (bug() && (timeout > 0 || slept > 0) && plain_run().empty() && !fails_with_fast_steps()) {
    // A sleep(0, 500000) is no "sleep of 0 ms".
    auto span = [](int64_t ns) {
      return ns >= 1000000 ? std::to_string(ns / 1000000) + " ms"
                           : std::to_string(ns / 1000) + " us";
    };
    const std::string what =
        timeout > 0 ? "a timed operation of " + span(timeout) +
                          " timed out on jsched's virtual clock, its time passed by the "
                          "program's own scheduling steps (1 us each)"
                    : "a sleep of " + span(slept) +
                          " ended on jsched's virtual clock, its time passed by the other "
                          "threads' scheduling steps (1 us each)";
    abort_test(env, "jsched: in execution " + std::to_string(loop.first_iteration()) + " (seed " +
                        std::to_string(loop.first_seed()) + ") " + what + "; with steps of " +
                        std::to_string(kFastStepNs) +
                        " ns the same seed passes, and so does a plain run: slow under jsched, "
                        "not verified (" +
                        loop.first_detail().substr(0, loop.first_detail().find('\n')) + ")");
    return;
  }
  const bool error = *loop.first() == RunOutcome::Error;
  std::string msg =
      std::string(error ? "jsched could not run this test faithfully (an error of "
                          "jsched's, not a bug of the test)"
                        : std::string("jsched found a ") + outcome_name(*loop.first())) +
      " in iteration " + std::to_string(loop.first_iteration()) + " (strategy " +
      strategy_name(state().options) + ", seed " + std::to_string(loop.first_seed()) +
      "): " + loop.first_detail();
  const std::string replay = "\nreplay: run this test alone (e.g. mvn test -Dtest=" + t.cls + "#" +
                             t.method + ") with " + loop.first_replay();
  msg += replay;
  std::string minimal;  // the minimal schedule's line, or "" when not minimized
  std::optional<size_t> preemptions;
  if (state().options.minimize && state().options.strategy != Strategy::Follow &&
      worth_minimizing(*loop.first())) {
    TestFinding f{t.full(), loop.first_seed(), loop.first_steps(), *loop.first(),
                  loop.first_detail()};
    MinimalTestSchedule m = minimize_test_finding(f, run_body);
    if (m.error.empty()) preemptions = m.after;
    minimal = m.error.empty()
                  ? "minimal schedule: " + std::to_string(m.before) + " -> " +
                        std::to_string(m.after) + " pre-emptions (" + std::to_string(m.executions) +
                        " executions" + (m.cut ? ", cut short by the search's budget" : "") +
                        "); run this test alone with " + agent_argument("follow=" + m.file)
                  : "minimal schedule: none (" + m.error + ")";
    log_line(t.full() + ": " + minimal);
  }
  // A failed assertion may be the test's own: if the test fails without jsched too, that is what
  // the user is told, whatever schedule jsched found (a minimization cut short by its budget
  // can stop above 0 pre-emptions on a test that always fails).
  if (bug() && !plain_run().empty()) {
    const std::string run = "iteration " + std::to_string(loop.first_iteration()) + " (seed " +
                            std::to_string(loop.first_seed()) + ")";
    msg = "this test fails without jsched too (run once uncontrolled: " + *plain + "): " +
          (preemptions == 0u
               ? "its own failure, not a concurrency bug; under jsched, " + run +
                     " failed with no pre-emption: "
               : "its own failure or a bug that shows without jsched as well, not one jsched "
                 "needed to find; under jsched, " +
                     run + " failed: ") +
          loop.first_detail() +
          // A race that also shows on a plain JVM still wants jsched's schedule: it fails there
          // only now and then, and here every time.
          (preemptions == 0u ? "" : replay + (minimal.empty() ? "" : "\n" + minimal));
    log_line(t.full() + ": fails without jsched too: " + *plain);
    throw_at_test_line(env, msg, t, loop.first_detail());
    return;
  }
  if (!minimal.empty()) msg += "\n" + minimal;
  throw_at_test_line(env, msg, t, loop.first_detail());
}

// Whether the test JVM runs tests as executions, and this call is not already inside one (a
// test that runs another test's code, say): else the test runs as JUnit would run it.
bool drives_tests() {
  return state().tests && driver_helper().cls != nullptr && Runtime::current() == nullptr;
}

}  // namespace

}  // namespace jsched::agent

using namespace jsched::agent;

extern "C" {

// JUnit 4's ParentRunner.runLeaf: `statement.evaluate()`, once per execution.
JNIEXPORT void JNICALL Java_java_lang_JSchedShim_jschedRunJunit4(JNIEnv* env, jclass,
                                                                 jobject statement,
                                                                 jobject description) {
  if (statement == nullptr) return;
  if (!drives_tests()) {
    jmethodID evaluate = env->GetMethodID(env->GetObjectClass(statement), "evaluate", "()V");
    if (evaluate != nullptr) env->CallVoidMethod(statement, evaluate);
    return;  // its exception, if any, goes on to runLeaf
  }
  TestName t{call_string(env, description, "getClassName"),
             call_string(env, description, "getMethodName")};
  run_test(
      env, t,
      [&](JNIEnv* e) {
        return e->CallStaticObjectMethod(driver_helper().cls, driver_helper().junit4, statement);
      },
      UINT64_MAX);
}

// JUnit 3's TestCase.runBare: set-up, the test and tear-down on a fresh instance, once per
// execution.
JNIEXPORT void JNICALL Java_java_lang_JSchedShim_jschedRunJunit3(JNIEnv* env, jclass,
                                                                 jobject test) {
  if (test == nullptr) return;
  if (!drives_tests()) {
    jmethodID bare = env->GetMethodID(env->GetObjectClass(test), "jsched$runBare", "()V");
    if (bare != nullptr) env->CallVoidMethod(test, bare);
    return;  // its exception, if any, goes on to JUnit
  }
  TestName t{java_class_name(env, env->GetObjectClass(test)), call_string(env, test, "getName")};
  run_test(
      env, t,
      [&](JNIEnv* e) {
        return e->CallStaticObjectMethod(driver_helper().cls, driver_helper().junit3, test);
      },
      UINT64_MAX);
}

// JUnit 5's TestMethodTestDescriptor.execute: prepare, execute and cleanUp once per execution.
JNIEXPORT jobject JNICALL Java_java_lang_JSchedShim_jschedRunJupiter(JNIEnv* env, jclass,
                                                                     jobject descriptor,
                                                                     jobject context,
                                                                     jobject dynamic_tests,
                                                                     jobject parent) {
  if (descriptor == nullptr) return context;
  const std::string kind = java_class_name(env, env->GetObjectClass(descriptor));
  if (!drives_tests() || parent == nullptr) {
    jclass c = env->GetObjectClass(descriptor);
    jmethodID plain = env->GetMethodID(
        c, "jsched$execute",
        "(Lorg/junit/jupiter/engine/execution/JupiterEngineExecutionContext;"
        "Lorg/junit/platform/engine/support/hierarchical/Node$DynamicTestExecutor;)"
        "Lorg/junit/jupiter/engine/execution/JupiterEngineExecutionContext;");
    return plain ? env->CallObjectMethod(descriptor, plain, context, dynamic_tests) : nullptr;
  }
  // The test's class and method (MethodBasedTestDescriptor), and which invocation of a
  // parameterized or repeated test this is.
  jobject cls = nullptr, method = nullptr;
  if (jmethodID m =
          env->GetMethodID(env->GetObjectClass(descriptor), "getTestClass", "()Ljava/lang/Class;"))
    cls = env->CallObjectMethod(descriptor, m);
  if (jmethodID m = env->GetMethodID(env->GetObjectClass(descriptor), "getTestMethod",
                                     "()Ljava/lang/reflect/Method;"))
    method = env->CallObjectMethod(descriptor, m);
  env->ExceptionClear();
  TestName t{cls ? java_class_name(env, static_cast<jclass>(cls)) : kind,
             method ? call_string(env, method, "getName") : "?"};
  // A test factory's dynamic tests report to JUnit as they run: once, not once per execution.
  const bool factory = kind == "org.junit.jupiter.engine.descriptor.TestFactoryTestDescriptor";
  run_test(
      env, t,
      [&](JNIEnv* e) {
        return e->CallStaticObjectMethod(driver_helper().cls, driver_helper().jupiter, descriptor,
                                         parent, dynamic_tests);
      },
      factory ? 1 : UINT64_MAX);
  return context;
}

}  // extern "C"
