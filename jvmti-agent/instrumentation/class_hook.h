// The ClassFileLoadHook: rewrites the classes the filter selects.
#pragma once

#include <jvmti.h>

namespace jsched::agent {

void JNICALL on_class_file_load(jvmtiEnv* jvmti, JNIEnv* env, jclass class_being_redefined,
                                jobject loader, const char* name, jobject protection_domain,
                                jint len, const unsigned char* data, jint* new_len,
                                unsigned char** new_data);

// Whether the hook treats the classes of `loader` as the JDK's (the bootstrap and platform
// loaders): they get the JDK's rules, and never the statics reset of application classes.
bool is_jdk_loader(JNIEnv* env, jobject loader);

}  // namespace jsched::agent
