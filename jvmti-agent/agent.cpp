// Agent_OnLoad and the VM lifecycle events.
#include <fcntl.h>
#include <jni.h>
#include <jvmti.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <random>
#include <stdexcept>
#include <utility>

#include "classfile/class_file.h"
#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/executions.h"
#include "jvmti-agent/executions/one_core.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/hooks/observer.h"
#include "jvmti-agent/hooks/output_oracle.h"
#include "jvmti-agent/hooks/thread_events.h"
#include "jvmti-agent/instrumentation/class_hashes.h"
#include "jvmti-agent/instrumentation/class_hook.h"
#include "jvmti-agent/instrumentation/jdk_concurrency.h"
#include "jvmti-agent/instrumentation/main_diversion.h"
#include "jvmti-agent/instrumentation/shim_setup.h"
#include "jvmti-agent/instrumentation/static_reset.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/model/thread_starts.h"
#include "jvmti-agent/model/virtual_threads.h"
#include "rewriter/junit_timeout.h"
#include "scheduler/hapset/hapset_plan.h"
#include "scheduler/hapset/hapset_strategy.h"
#include "scheduler/pct/pct_strategy.h"
#include "scheduler/replay/follow_strategy.h"
#include "scheduler/replay/schedule_log.h"
#include "scheduler/strategy_registry.h"

namespace jsched::agent {

namespace {

[[noreturn]] void fatal(const std::string& msg) {
  log_line("error: " + msg);
  _exit(2);
}

void check(jvmtiError e, const char* what) {
  if (e != JVMTI_ERROR_NONE)
    fatal(std::string(what) + " failed (JVMTI error " + std::to_string(e) + ")");
}

// The replay log must outlive the strategy that reads it; the recorded run's options decide
// what a replay instruments.
sched::ScheduleLog g_replay_log;
Options g_recorded;

// A code location as TSCA names block ends: stable across runs, no spaces.
std::string site_location(int32_t site) {
  const Site* s = state().sites.get(site);
  if (!s) return "?";
  return *s->cls + "." + *s->method + *s->method_desc + "@" + std::to_string(s->bci);
}

// The TSCA plan, checked whole (its coverage must fit its blocks) before the run starts: its
// schedule, and what it knows and covers for the report's coverage.
void load_tsca_plan(AgentState& s, const std::string& path, uint32_t t) {
  try {
    sched::TscaPlan p = sched::TscaPlan::read(path);
    if (p.t != t) {
      fatal("plan: " + path + " is for t=" + std::to_string(p.t) +
            ", the run has t=" + std::to_string(t));
    }
    s.tsca_planner = std::make_unique<sched::TscaPlanner>(t);
    s.tsca_planner->restore(p.knowledge, p.coverage());
    s.tsca_schedule = std::move(p.schedule);
  } catch (const sched::TscaPlanError& e) {
    fatal(std::string("plan: ") + e.what());
  } catch (const std::length_error& e) {
    fatal("plan: " + path + ": " + e.what());
  }
}

sched::VariablePlan load_plan(const std::string& path) {
  try {
    return sched::VariablePlan::read(path);
  } catch (const sched::PlanError& e) {
    fatal(std::string("plan: ") + e.what());
  }
}

// A replay (or a follow= guide, a recording with pre-emptions taken out) instruments what the
// recorded run instrumented, unless told otherwise.
void adopt_recorded(Options& o) {
  const bool follow = o.strategy == Strategy::Follow;
  const std::string& file = follow ? o.follow : o.replay;
  const char* what = follow ? "follow" : "replay";
  try {
    g_replay_log = sched::ScheduleLog::read(file);
  } catch (const std::exception& e) {
    fatal(std::string(what) + ": " + e.what());
  }
  try {
    g_recorded = parse_options(g_replay_log.options);
  } catch (const std::invalid_argument& e) {
    fatal(std::string(what) + ": " + file + ": the recorded options are invalid: " + e.what());
  }
  // The replay is the recorded run: its seed is the one to print and to report.
  o.seed = g_recorded.seed;
  o.seed_given = true;
  o.spurious = g_recorded.spurious;              // the same draws as the recorded run
  o.early_timeouts = g_recorded.early_timeouts;  // the same time model
  if (!o.accesses) o.accesses = g_recorded.effective_accesses();
  if (o.include.empty()) o.include = g_recorded.include;
  if (o.exclude.empty()) o.exclude = g_recorded.exclude;
  if (o.bug_output.empty()) o.bug_output = g_recorded.bug_output;  // the same finding
}

// The pairs earlier executions have shown (the runner merges them): coverage starts there,
// and strategy=hapset steers away from them.
void load_hapset_plan(AgentState& s, const Options& run) {
  try {
    sched::HapsetPlan p = sched::HapsetPlan::read(run.plan);
    if (!run.hapset) fatal("plan: " + run.plan + " is a HaPSet plan, and hapset=off");
    if (!run.is("hapset") && !run.is("random") && !run.is("rapos"))
      fatal("plan: " + run.plan +
            " is a HaPSet plan: it goes with strategy=hapset, random or rapos");
    if (p.frames != run.frames)
      fatal("plan: " + run.plan + " names statements with frames=" + std::to_string(p.frames) +
            ", this run uses frames=" + std::to_string(run.frames));
    for (uint64_t id : p.pairs) s.hapset.add_known(id);
  } catch (const sched::PlanError& e) {
    fatal(std::string("plan: ") + e.what());
  }
}

// PCTVB: the variables the seed picks, and where the rewriter must count their accesses.
void track(AgentState& s, const sched::PctStrategy& pct) {
  s.tracker = std::make_unique<VariableTracker>(s.plan, pct);
  // Accesses to other variables are points as `accesses` says, as under pct: the field filter's
  // (with accesses=volatile, a plain or final field is no point).
  s.tracker->set_untracked(s.shared ? static_cast<const rw::AccessFilter*>(s.shared.get())
                                    : &s.field_filter);
  s.rewrite.filter = s.tracker.get();
}

// What the registry's factories need of the agent.
class AgentHost : public sched::StrategyHost {
 public:
  explicit AgentHost(AgentState& s) : s_(s) {}
  void note(const std::string& line) override { log_line(line); }
  bool several_executions() const override { return agent::several_executions(s_); }
  void track_variables(sched::PctStrategy& pct) override {
    track(s_, pct);
    sched::PctStrategy* raw = &pct;
    s_.change_point = [raw](sched::ThreadId t, uint32_t i) {
      runtime()->ctl().locked([&] { raw->change_point(t, i); });
    };
  }
  const std::vector<sched::ThreadId>& tsca_schedule() const override { return s_.tsca_schedule; }
  std::string site_name(int32_t site) const override { return site_location(site); }
  const sched::HapsetLearner& hapset() const override { return s_.hapset; }
  const sched::ScheduleLog& schedule_log() const override { return g_replay_log; }

 private:
  AgentState& s_;
};

// The strategy its registry row makes, for the seed in the options.
std::unique_ptr<sched::Strategy> make_strategy(AgentState& s) {
  static AgentHost host(s);
  const Options& o = s.options;
  sched::StrategyArgs args = registered_args(s);
  args.host = &host;
  try {
    if (o.strategy == Strategy::Replay && g_recorded.strategy == Strategy::Pctvb) {
      // The same variables and change points as the recorded run, so that the same accesses
      // hand over to the scheduler; the decisions come from the log.
      sched::StrategyArgs recorded = strategy_args(g_recorded, s.plan);
      track(s, sched::PctStrategy(recorded.seed, sched::pct_options(recorded, true)));
    }
    std::unique_ptr<sched::Strategy> made = sched::find_strategy(strategy_name(o))->make(args);
    // The reports' sections of these two.
    s.tsca = dynamic_cast<sched::TscaStrategy*>(made.get());
    s.replay = dynamic_cast<sched::ReplayStrategy*>(made.get());
    return made;
  } catch (const std::invalid_argument& e) {
    fatal("plan " + o.plan + " " + e.what());
  }
}

// A global reference to ClassLoader.<getter>() (the platform or the system loader), or null.
jobject class_loader(JNIEnv* env, const char* getter) {
  jclass cl = env->FindClass("java/lang/ClassLoader");
  jmethodID get = cl ? env->GetStaticMethodID(cl, getter, "()Ljava/lang/ClassLoader;") : nullptr;
  jobject loader = get ? env->CallStaticObjectMethod(cl, get) : nullptr;
  if (env->ExceptionCheck()) env->ExceptionClear();
  return loader ? env->NewGlobalRef(loader) : nullptr;
}

void JNICALL on_vm_start(jvmtiEnv*, JNIEnv* env) {
  AgentState& s = state();
  if (!resolve_refs(env)) fatal("cannot resolve java.lang classes");
  s.platform_loader = class_loader(env, "getPlatformClassLoader");
  // In JDK mode the hooks are Thread's, and JSchedVariables is only defined for PCTVB, which
  // needs it (defining a class more at start-up made JDK-mode runs of one seed differ).
  if ((!s.jdk_mode || s.tracker) && !define_shim_class(env, !s.jdk_mode))
    fatal("cannot define jsched's java.lang classes");
  if (!s.jdk_mode) {
    if (s.rewrite.static_reset && !prepare_static_reset(env))
      fatal("cannot define java.lang.JSchedStatics");
    s.hooks_ready = true;
  }
}

thread_local bool t_main = false;  // the thread that ran VMInit: main

// The environment classes (jdk_concurrency.h) the JVM loaded before the class hook rewrote
// them, and the sources of chance, loaded now: the others it rewrites as they load.
void environment_classes_to_retransform(jvmtiEnv* jvmti, JNIEnv* env, std::vector<jclass>& out) {
  for (const char* c : kChanceClasses) {
    if (env->FindClass(c) == nullptr) fatal(std::string("cannot find ") + c);
  }
  jint n = 0;
  jclass* loaded = nullptr;
  check(jvmti->GetLoadedClasses(&n, &loaded), "GetLoadedClasses");
  for (jint i = 0; i < n; ++i) {
    char* sig = nullptr;
    bool wanted = false;
    if (jvmti->GetClassSignature(loaded[i], &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
      const std::string_view v(sig);
      wanted = v.size() > 2 && v.front() == 'L' && is_environment_class(v.substr(1, v.size() - 2));
      jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    if (wanted)
      out.push_back(loaded[i]);
    else
      env->DeleteLocalRef(loaded[i]);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(loaded));
}

void JNICALL on_vm_init(jvmtiEnv* jvmti, JNIEnv* env, jthread main) {
  AgentState& s = state();
  s.live = true;
  if (!activate_hooks(env, s.rewrite.hook_owner.c_str())) fatal("cannot activate the hooks");
  if (!s.controlled) return;
  t_main = true;
  thread_starts::mark_all(jvmti, env);
  remember_java_streams(env);
  find_virtual_thread_classes(jvmti, env);
  one_carrier_each(env, s.options.verbose);
  if (!watch_output(env)) fatal("cannot watch the program's output (bug-output=)");
  if (!ClassHashes::start(jvmti, env)) fatal("cannot start the thread that hashes classes");
  if (s.profile && !s.jdk_mode) {
    jclass owner = env->FindClass(s.rewrite.hook_owner.c_str());
    jfieldID f = owner ? env->GetStaticFieldID(owner, "jschedCounting", "Z") : nullptr;
    if (f == nullptr) fatal("cannot set up the profile's counting");
    env->SetStaticBooleanField(owner, f, JNI_TRUE);
  }
  if (s.tracker) {
    jclass owner = env->FindClass(s.rewrite.hook_owner.c_str());
    if (owner == nullptr || !s.tracker->init_java(env, owner))
      fatal("cannot set up variable tracking");
    if (s.options.verbose) {
      for (const std::string& n : s.tracker->names()) log_line("tracking " + n);
    }
  }
  if (!s.jdk_mode) {
    std::vector<jclass> classes = {refs().Thread, env->FindClass(kLockSupport)};
    if (classes[1] == nullptr) fatal("cannot find java.util.concurrent.locks.LockSupport");
    environment_classes_to_retransform(jvmti, env, classes);
    check(jvmti->RetransformClasses(jint(classes.size()), classes.data()),
          "RetransformClasses(Thread, LockSupport, clocks)");
  }
  Runtime::start_watchdog(jvmti, env);
  const std::string run_line = std::string("strategy ") + strategy_name(s.options) + ", seed " +
                               std::to_string(s.options.seed);
  if (several_executions(s)) {
    s.system_loader = class_loader(env, "getSystemClassLoader");
    if (!s.system_loader) fatal("cannot find the system class loader");
    if (!prepare_executions(env)) fatal("cannot define java.lang.JSchedMain");
    const std::string each = s.tests ? " for each test method" : "";
    log_line(run_line + each +
             (s.options.iterations > 1
                  ? ", then seed+1, ... (" + std::to_string(s.options.iterations) + " iterations" +
                        each + " in this JVM)"
                  : ""));
    return;
  }
  log_line(run_line);
  runtime()->start(env, main);
}

void JNICALL on_class_load(jvmtiEnv* jvmti, JNIEnv* env, jthread, jclass c) {
  if (t_main || Runtime::on_controlled_thread()) ClassHashes::loaded(jvmti, env, c, t_main);
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv* env) {
  AgentState& s = state();
  flush_log_lines();
  if (s.options.verbose) {
    log_line("classes instrumented: " + std::to_string(s.classes_rewritten.load()) +
             ", left unchanged: " + std::to_string(s.classes_failed.load()) +
             ", sites: " + std::to_string(s.sites.size()) +
             ", rewriting: " + std::to_string(s.rewrite_cpu_ns.load() / 1000000) + " ms of CPU");
    log_line("hook calls: " + hook_call_summary());
  }
  if (s.tests && s.tests_run == 0)
    log_line(
        "warning: no test method ran as controlled executions in this JVM: jsched runs JUnit 3, "
        "4 and 5 tests so (docs/agent.md, \"Tests\"); tests of any other framework ran "
        "uncontrolled and were not checked");
  Runtime::stop_watchdog();
  ClassHashes::stop();
  if (Runtime* rt = runtime())
    rt->vm_death(env);
  else
    Runtime::vm_death_between();
  flush_log_lines();  // and what an execution ending beside the JVM's end said meanwhile
}

// An exception escaping into a JVMTI callback or a native would abort the JVM silently: say
// what it was first.
[[noreturn]] void on_terminate() {
  std::string what = "unknown exception";
  if (auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      what = x.what();
    } catch (...) {
    }
  }
  log_line("internal error: " + what);
  std::abort();
}

// The test runners whose JVMs run test methods (docs/agent.md, "Tests").
bool is_test_runner(const std::string& main_class) {
  return main_class == "org/apache/maven/surefire/booter/ForkedBooter" ||
         main_class == "org/junit/platform/console/ConsoleLauncher" ||
         main_class == "org/junit/runner/JUnitCore";
}

// What runs the executions: iterations of main, or test methods (several_executions).
void choose_executions(jvmtiEnv* jvmti, Options& o, std::string& main_class, bool& tests) {
  std::string why;
  main_class = launcher_main_class(jvmti, why);
  tests = o.tests == TestsMode::On || (o.tests == TestsMode::Auto && is_test_runner(main_class));
  if (!o.controls()) tests = false;
  if (tests) {
    // follow= runs a test's minimal schedule (the failure names it) once.
    if (!o.runs_several_per_jvm() && o.strategy != Strategy::Follow) {
      fatal("test methods run under " + sched::several_per_jvm_names() + " or follow=, not " +
            strategy_name(o) + " (tests=off leaves the test runner alone)");
    }
    main_class.clear();
    return;
  }
  if (o.iterations > 1 && main_class.empty()) fatal("iterations: " + why);
  if (o.iterations == 1) main_class.clear();
}

// The files a run writes at its end are checked now: finding out only after the program ran
// would lose its result. A file that did not exist is not left behind.
void check_writable(const char* key, const std::string& path) {
  if (path.empty()) return;
  struct stat st;
  const bool existed = stat(path.c_str(), &st) == 0;
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fatal(std::string(key) + ": cannot write " + path + ": " + std::strerror(errno));
  close(fd);
  if (!existed) unlink(path.c_str());
}

// A JDK newer than the class files jsched reads: its own classes (java.util.concurrent's,
// which every run rewrites) would be refused one by one. Better one line at start.
void refuse_newer_jdk(jvmtiEnv* jvmti) {
  char* v = nullptr;
  if (jvmti->GetSystemProperty("java.specification.version", &v) != JVMTI_ERROR_NONE || !v) return;
  const std::string version = v;
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(v));
  const long feature = std::strtol(version.c_str(), nullptr, 10);
  const long newest = long(jsched::cf::kMaxMajor) - 44;  // class-file version 69 is Java 25
  if (feature > newest) {
    fatal("this JVM is Java " + version + "; jsched reads class files up to version " +
          std::to_string(jsched::cf::kMaxMajor) + " (Java " + std::to_string(newest) +
          "): run it on JDK 17 to " + std::to_string(newest));
  }
}

uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32 | rd()) & 0x7fffffffffffffffULL;
}

}  // namespace

}  // namespace jsched::agent

using namespace jsched::agent;

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  OneCore::note_process_cpus();
  Options opts;
  try {
    opts = parse_options(options ? options : "");
  } catch (const std::invalid_argument& e) {
    log_line(std::string("error: ") + e.what());
    _exit(2);
  }
  if (!opts.seed_given) opts.seed = fresh_seed();
  check_writable("report", opts.report);
  check_writable("record", opts.record);
  check_writable("profile", opts.profile);
  check_writable("trace", opts.trace);
  std::set_terminate(on_terminate);
  if (opts.strategy == Strategy::Replay || opts.strategy == Strategy::Follow) adopt_recorded(opts);
  const Options& run = opts.strategy == Strategy::Replay ? g_recorded : opts;  // what was run
  jvmtiEnv* jvmti = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_11) != JNI_OK) {
    log_line("error: JVMTI 11 is not available in this JVM");
    _exit(2);
  }
  refuse_newer_jdk(jvmti);
  std::string main_class;
  bool tests = false;
  choose_executions(jvmti, opts, main_class, tests);
  std::vector<std::string> exclude = opts.exclude, kept;
  if (tests) {
    // The test runner's classes stay plain: they run outside the executions. Except JUnit's
    // timeouts, which run inside one. JUnit 4's (@Test(timeout=...), the Timeout rule) starts
    // the thread that runs the test's body and waits for it with a timed get, both of which
    // jsched must see (plain, the body ran uncontrolled and its bugs went unseen); JUnit 5's
    // interrupts the test's thread (rewriter/junit_timeout.h).
    for (const char* p : {"org.junit.", "junit.", "org.apache.maven.", "org.opentest4j.",
                          "org.apiguardian.", "org.hamcrest."})
      exclude.push_back(p);
    kept = {"org.junit.internal.runners.statements.FailOnTimeout",
            std::string(jsched::rw::kJupiterSameThreadTimeout)};
  }
  ClassFilter filter(opts.include, exclude, kept);
  auto st = std::make_unique<AgentState>(opts, filter);
  st->vm = vm;
  st->jvmti = jvmti;
  st->main_class = main_class;
  st->tests = tests;
  st->jdk_mode = filter.reaches_jdk();
  st->controlled = opts.controls();
  if (st->jdk_mode && several_executions(*st))
    fatal("iterations and test methods: not with include= reaching JDK classes");
  if (!main_class.empty()) st->cache = std::make_unique<ClassCache>();
  st->rewrite.hook_owner = st->jdk_mode ? "java/lang/Thread" : "java/lang/JSchedShim";
  st->rewrite.fixed_jdk_seeds = st->jdk_mode;
  st->access_points = opts.effective_accesses() != jsched::rw::Accesses::None;
  // Allocation sites name objects stably across runs (partial orders, reports). PCT and PCTVB
  // leave them out: every allocation would pay a JVMTI call, and their overhead is the point.
  const bool priorities = run.strategy == Strategy::Pct || run.strategy == Strategy::Pctvb;
  st->rewrite.allocations = st->controlled && (!priorities || !opts.profile.empty());
  // java.util.concurrent under control (docs/agent.md): application calls to j.u.c. are
  // scheduling points, LockSupport parks in the model. The application's clock reads are the
  // execution's virtual clock, which sleeps and timeouts advance: a program that checks that
  // sleep(100) took 100 ms must see it (docs/agent.md, "Time").
  st->rewrite.sync_calls = st->controlled;
  st->rewrite.park_calls = st->controlled;
  st->rewrite.virtual_clock = st->controlled;
  st->rewrite.seeded_randomness = st->controlled;
  st->rewrite.stable_hashes = st->controlled;
  // Iterations of main and test methods keep their classes and run static initializers again
  // (rewriter/static_reset.h); JDK classes' statics are the JVM's, and in tests what the code
  // between executions initializes (@BeforeAll) is kept. A single run gets the same
  // code (its checks never fire), so that it is exactly the iteration it replays, down to the
  // statements HaPSet names by their frames' bytecode positions.
  st->rewrite.static_reset = st->controlled && !st->jdk_mode && !opts.reload_classes;
  st->rewrite.may_reset = [](std::string_view n) { return !jdk_package(n); };
  const bool hapset_plan = !run.plan.empty() && jsched::sched::HapsetPlan::is_one(run.plan);
  if (st->controlled && run.hapset_wanted(hapset_plan))
    st->statements = std::make_unique<Statements>(jvmti, run.frames);
  if (hapset_plan)
    load_hapset_plan(*st, run);
  else if (!run.plan.empty() && run.strategy == Strategy::Hapset)
    fatal("plan: " + run.plan +
          " is not a HaPSet plan (strategy=hapset; first line 'jsched-hapset 1')");
  else if (!run.plan.empty() && run.strategy == Strategy::Tsca)
    load_tsca_plan(*st, run.plan, uint32_t(run.option("t", 3)));
  else if (!run.plan.empty())
    st->plan = load_plan(run.plan);
  // accesses=shared with nothing learned (no plan, or one whose runs did not record which
  // variables threads share): every access, rather than none of the plain ones.
  st->accesses = opts.effective_accesses();
  if (st->accesses == jsched::rw::Accesses::Shared && !st->plan.sharing)
    st->accesses = jsched::rw::Accesses::All;
  st->rewrite.accesses = opts.profile.empty() ? st->accesses : jsched::rw::Accesses::All;
  if (run.strategy == Strategy::Tsca && !st->tsca_planner)
    st->tsca_planner = std::make_unique<jsched::sched::TscaPlanner>(uint32_t(run.option("t", 3)));
  if (!opts.profile.empty()) {
    // JDK-mode profile runs tag objects with their variables in an environment of their own;
    // the main one's tags name objects.
    if (vm->GetEnv(reinterpret_cast<void**>(&st->tag_env), JVMTI_VERSION_11) != JNI_OK)
      fatal("second JVMTI environment");
    jvmtiCapabilities tag_caps;
    std::memset(&tag_caps, 0, sizeof tag_caps);
    tag_caps.can_tag_objects = 1;
    check(st->tag_env->AddCapabilities(&tag_caps), "AddCapabilities (tags)");
    st->profile = std::make_unique<ProfileRecorder>(st->tag_env);
  }
  // In JDK mode java.base code may run hooks long before any VM event: the hooks are added to
  // java.lang.Thread as it loads, before any Java code executes.
  st->hooks_ready = st->jdk_mode;
  set_state(std::move(st));
  AgentState& s = state();
  s.field_filter.set_jdk_too(run.accesses.has_value());
  s.field_filter.set_accesses(s.accesses);
  // Races are looked for among plain accesses (accesses=shared or all): a static initializer's
  // are ordered by the class's initialization, which the model does not see.
  if (jsched::rw::plain_points(s.accesses)) {
    s.sites.set_ordered([&s](const jsched::rw::SiteInfo& si) {
      return si.method == "<clinit>" ||
             s.field_filter.orders(std::string(si.owner), std::string(si.name));
    });
  }
  const auto is_final = [&s](const std::string& owner, const std::string& name) {
    return s.field_filter.is_final(owner, name);
  };
  if (s.profile) {
    // Profile runs hook every access, and schedule only at the run's own points; the other
    // accesses are counted in Java (JDK mode has no JSchedVariables: the agent counts them).
    // A race-check run hooks the plan's shared accesses for the race detector.
    s.race_check = s.accesses == jsched::rw::Accesses::Shared && !s.jdk_mode;
    if (s.race_check) s.shared = std::make_unique<SharedAccesses>(s.plan, s.field_filter, is_final);
    s.sites.set_points(s.accesses,
                       s.race_check ? static_cast<const jsched::rw::AccessFilter*>(s.shared.get())
                                    : &s.field_filter);
    if (!s.jdk_mode) {
      // A final reference's reads do count: through one a thread reaches a HashMap whose code
      // is not instrumented, and under accesses=shared they are points (shared_accesses.h).
      s.profile->count_in_java(&s.sites, [&s](const jsched::rw::SiteInfo& si) {
        return si.method == "<clinit>" ||
               (jsched::rw::reads_a_value(si) &&
                s.field_filter.is_final(std::string(si.owner), std::string(si.name)));
      });
      s.rewrite.filter = s.profile.get();
    }
  } else if (s.accesses == jsched::rw::Accesses::Shared) {
    s.shared = std::make_unique<SharedAccesses>(s.plan, s.field_filter, is_final);
    s.rewrite.filter = s.shared.get();
    // Its reads of final references are points only until they are found to reach an object
    // instrumented whole (instrumented_classes.h).
    s.sites.set_reaches([&s](const jsched::rw::SiteInfo& si) {
      return (jsched::rw::reads_an_object(si) &&
              s.field_filter.is_final(std::string(si.owner), std::string(si.name))) ||
             s.shared->reaches_only(si);
    });
  } else if (s.rewrite.accesses != jsched::rw::Accesses::None) {
    s.rewrite.filter = &s.field_filter;
  }
  s.new_strategy = [&s] { return make_strategy(s); };
  if (s.controlled && !several_executions(s)) set_runtime(new Runtime(s, jvmti, s.new_strategy()));

  jvmtiCapabilities caps;
  std::memset(&caps, 0, sizeof caps);
  caps.can_tag_objects = 1;
  caps.can_get_line_numbers = 1;
  caps.can_get_source_file_name = 1;
  if (s.jdk_mode) {
    caps.can_generate_all_class_hook_events = 1;
    caps.can_generate_early_class_hook_events = 1;
  }
  if (s.controlled) {
    caps.can_generate_monitor_events = 1;
    caps.can_retransform_classes = 1;
    caps.can_get_bytecodes = 1;  // the watchdog tells a class-initialization wait
    // ... and a brief wait for a monitor a JVM thread holds (outside_holder.h)
    caps.can_get_monitor_info = 1;
    caps.can_get_current_contended_monitor = 1;
  }
  if (several_executions(s)) caps.can_signal_thread = 1;  // a hung execution's thread stops
  check(jvmti->AddCapabilities(&caps), "AddCapabilities");
  jvmtiCapabilities vt_caps;
  std::memset(&vt_caps, 0, sizeof vt_caps);
  const bool virtual_threads = s.controlled && want_virtual_thread_events(jvmti, vt_caps) &&
                               jvmti->AddCapabilities(&vt_caps) == JVMTI_ERROR_NONE;

  EventCallbacks all;
  std::memset(&all, 0, sizeof all);
  jvmtiEventCallbacks& cb = all.base;
  cb.ClassFileLoadHook = on_class_file_load;
  cb.VMStart = on_vm_start;
  cb.VMInit = on_vm_init;
  cb.VMDeath = on_vm_death;
  cb.ThreadStart = on_thread_start;
  cb.ThreadEnd = on_thread_end;
  cb.MonitorContendedEnter = on_contended_enter;
  cb.MonitorContendedEntered = on_contended_entered;
  cb.MonitorWait = on_monitor_wait;
  cb.MonitorWaited = on_monitor_waited;
  cb.ClassLoad = on_class_load;
  all.virtual_thread_start = on_virtual_thread_start;
  all.virtual_thread_end = on_virtual_thread_end;
  check(jvmti->SetEventCallbacks(&cb, virtual_threads ? sizeof all : sizeof cb),
        "SetEventCallbacks");
  std::vector<jvmtiEvent> events = {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_VM_START,
                                    JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH};
  if (s.controlled) {
    events.insert(events.end(),
                  {JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
                   JVMTI_EVENT_MONITOR_CONTENDED_ENTER, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED,
                   JVMTI_EVENT_MONITOR_WAIT, JVMTI_EVENT_MONITOR_WAITED, JVMTI_EVENT_CLASS_LOAD});
  }
  if (virtual_threads)
    events.insert(events.end(), {kVirtualThreadStartEvent, kVirtualThreadEndEvent});
  for (jvmtiEvent e : events) {
    check(jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr), "SetEventNotificationMode");
  }
  return JNI_OK;
}
