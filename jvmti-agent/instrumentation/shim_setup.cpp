#include "jvmti-agent/instrumentation/shim_setup.h"

#include <algorithm>
#include <stdexcept>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/hooks.h"
#include "rewriter/transplant.h"

extern const unsigned char jsched_shim_class[];
extern const size_t jsched_shim_class_size;
extern const unsigned char jsched_variables_class[];
extern const size_t jsched_variables_class_size;

namespace jsched::agent {

namespace {
cf::Bytes shim_bytes() {
  return cf::Bytes(jsched_shim_class, jsched_shim_class_size);
}
}  // namespace

bool define_shim_class(JNIEnv* env, bool shim) {
  // JSchedVariables: the hooks' counters and object table (JDK mode too).
  const struct {
    const char* name;
    const unsigned char* bytes;
    size_t size;
  } classes[] = {
      {"java/lang/JSchedShim", jsched_shim_class, jsched_shim_class_size},
      {"java/lang/JSchedVariables", jsched_variables_class, jsched_variables_class_size}};
  for (const auto& k : classes) {
    if (!shim && k.bytes == jsched_shim_class) continue;
    jclass c =
        env->DefineClass(k.name, nullptr, reinterpret_cast<const jbyte*>(k.bytes), jsize(k.size));
    if (c == nullptr) {
      env->ExceptionDescribe();
      return false;
    }
    env->DeleteLocalRef(c);
  }
  return true;
}

namespace {

// `<load> ; invokestatic <owner>.<hook>` first in method `name``desc` of `c`: the hook sees
// the argument `load` pushes before the method's own code runs.
void call_hook_first(cf::ClassFile& c, std::string_view name, std::string_view desc, uint8_t load,
                     rw::Hook hook, std::string_view owner) {
  for (cf::Member& m : c.methods) {
    if (c.member_name(m) != name || c.member_desc(m) != desc || m.code_attr < 0) continue;
    cf::Code& code = c.decode_code(m);
    const rw::HookInfo& h = rw::hook_info(hook);
    uint16_t ref = c.cp.add_methodref(owner, h.name, h.desc);
    code.insns.insert(code.insns.begin(),
                      {cf::Insn::make(load), cf::Insn::make(cf::op::invokestatic, ref)});
    code.max_stack = std::max<uint16_t>(code.max_stack, 1);
    return;
  }
  throw std::runtime_error("class " + std::string(c.name()) + " has no method " +
                           std::string(name) + std::string(desc));
}

// The uncaught hook first in Thread.dispatchUncaughtException(Throwable).
void call_uncaught_hook(cf::ClassFile& thread, std::string_view owner) {
  call_hook_first(thread, "dispatchUncaughtException", "(Ljava/lang/Throwable;)V", cf::op::aload_1,
                  rw::Hook::Uncaught, owner);
}

}  // namespace

cf::Buffer add_hooks_to_thread(cf::Bytes thread_class, bool uncaught_hook) {
  cf::ClassFile host = cf::ClassFile::parse(thread_class);
  cf::ClassFile donor = cf::ClassFile::parse(shim_bytes());
  rw::transplant(donor, host);
  if (uncaught_hook) call_uncaught_hook(host, "java/lang/Thread");
  return host.write();
}

cf::Buffer add_exit_hook(cf::Bytes shutdown_class, std::string_view owner) {
  cf::ClassFile c = cf::ClassFile::parse(shutdown_class);
  call_hook_first(c, "halt", "(I)V", cf::op::iload_0, rw::Hook::Exiting, owner);
  return c.write();
}

cf::Buffer add_uncaught_hook(cf::Bytes thread_class) {
  cf::ClassFile host = cf::ClassFile::parse(thread_class);
  call_uncaught_hook(host, "java/lang/JSchedShim");
  return host.write();
}

bool activate_hooks(JNIEnv* env, const char* owner) {
  jclass c = env->FindClass(owner);
  if (c == nullptr) return env->ExceptionDescribe(), false;
  struct Native {
    const char* name;
    const char* desc;
  };
  // Site 0 makes every native return at once.
  static const Native kNatives[] = {
      {"jschedEnter", "(Ljava/lang/Object;I)V"},
      {"jschedExit", "(Ljava/lang/Object;I)V"},
      {"jschedWait", "(Ljava/lang/Object;JIZI)Z"},
      {"jschedNotify", "(Ljava/lang/Object;ZI)Z"},
      {"jschedStart", "(Ljava/lang/Thread;I)Z"},
      {"jschedJoin", "(Ljava/lang/Thread;JZI)Z"},
      {"jschedSleep", "(JI)Z"},
      {"jschedYield", "(I)Z"},
      {"jschedStartIn", "(Ljava/lang/Object;Ljava/lang/Thread;Ljava/lang/Object;I)V"},
      {"jschedBuilderStart", "(Ljava/lang/Object;Ljava/lang/Runnable;I)Ljava/lang/Thread;"},
      {"jschedVirtualPark", "(Ljava/lang/Object;JZI)V"},
      {"jschedVirtualUnpark", "(Ljava/lang/Object;Ljava/lang/Thread;I)V"},
      {"jschedGc", "(I)V"},
      {"jschedIsAlive", "(Ljava/lang/Thread;I)I"},
      {"jschedGetState", "(Ljava/lang/Thread;I)I"},
      {"jschedSuspend", "(Ljava/lang/Thread;ZI)Z"},
      {"jschedInterrupt", "(Ljava/lang/Thread;I)V"},
      {"jschedIsInterrupted", "(Ljava/lang/Thread;ZI)I"},
      {"jschedResolves", "(Ljava/lang/Class;I)Z"},
      {"jschedAccess", "(Ljava/lang/Object;IZI)V"},
      {"jschedAllocated", "(Ljava/lang/Object;I)V"},
      {"jschedUncaught", "(Ljava/lang/Throwable;)V"},
      {"jschedExiting", "(I)V"},
      {"jschedRandomSeed", "(JI)J"},
      {"jschedControlled", "(I)Z"},
      {"jschedIdentityHash", "(Ljava/lang/Object;)I"},
      {"jschedThreadId", "(JI)J"},
      {"jschedIoWait", "(Ljava/lang/Object;IIJI)J"},
      {"jschedTracked", "(II)V"},
      {"jschedPark", "(ZJI)Z"},
      {"jschedUnpark", "(Ljava/lang/Object;I)Z"},
      {"jschedSync", "(Ljava/lang/Object;ZI)V"},
      {"jschedClock", "(ZI)J"},
      {"jschedEpochNanos", "(I)J"},
  };
  for (const Native& n : kNatives) {
    jmethodID m = env->GetStaticMethodID(c, n.name, n.desc);
    if (m == nullptr) return env->ExceptionDescribe(), false;
    jvalue args[5] = {};  // every argument zero or null, site 0 included (null: uncaught)
    switch (n.desc[std::string_view(n.desc).find(')') + 1]) {
      case 'V':
        env->CallStaticVoidMethodA(c, m, args);
        break;
      case 'Z':
        env->CallStaticBooleanMethodA(c, m, args);
        break;
      case 'J':
        env->CallStaticLongMethodA(c, m, args);
        break;
      case 'L':
        env->CallStaticObjectMethodA(c, m, args);
        break;
      default:
        env->CallStaticIntMethodA(c, m, args);
        break;
    }
    if (env->ExceptionCheck()) return env->ExceptionDescribe(), false;
  }
  jfieldID ready = env->GetStaticFieldID(c, "jschedReady", "Z");
  if (ready == nullptr) return env->ExceptionDescribe(), false;
  env->SetStaticBooleanField(c, ready, JNI_TRUE);
  env->DeleteLocalRef(c);
  return true;
}

}  // namespace jsched::agent
