// Whether a throwable the program did not catch is jsched's doing rather than the program's:
// the JVM refused a class jsched rewrote (VerifyError, ClassFormatError naming it), or code
// jsched added could not link (NoSuchMethodError, NoSuchFieldError, IllegalAccessError, ...
// naming a member of jsched's). Such an execution ends as an error, never as the program's bug.
#pragma once

#include <jni.h>

#include <string>

#include "jvmti-agent/instrumentation/class_outcomes.h"

namespace jsched::agent {

// "" when `e` and its causes are the program's; else why the fault is jsched's. Clears any
// exception the inspection raises.
std::string own_fault(JNIEnv* env, jthrowable e, const ClassOutcomes& classes);

}  // namespace jsched::agent
