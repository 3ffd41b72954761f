// The agent's side of clean statics without reloading (rewriter/static_reset.h): the Java
// helper java.lang.JSchedStatics, the execution stamp, and when the driver must fall back to a
// class loader of its own per execution.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>
#include <string_view>

namespace jsched::agent {

// VM init: defines java.lang.JSchedStatics. False, with the exception described, on failure.
bool prepare_static_reset(JNIEnv* env);

// Whether thread `t` is in JSchedStatics (in its method `method`, if not empty) among its top
// frames: its monitors are held only between scheduling points, and a wait in
// awaitInitialization is a wait for another thread's initialization of a class.
bool in_reset_code(jvmtiEnv* jvmti, jthread t, std::string_view method = {});

// Before execution `generation` (1, 2, ...): classes stamped with another run their static
// initializers again when used.
void set_generation(JNIEnv* env, int generation);

// A class loaded in this JVM whose statics the reset cannot cover (an interface with a static
// initializer, a class left unrewritten): the driver loads classes afresh from then on.
void refuse_reset(const std::string& why);

// Why the next execution cannot reuse the classes of `loader` ("" when it can): a refusal
// above, or a class of the loader left in error by its initializer (the JVM would throw
// NoClassDefFoundError at each later use).
std::string reset_blocker(JNIEnv* env, jobject loader);

// The first refusal above, or "" (tests cannot load classes afresh: from a refusal on, their
// executions keep the statics as they are).
std::string reset_refusal();

// Whether `loader` has loaded JNI libraries (System.loadLibrary): a class loader of its own
// cannot load them again ("already loaded in another classloader"), so the executions cannot
// go on with fresh loaders. False when this JDK does not tell (ClassLoader.libraries).
bool loaded_native_libraries(JNIEnv* env, jobject loader);

}  // namespace jsched::agent
