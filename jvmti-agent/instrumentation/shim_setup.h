// Making the hooks exist: the shim class for the default mode, or the shim's members copied
// into java.lang.Thread for the JDK mode; then linking its natives and switching it on.
#pragma once

#include <jni.h>

#include <string_view>

#include "classfile/bytes.h"

namespace jsched::agent {

// Defines java.lang.JSchedVariables and, with `shim`, java.lang.JSchedShim in the boot loader
// (so they belong to java.base and every class can call them). Returns false, with the
// exception described, on failure.
bool define_shim_class(JNIEnv* env, bool shim);

// java.lang.Thread's class bytes with the shim's fields and methods added (JDK mode), and
// with dispatchUncaughtException calling the uncaught hook first (both modes).
cf::Buffer add_hooks_to_thread(cf::Bytes thread_class, bool uncaught_hook);
cf::Buffer add_uncaught_hook(cf::Bytes thread_class);

// java.lang.Shutdown's class bytes with halt(int) calling the exiting hook of `owner` first:
// the report then tells System.exit(n) and a signal from a clean end.
cf::Buffer add_exit_hook(cf::Bytes shutdown_class, std::string_view owner);

// Links every native of the hooks class `owner` (internal name) by calling it once as a
// no-op, then sets its jschedReady flag so hooks start calling the agent. Natives must be
// linked first: the JVM resolves them through Java code that may itself call hooks.
bool activate_hooks(JNIEnv* env, const char* owner);

}  // namespace jsched::agent
