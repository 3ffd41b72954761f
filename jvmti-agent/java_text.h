// Java strings and names as std::string, through JNI (report text).
#pragma once

#include <jni.h>

#include <string>

namespace jsched::agent {

std::string java_string(JNIEnv* env, jstring s);  // "" for null
// o.toString(), "" for null; a pending exception is cleared.
std::string java_to_string(JNIEnv* env, jobject o);
// c.getName() (dotted, e.g. "java.util.concurrent.locks.ReentrantLock$NonfairSync").
std::string java_class_name(JNIEnv* env, jclass c);

}  // namespace jsched::agent
