# Chooses the JDK that builds jsched and that its tests run: $JAVA_HOME when set, else the JDK
# that owns the `javac` on PATH, followed through symlinks (Debian's /usr/bin/javac ->
# /etc/alternatives/javac -> /usr/lib/jvm/java-17-openjdk-amd64/bin/javac). CMake's own FindJNI
# would otherwise look in fixed folders such as /usr/lib/jvm/default-java, which only the
# default-jdk packages create, so a machine with just openjdk-17-jdk-headless failed to
# configure. Sets JSCHED_JDK_HOME, and JAVA_HOME for FindJava and FindJNI so that javac, the
# JNI headers and the tests' `java` all come from that one JDK.
set(JSCHED_JDK_MIN_VERSION 17)

function(jsched_jdk_version home out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(NOT EXISTS "${home}/bin/javac")
    return()
  endif()
  execute_process(COMMAND "${home}/bin/javac" -version
    OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND out MATCHES "javac ([0-9]+)")
    set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  endif()
endfunction()

if(DEFINED ENV{JAVA_HOME} AND NOT "$ENV{JAVA_HOME}" STREQUAL "")
  set(jdk_home "$ENV{JAVA_HOME}")
  set(jdk_origin "JAVA_HOME=$ENV{JAVA_HOME}")
else()
  find_program(jdk_javac javac NO_CACHE NO_CMAKE_PATH NO_CMAKE_ENVIRONMENT_PATH
    NO_CMAKE_SYSTEM_PATH NO_CMAKE_INSTALL_PREFIX)
  if(jdk_javac)
    file(REAL_PATH "${jdk_javac}" javac_real)
    get_filename_component(jdk_home "${javac_real}" DIRECTORY)
    get_filename_component(jdk_home "${jdk_home}" DIRECTORY)
    set(jdk_origin "javac on PATH (${jdk_javac} -> ${javac_real})")
  else()
    set(jdk_home "")
    set(jdk_origin "JAVA_HOME (unset) and javac on PATH (none)")
  endif()
endif()

jsched_jdk_version("${jdk_home}" jdk_version)
if(jdk_version STREQUAL "" OR jdk_version LESS JSCHED_JDK_MIN_VERSION
    OR NOT EXISTS "${jdk_home}/include/jni.h" OR NOT EXISTS "${jdk_home}/include/jvmti.h")
  if(jdk_home STREQUAL "")
    set(found "no JDK")
  elseif(jdk_version STREQUAL "")
    set(found "${jdk_home}, which has no working bin/javac")
  elseif(jdk_version LESS JSCHED_JDK_MIN_VERSION)
    set(found "${jdk_home}, a JDK ${jdk_version}")
  else()
    set(found "${jdk_home}, which has no include/jni.h and include/jvmti.h")
  endif()
  message(FATAL_ERROR "jsched needs a JDK ${JSCHED_JDK_MIN_VERSION} or later (javac and the "
    "JNI/JVMTI headers). Looked at ${jdk_origin}: found ${found}. Install one "
    "(apt-get install openjdk-17-jdk-headless) or set JAVA_HOME to a JDK's folder.")
endif()

set(JSCHED_JDK_HOME "${jdk_home}")
set(JAVA_HOME "${jdk_home}")
message(STATUS "jsched: JDK ${jdk_version} at ${JSCHED_JDK_HOME} (from ${jdk_origin})")
