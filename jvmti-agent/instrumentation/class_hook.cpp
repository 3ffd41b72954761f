#include "jvmti-agent/instrumentation/class_hook.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>

#include "classfile/class_file.h"
#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/instrumentation/jdk_concurrency.h"
#include "jvmti-agent/instrumentation/main_diversion.h"
#include "jvmti-agent/instrumentation/shim_setup.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/model/class_loading_locks.h"
#include "rewriter/class_rewriter.h"
#include "rewriter/junit_timeout.h"
#include "rewriter/test_runner_entry.h"

namespace jsched::agent {

bool is_jdk_loader(JNIEnv* env, jobject loader) {
  if (loader == nullptr) return true;
  jobject platform = state().platform_loader;
  return platform != nullptr && env != nullptr && env->IsSameObject(loader, platform);
}

namespace {

void hand_back(jvmtiEnv* jvmti, cf::Bytes bytes, jint* new_len, unsigned char** new_data) {
  unsigned char* mem = nullptr;
  if (jvmti->Allocate(jlong(bytes.size()), &mem) != JVMTI_ERROR_NONE) return;
  std::memcpy(mem, bytes.data(), bytes.size());
  *new_len = jint(bytes.size());
  *new_data = mem;
}

// How to rewrite a class being loaded, or nothing. Application classes (and those of
// include=) get the run's configuration; JDK concurrency classes theirs (jdk_concurrency.h).
std::optional<rw::RewriteConfig> rules_for(const AgentState& s, std::string_view cls,
                                           bool jdk_class) {
  std::optional<rw::RewriteConfig> concurrency;
  if (s.controlled && jdk_class) concurrency = jdk_concurrency_config(cls, s.rewrite);
  if (concurrency) concurrency->static_reset = false;
  if (s.controlled && jdk_class && s.jdk_mode) {
    if (auto loader = class_loading_lock_config(cls, s.rewrite)) return loader;
  }
  if (!s.filter.instrument(cls, jdk_class)) return concurrency;
  if (!jdk_class) return s.rewrite;
  // JDK classes brought in by include=: their own calls to j.u.c. stay plain (class loading
  // runs through them while holding loader locks; each point there can strand others).
  rw::RewriteConfig c = s.rewrite;
  c.static_reset = false;
  c.sync_calls = false;
  c.stable_hashes = false;  // the JDK's own classes keep their hashCode
  c.virtual_clock = concurrency.has_value();
  return c;
}

// The main class as the launcher loads it, when main runs iterations (main_diversion.h).
void divert(jvmtiEnv* jvmti, cf::Bytes input, jint* new_len, unsigned char** new_data) {
  try {
    hand_back(jvmti, divert_main(input), new_len, new_data);
  } catch (const std::exception& e) {
    log_line(std::string("error: iterations: cannot run the main class: ") + e.what());
    _exit(2);
  }
}

// Fault injection for jsched's own tests (tests/integration/class_files_test.cpp):
// JSCHED_TEST_FAULT=break:CLASS gives the rewritten methods of CLASS max_stack 0, so that the
// JVM refuses the class jsched produced; unreadable:CLASS makes CLASS one jsched cannot read.
// Both runs must end as jsched's error, never as the program's bug.
bool test_fault(std::string_view kind, std::string_view dotted) {
  static const char* fault = std::getenv("JSCHED_TEST_FAULT");
  if (fault == nullptr) return false;
  std::string_view f(fault);
  return f.substr(0, kind.size()) == kind && f.size() > kind.size() && f[kind.size()] == ':' &&
         f.substr(kind.size() + 1) == dotted;
}

void break_for_test(std::string_view dotted, cf::Buffer& bytes) {
  if (!test_fault("break", dotted)) return;
  cf::ClassFile c = cf::ClassFile::parse(bytes);
  for (cf::Member& m : c.methods) {
    if (m.code_attr >= 0) c.decode_code(m).max_stack = 0;
  }
  bytes = c.write();
}

uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

}  // namespace

void JNICALL on_class_file_load(jvmtiEnv* jvmti, JNIEnv* env, jclass class_being_redefined,
                                jobject loader, const char* name, jobject, jint len,
                                const unsigned char* data, jint* new_len,
                                unsigned char** new_data) {
  AgentState& s = state();
  if (name == nullptr) return;
  std::string_view cls(name);
  cf::Bytes input(data, size_t(len));
  if (class_being_redefined != nullptr) {
    // The retransformations jsched asks for: Thread, to report uncaught throwables, and
    // LockSupport (loaded long before), so that parks go to the scheduler.
    if (!s.jdk_mode && s.controlled && cls == "java/lang/Thread") {
      try {
        hand_back(jvmti, add_uncaught_hook(input), new_len, new_data);
      } catch (const std::exception& e) {
        log_line(std::string("warning: uncaught exceptions will not be reported: ") + e.what());
      }
    }
    if (!s.jdk_mode && s.controlled && (cls == kLockSupport || is_environment_class(cls))) {
      rw::RewriteResult r =
          rw::rewrite_class(input, *jdk_concurrency_config(cls, s.rewrite), s.sites);
      if (r.status == rw::RewriteResult::Changed) {
        hand_back(jvmti, r.bytes, new_len, new_data);
      } else if (r.status == rw::RewriteResult::Failed || r.status == rw::RewriteResult::Refused) {
        log_line("warning: " + std::string(cls) + " not instrumented (" + r.error +
                 "): it works outside jsched's view");
      }
    }
    return;
  }
  const bool thread_host = s.jdk_mode && cls == "java/lang/Thread";
  const bool jdk_class = is_jdk_loader(env, loader);
  const bool launcher_main = !jdk_class && cls == s.main_class && s.system_loader &&
                             env->IsSameObject(loader, s.system_loader);
  if (launcher_main && !s.rewrite.static_reset) {  // statics=reload: every execution loads it
    divert(jvmti, input, new_len, new_data);
    return;
  }
  if (s.cache && !launcher_main) {
    if (const cf::Buffer* done = s.cache->find(cls, input)) {
      if (!done->empty()) hand_back(jvmti, *done, new_len, new_data);
      return;
    }
  }
  if (s.tests && s.hooks_ready && !jdk_class && rw::is_test_runner_entry(cls)) {
    // Where JUnit runs one test (rewriter/test_runner_entry.h). A JUnit jsched cannot divert
    // would run every test uncontrolled and pass it: better no run at all.
    try {
      hand_back(jvmti, rw::divert_test_runner_entry(input), new_len, new_data);
    } catch (const std::exception& e) {
      log_line(std::string("error: cannot run tests as executions: ") + e.what());
      _exit(2);
    }
    return;
  }
  cf::Buffer diverted;  // rewritten before its instrumentation
  if (s.tests && s.hooks_ready && !jdk_class && cls == rw::kJupiterSameThreadTimeout) {
    try {
      diverted = rw::divert_jupiter_timeout(input);
      input = cf::Bytes(diverted);
    } catch (const std::exception& e) {
      log_line(std::string("warning: JUnit 5's @Timeout will wait in real time: ") + e.what());
    }
  }
  std::optional<rw::RewriteConfig> rules = rules_for(s, cls, jdk_class);
  cf::Buffer output;
  if (s.hooks_ready && rules) {
    // Reading field declarations runs Java code: for a controlled thread it must run plain
    // (no scheduling point while this thread holds the class-loading lock).
    std::optional<InRuntime> inside;
    if (ThreadCtx* c = Runtime::current()) inside.emplace(*c);
    FieldFilter::Scope scope(s.live ? env : nullptr, loader, cls, input);
    const uint64_t cpu_before = thread_cpu_ns();
    rw::RewriteResult r = rw::rewrite_class(input, *rules, s.sites);
    s.rewrite_cpu_ns += thread_cpu_ns() - cpu_before;
    std::string dotted(cls);
    for (char& c : dotted) c = c == '/' ? '.' : c;
    if (test_fault("unreadable", dotted)) {
      r = rw::RewriteResult{};
      r.status = rw::RewriteResult::Failed;
      r.error = "unreadable for a test (JSCHED_TEST_FAULT)";
    }
    for (const std::string& w : r.warnings) {
      ++s.warnings;
      log_line("warning: " + dotted + ": " + w);
    }
    if (r.status == rw::RewriteResult::Failed) {
      // Nothing of it is under control: the run cannot be trusted (Runtime::finish).
      ++s.classes_failed;
      ++s.warnings;
      s.classes.unreadable(dotted, r.error);
      log_line(std::string(s.options.unsupported_warns ? "warning" : "error") + ": class " +
               dotted + " cannot be instrumented: " + r.error +
               (s.options.unsupported_warns
                    ? " (on-unsupported=warn: it runs uncontrolled)"
                    : " (the run's verdict is an error; on-unsupported=warn "
                      "lets it run uncontrolled)"));
    } else if (r.status == rw::RewriteResult::Refused) {
      ++s.classes_failed;
      ++s.warnings;
      s.classes.refused(dotted, r.error);
      log_line("warning: class " + dotted + " left as it was: its rewritten form breaks a rule " +
               "of the JVM's (" + r.error + "); its scheduling points are lost");
    } else if (r.status == rw::RewriteResult::Changed) {
      ++s.classes_rewritten;
      s.classes.changed(dotted);
      output = std::move(r.bytes);
      break_for_test(dotted, output);
    }
    // Every method of an application class under the run's rules: its objects' shared fields
    // are points where they are touched.
    if (!jdk_class && r.warnings.empty() &&
        (r.status == rw::RewriteResult::Changed || r.status == rw::RewriteResult::Unchanged))
      s.instrumented.add(cls, r.super_name);
    if (launcher_main) {
      // The executions share the launcher's copy when its statics can start clean in each;
      // else each loads its own (main_diversion.h).
      try {
        if (r.status == rw::RewriteResult::Changed && r.not_resettable.empty()) {
          hand_back(jvmti, divert_shared_main(output), new_len, new_data);
          s.shared_main = true;
        } else {
          hand_back(jvmti, divert_main(input), new_len, new_data);
        }
      } catch (const std::exception& e) {
        log_line(std::string("error: iterations: cannot run the main class: ") + e.what());
        _exit(2);
      }
      return;
    }
    if (!r.not_resettable.empty())
      refuse_reset("class " + dotted + ": " + r.not_resettable);
    else if (rules->static_reset &&
             (r.status == rw::RewriteResult::Failed || r.status == rw::RewriteResult::Refused))
      refuse_reset("class " + dotted + " was not rewritten");
  }
  if (thread_host) {
    // The hooks are added after instrumenting Thread's own code, so they stay plain.
    try {
      output = add_hooks_to_thread(output.empty() ? input : cf::Bytes(output), s.controlled);
    } catch (const std::exception& e) {
      log_line(std::string("error: cannot add hooks to java.lang.Thread: ") + e.what());
      _exit(2);
    }
  }
  if (cls == "java/lang/Shutdown" && s.controlled && jdk_class) {
    try {
      output = add_exit_hook(output.empty() ? input : cf::Bytes(output), s.rewrite.hook_owner);
    } catch (const std::exception& e) {
      log_line(std::string("warning: System.exit and signals will not be reported: ") + e.what());
    }
  }
  if (output.empty() && !diverted.empty()) output = std::move(diverted);
  if (s.cache && s.hooks_ready) s.cache->put(cls, cf::Bytes(data, size_t(len)), output);
  if (!output.empty()) hand_back(jvmti, output, new_len, new_data);
}

}  // namespace jsched::agent
