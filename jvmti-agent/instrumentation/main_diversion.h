// iterations=N: the launcher loads the main class and calls its main once; the agent rewrites
// that one class (as the system class loader defines it) so that main hands over to the
// driver (jvmti-agent/executions/executions.h), which runs the real main N times from fresh
// loaders.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

#include "classfile/bytes.h"

namespace jsched::agent {

// The main class named on the command line (`java ... Class` or `java -jar file`), internal
// form; "" with `why` set when there is none (e.g. --module, a source file). Works from
// Agent_OnLoad on (no Java code).
std::string launcher_main_class(jvmtiEnv* jvmti, std::string& why);

// The class with `main` calling JSchedShim.runIterations(args, itself) instead of its own body,
// and no static initializer (its statics are never used: every execution has its own copy of
// the class). Throws std::runtime_error when the class has no static main(String[]).
cf::Buffer divert_main(cf::Bytes main_class);

// The same for a main class the executions share (statics reset, in the system class loader,
// as the launcher loads it: code that finds the program through getSystemClassLoader() then
// finds the executions' classes): `main_class` is already rewritten and resettable, its body
// moves to jsched$main, which the driver runs, and its <clinit> (which only stamps the class
// and calls jsched$clinit) does nothing, so that the first execution runs the initializer.
cf::Buffer divert_shared_main(cf::Bytes main_class);

// Where the body of a shared main class's main goes.
inline constexpr const char* kSharedMainBody = "jsched$main";

}  // namespace jsched::agent
