// Agent_OnLoad and the VM lifecycle events.
#include <jni.h>
#include <jvmti.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/class_hook.h"
#include "jvmti-agent/jvm_refs.h"
#include "jvmti-agent/observer.h"
#include "jvmti-agent/shim_setup.h"

namespace jsched::agent {

namespace {

[[noreturn]] void fatal(const std::string& msg) {
  log_line("error: " + msg);
  _exit(2);
}

void check(jvmtiError e, const char* what) {
  if (e != JVMTI_ERROR_NONE) fatal(std::string(what) + " failed (JVMTI error " + std::to_string(e) + ")");
}

void JNICALL on_vm_start(jvmtiEnv* jvmti, JNIEnv* env) {
  AgentState& s = state();
  if (!resolve_refs(env)) fatal("cannot resolve java.lang classes");
  jclass cl = env->FindClass("java/lang/ClassLoader");
  jmethodID get = cl ? env->GetStaticMethodID(cl, "getPlatformClassLoader", "()Ljava/lang/ClassLoader;")
                     : nullptr;
  jobject platform = get ? env->CallStaticObjectMethod(cl, get) : nullptr;
  if (env->ExceptionCheck()) env->ExceptionClear();
  if (platform) s.platform_loader = env->NewGlobalRef(platform);
  if (!s.jdk_mode) {
    if (!define_shim_class(env)) fatal("cannot define java.lang.JSchedShim");
    s.hooks_ready = true;
  }
  (void)jvmti;
}

void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* env, jthread) {
  if (!activate_hooks(env, state().rewrite.hook_owner.c_str())) fatal("cannot activate the hooks");
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  AgentState& s = state();
  if (s.options.verbose) {
    log_line("classes instrumented: " + std::to_string(s.classes_rewritten.load()) +
             ", left unchanged: " + std::to_string(s.classes_failed.load()) +
             ", sites: " + std::to_string(s.sites.size()));
    log_line("hook calls: " + hook_call_summary());
  }
}

}  // namespace

}  // namespace jsched::agent

using namespace jsched::agent;

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  Options opts;
  try {
    opts = parse_options(options ? options : "");
  } catch (const std::invalid_argument& e) {
    log_line(std::string("error: ") + e.what());
    _exit(2);
  }
  ClassFilter filter(opts.include, opts.exclude);
  auto st = std::make_unique<AgentState>(opts, filter);
  st->vm = vm;
  st->jdk_mode = filter.reaches_jdk();
  st->rewrite.hook_owner = st->jdk_mode ? "java/lang/Thread" : "java/lang/JSchedShim";
  st->rewrite.accesses = opts.effective_accesses();
  if (vm->GetEnv(reinterpret_cast<void**>(&st->jvmti), JVMTI_VERSION_11) != JNI_OK) {
    log_line("error: JVMTI 11 is not available in this JVM");
    _exit(2);
  }
  jvmtiEnv* jvmti = st->jvmti;
  // In JDK mode java.base code may run hooks long before any VM event: the hooks are added to
  // java.lang.Thread as it loads, before any Java code executes.
  st->hooks_ready = st->jdk_mode;
  set_state(std::move(st));

  jvmtiCapabilities caps;
  std::memset(&caps, 0, sizeof caps);
  caps.can_tag_objects = 1;
  caps.can_get_line_numbers = 1;
  caps.can_get_source_file_name = 1;
  if (state().jdk_mode) {
    caps.can_generate_all_class_hook_events = 1;
    caps.can_generate_early_class_hook_events = 1;
  }
  check(jvmti->AddCapabilities(&caps), "AddCapabilities");

  jvmtiEventCallbacks cb;
  std::memset(&cb, 0, sizeof cb);
  cb.ClassFileLoadHook = on_class_file_load;
  cb.VMStart = on_vm_start;
  cb.VMInit = on_vm_init;
  cb.VMDeath = on_vm_death;
  check(jvmti->SetEventCallbacks(&cb, sizeof cb), "SetEventCallbacks");
  for (jvmtiEvent e : {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_VM_START, JVMTI_EVENT_VM_INIT,
                       JVMTI_EVENT_VM_DEATH}) {
    check(jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr), "SetEventNotificationMode");
  }
  return JNI_OK;
}
