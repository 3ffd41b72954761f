// The ClassFileLoadHook: rewrites the classes the filter selects.
#pragma once

#include <jvmti.h>

namespace jsched::agent {

void JNICALL on_class_file_load(jvmtiEnv* jvmti, JNIEnv* env, jclass class_being_redefined,
                                jobject loader, const char* name, jobject protection_domain,
                                jint len, const unsigned char* data, jint* new_len,
                                unsigned char** new_data);

}  // namespace jsched::agent
