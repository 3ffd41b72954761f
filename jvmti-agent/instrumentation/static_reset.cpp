#include "jvmti-agent/instrumentation/static_reset.h"

#include <mutex>
#include <vector>

#include "jvmti-agent/agent_state.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/hooks/frame_method.h"
#include "jvmti-agent/instrumentation/class_hook.h"
#include "jvmti-agent/java_text.h"

extern const unsigned char jsched_statics_class[];
extern const size_t jsched_statics_class_size;

namespace jsched::agent {

namespace {

struct Refs {
  jclass statics = nullptr;  // java.lang.JSchedStatics
  jfieldID generation = nullptr;
  jfieldID enum_constants = nullptr, enum_directory = nullptr;  // java.lang.Class's caches
};
Refs g_refs;

std::mutex g_mu;
std::string g_refusal;  // the first

constexpr const char* kStamp = "jsched$gen";

// Tests: classes initialized outside any execution (generation 0: by JUnit's class-level
// set-up, @BeforeAll) are the test class's fixture and never start clean; they carry each
// execution's stamp instead (set_generation). Global refs.
std::vector<jclass> g_fixtures;

}  // namespace

bool prepare_static_reset(JNIEnv* env) {
  jclass c = env->DefineClass("java/lang/JSchedStatics", nullptr,
                              reinterpret_cast<const jbyte*>(jsched_statics_class),
                              jsize(jsched_statics_class_size));
  if (c == nullptr) return env->ExceptionDescribe(), false;
  Refs& r = g_refs;
  r.statics = static_cast<jclass>(env->NewGlobalRef(c));
  r.generation = env->GetStaticFieldID(c, "generation", "I");
  jclass cls = env->FindClass("java/lang/Class");
  r.enum_constants = cls ? env->GetFieldID(cls, "enumConstants", "[Ljava/lang/Object;") : nullptr;
  r.enum_directory =
      cls ? env->GetFieldID(cls, "enumConstantDirectory", "Ljava/util/Map;") : nullptr;
  if (!r.generation || !r.enum_constants || !r.enum_directory)
    return env->ExceptionDescribe(), false;
  return true;
}

bool in_reset_code(jvmtiEnv* jvmti, jthread t, std::string_view method) {
  jvmtiFrameInfo frames[4];
  jint count = 0;
  if (jvmti->GetStackTrace(t, 0, 4, frames, &count) != JVMTI_ERROR_NONE) return false;
  for (jint i = 0; i < count; ++i) {
    FrameMethod m;
    if (frame_method(jvmti, frames[i].method, m) && m.cls == "java.lang.JSchedStatics" &&
        (method.empty() || m.name == method))
      return true;
  }
  return false;
}

void set_generation(JNIEnv* env, int generation) {
  env->SetStaticIntField(g_refs.statics, g_refs.generation, generation);
  std::lock_guard<std::mutex> g(g_mu);
  for (jclass c : g_fixtures) {
    if (jfieldID f = env->GetStaticFieldID(c, kStamp, "I"))
      env->SetStaticIntField(c, f, generation);
    env->ExceptionClear();
  }
}

void refuse_reset(const std::string& why) {
  std::lock_guard<std::mutex> g(g_mu);
  if (g_refusal.empty()) g_refusal = why;
}

std::string reset_refusal() {
  std::lock_guard<std::mutex> g(g_mu);
  return g_refusal;
}

std::string reset_blocker(JNIEnv* env, jobject loader) {
  {
    std::lock_guard<std::mutex> g(g_mu);
    if (!g_refusal.empty()) return g_refusal;
  }
  jvmtiEnv* jvmti = state().jvmti;
  jint n = 0;
  jclass* classes = nullptr;
  if (jvmti->GetClassLoaderClasses(loader, &n, &classes) != JVMTI_ERROR_NONE) return "";
  std::string why;
  for (jint i = 0; i < n; ++i) {
    jint status = 0;
    if (why.empty() && jvmti->GetClassStatus(classes[i], &status) == JVMTI_ERROR_NONE &&
        (status & JVMTI_CLASS_STATUS_ERROR)) {
      why = "the static initializer of " + java_class_name(env, classes[i]) + " threw";
    }
    env->DeleteLocalRef(classes[i]);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(classes));
  return why;
}

}  // namespace jsched::agent

using jsched::agent::g_refs;
using jsched::agent::is_jdk_loader;
using jsched::agent::kStamp;
using jsched::agent::state;

extern "C" {

JNIEXPORT jint JNICALL Java_java_lang_JSchedStatics_stampOf(JNIEnv* env, jclass, jclass c,
                                                            jint now) {
  jint status = 0;
  if (state().jvmti->GetClassStatus(c, &status) != JVMTI_ERROR_NONE ||
      !(status & JVMTI_CLASS_STATUS_INITIALIZED))
    return now;
  // The JDK's classes have no stamp (their statics are the JVM's), and asking JNI for the field
  // of one throws a NoSuchFieldError and fills in its stack trace: Object's, at the end of
  // every superclass chain reinitialized, once in every execution.
  jobject loader = nullptr;
  if (state().jvmti->GetClassLoader(c, &loader) == JVMTI_ERROR_NONE) {
    const bool jdk = is_jdk_loader(env, loader);
    env->DeleteLocalRef(loader);
    if (jdk) return now;
  }
  jfieldID f = env->GetStaticFieldID(c, kStamp, "I");
  if (f == nullptr) {
    env->ExceptionClear();
    return now;
  }
  const jint stamp = env->GetStaticIntField(c, f);
  if (state().tests) {
    // Outside the executions (generation 0: JUnit's own code, @AfterAll) nothing starts over;
    // a class first initialized there is a fixture (g_fixtures).
    if (now == 0) return now;
    if (stamp == 0) {
      std::lock_guard<std::mutex> g(jsched::agent::g_mu);
      jsched::agent::g_fixtures.push_back(static_cast<jclass>(env->NewGlobalRef(c)));
      env->SetStaticIntField(c, f, now);
      return now;
    }
  }
  return stamp;
}

JNIEXPORT void JNICALL Java_java_lang_JSchedStatics_runInitializer(JNIEnv* env, jclass, jclass c,
                                                                   jint now) {
  jmethodID body = env->GetStaticMethodID(c, "jsched$clinit", "()V");
  jfieldID f = body ? env->GetStaticFieldID(c, kStamp, "I") : nullptr;
  if (f == nullptr) return;  // NoSuchMethodError or NoSuchFieldError pending
  env->CallStaticVoidMethod(c, body);
  if (!env->ExceptionCheck()) env->SetStaticIntField(c, f, now);
}

JNIEXPORT void JNICALL Java_java_lang_JSchedStatics_endIfOver(JNIEnv* env, jclass) {
  if (jsched::agent::Runtime::over()) jsched::agent::Runtime::end_stale(env);
}

JNIEXPORT void JNICALL Java_java_lang_JSchedStatics_clearEnumCaches(JNIEnv* env, jclass, jclass c) {
  env->SetObjectField(c, g_refs.enum_constants, nullptr);
  env->SetObjectField(c, g_refs.enum_directory, nullptr);
}

}  // extern "C"

namespace jsched::agent {

bool loaded_native_libraries(JNIEnv* env, jobject loader) {
  if (loader == nullptr) return false;
  // JDK 15 to 25: ClassLoader.libraries is a NativeLibraries, whose `libraries` map holds them.
  jclass cl = env->FindClass("java/lang/ClassLoader");
  jfieldID f =
      cl ? env->GetFieldID(cl, "libraries", "Ljdk/internal/loader/NativeLibraries;") : nullptr;
  jobject libs = f ? env->GetObjectField(loader, f) : nullptr;
  jclass nl = libs ? env->GetObjectClass(libs) : nullptr;
  jfieldID m = nl ? env->GetFieldID(nl, "libraries", "Ljava/util/Map;") : nullptr;
  jobject map = m ? env->GetObjectField(libs, m) : nullptr;
  jclass mc = env->FindClass("java/util/Map");
  jmethodID empty = mc ? env->GetMethodID(mc, "isEmpty", "()Z") : nullptr;
  const bool loaded = map && empty && !env->CallBooleanMethod(map, empty);
  env->ExceptionClear();
  return loaded;
}

}  // namespace jsched::agent
