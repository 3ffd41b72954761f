// A stack frame's method as reports and HaPSet statements name it.
#pragma once

#include <jvmti.h>

#include <string>

namespace jsched::agent {

struct FrameMethod {
  std::string cls;  // dotted; a lambda as "C$$Lambda": its number and address vary
  std::string name, sig;
  bool jsched = false;  // a hook of ours (the shim, or in JDK mode the hooks in Thread)
};

// False when the JVM cannot tell (the method's class is gone); `cls_out` gets the class.
bool frame_method(jvmtiEnv* jvmti, jmethodID m, FrameMethod& out, jclass* cls_out = nullptr);

}  // namespace jsched::agent
