// A stack frame's method as reports and HaPSet statements name it.
#pragma once

#include <jvmti.h>

#include <string>

namespace jsched::agent {

struct FrameMethod {
  std::string cls;  // dotted; a lambda as "C$$Lambda": its number and address vary
  std::string name, sig;
  bool hook = false;    // a hook of ours (the shim, or in JDK mode the hooks in Thread)
  bool jsched = false;  // a hook, or a method jsched added (a test method's moved body)
  // How an execution's code was entered: jsched's driver of several executions, reflection.
  // A plain launcher calls main from native code, with no such frames.
  bool entry = false;
  // The JDK's method-handle machinery and Unsafe: between a hook and the code it calls (a
  // class initializer run again through java.lang.JSchedStatics) they are part of the hook,
  // elsewhere (JDK 18+'s Method.invoke) part of how the code was entered.
  bool machinery = false;
};

// False when the JVM cannot tell (the method's class is gone); `cls_out` gets the class.
bool frame_method(jvmtiEnv* jvmti, jmethodID m, FrameMethod& out, jclass* cls_out = nullptr);

}  // namespace jsched::agent
