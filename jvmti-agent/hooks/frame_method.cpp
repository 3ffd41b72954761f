#include "jvmti-agent/hooks/frame_method.h"

#include <cstring>

#include "rewriter/hooks.h"

namespace jsched::agent {

namespace {

// In JDK mode the hooks live in java.lang.Thread: recognise them by name and descriptor, which
// no method of Thread itself has.
bool is_hook(const std::string& name, const std::string& sig) {
  for (size_t h = 0; h < rw::kHookCount; ++h) {
    const rw::HookInfo& info = rw::hook_info(rw::Hook(h));
    if (name == info.name && sig == info.desc) return true;
  }
  return false;
}

// A <clinit> that only stamps the class and calls its initializer's body, jsched$clinit
// (rewriter/static_reset.h).
bool stamps_and_calls(jvmtiEnv* jvmti, jclass cls) {
  jint n = 0;
  jmethodID* methods = nullptr;
  if (jvmti->GetClassMethods(cls, &n, &methods) != JVMTI_ERROR_NONE) return false;
  bool found = false;
  for (jint i = 0; i < n && !found; ++i) {
    char* name = nullptr;
    if (jvmti->GetMethodName(methods[i], &name, nullptr, nullptr) != JVMTI_ERROR_NONE) continue;
    found = name && std::strcmp(name, "jsched$clinit") == 0;
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(methods));
  return found;
}

std::string take(jvmtiEnv* jvmti, char* p) {
  std::string s = p ? p : "";
  if (p) jvmti->Deallocate(reinterpret_cast<unsigned char*>(p));
  return s;
}

}  // namespace

bool frame_method(jvmtiEnv* jvmti, jmethodID m, FrameMethod& out, jclass* cls_out) {
  char *name = nullptr, *sig = nullptr, *csig = nullptr;
  jclass cls = nullptr;
  if (jvmti->GetMethodName(m, &name, &sig, nullptr) != JVMTI_ERROR_NONE) return false;
  out.name = take(jvmti, name);
  out.sig = take(jvmti, sig);
  if (jvmti->GetMethodDeclaringClass(m, &cls) != JVMTI_ERROR_NONE || !cls) return false;
  jvmti->GetClassSignature(cls, &csig, nullptr);
  std::string c = take(jvmti, csig);
  out.cls = c.size() > 2 ? c.substr(1, c.size() - 2) : "?";
  for (char& ch : out.cls) ch = ch == '/' ? '.' : ch;
  // Hidden classes (lambdas) carry their address ("$$Lambda$14.0x00007f..."), and a lambda's
  // number grows with every class loader that defines it (one per iteration).
  if (size_t hidden = out.cls.find(".0x"); hidden != std::string::npos) out.cls.resize(hidden);
  if (size_t lambda = out.cls.find("$$Lambda$"); lambda != std::string::npos)
    out.cls.resize(lambda + 8);
  // With statics reset, a class's initializer runs as jsched$clinit, called by a <clinit> of
  // jsched's own in its first execution and through JSchedStatics in later ones: both ways
  // read as the one initializer.
  out.hook = out.cls == "java.lang.JSchedShim" || out.cls == "java.lang.JSchedStatics" ||
             out.name == "jsched$check" || out.name.rfind("jsched$touch$", 0) == 0 ||
             (out.cls == "java.lang.Thread" && is_hook(out.name, out.sig)) ||
             (out.name == "<clinit>" && stamps_and_calls(jvmti, cls));
  if (out.name == "jsched$clinit") out.name = "<clinit>";
  if (out.name == "jsched$main") out.name = "main";  // a shared main's body (main_diversion.h)
  out.jsched = out.hook || out.name.rfind("jsched", 0) == 0;
  out.entry = out.cls == "java.lang.JSchedMain" || out.cls.rfind("jdk.internal.reflect.", 0) == 0 ||
              out.cls.rfind("java.lang.reflect.", 0) == 0;
  out.machinery =
      out.cls.rfind("java.lang.invoke.", 0) == 0 || out.cls == "jdk.internal.misc.Unsafe";
  if (cls_out) *cls_out = cls;
  return true;
}

}  // namespace jsched::agent
