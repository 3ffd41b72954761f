#include "jvmti-agent/shim_setup.h"

#include <algorithm>
#include <stdexcept>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/hooks.h"
#include "rewriter/transplant.h"

extern const unsigned char jsched_shim_class[];
extern const size_t jsched_shim_class_size;

namespace jsched::agent {

namespace {
cf::Bytes shim_bytes() {
  return cf::Bytes(jsched_shim_class, jsched_shim_class_size);
}
}  // namespace

bool define_shim_class(JNIEnv* env) {
  jclass c = env->DefineClass("java/lang/JSchedShim", nullptr,
                              reinterpret_cast<const jbyte*>(jsched_shim_class),
                              jsize(jsched_shim_class_size));
  if (c == nullptr) {
    env->ExceptionDescribe();
    return false;
  }
  env->DeleteLocalRef(c);
  return true;
}

namespace {

// `aload_1; invokestatic <owner>.uncaught(Throwable)V` first in dispatchUncaughtException.
void call_uncaught_hook(cf::ClassFile& thread, std::string_view owner) {
  for (cf::Member& m : thread.methods) {
    if (thread.member_name(m) != "dispatchUncaughtException" ||
        thread.member_desc(m) != "(Ljava/lang/Throwable;)V" || m.code_attr < 0) {
      continue;
    }
    cf::Code& code = thread.decode_code(m);
    const rw::HookInfo& h = rw::hook_info(rw::Hook::Uncaught);
    uint16_t ref = thread.cp.add_methodref(owner, h.name, h.desc);
    code.insns.insert(code.insns.begin(),
                      {cf::Insn::make(cf::op::aload_1), cf::Insn::make(cf::op::invokestatic, ref)});
    code.max_stack = std::max<uint16_t>(code.max_stack, 1);
    return;
  }
  throw std::runtime_error("java.lang.Thread has no dispatchUncaughtException(Throwable)");
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
  for (cf::Member& m : c.methods) {
    if (c.member_name(m) != "halt" || c.member_desc(m) != "(I)V" || m.code_attr < 0) continue;
    cf::Code& code = c.decode_code(m);
    const rw::HookInfo& h = rw::hook_info(rw::Hook::Exiting);
    uint16_t ref = c.cp.add_methodref(owner, h.name, h.desc);
    code.insns.insert(code.insns.begin(),
                      {cf::Insn::make(cf::op::iload_0), cf::Insn::make(cf::op::invokestatic, ref)});
    code.max_stack = std::max<uint16_t>(code.max_stack, 1);
    return c.write();
  }
  throw std::runtime_error("java.lang.Shutdown has no halt(int)");
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
      {"jschedTag", "(Ljava/lang/Object;I)V"},
      {"jschedSlotOf", "(Ljava/lang/Object;)I"},
      {"jschedPark", "(ZJI)Z"},
      {"jschedUnpark", "(Ljava/lang/Object;I)Z"},
      {"jschedSync", "(Ljava/lang/Object;ZI)V"},
      {"jschedClock", "(ZI)J"},
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
