# jsched_java_classes(TARGET OUT_DIR SOURCES... [RELEASE N] [CLASSPATH CP] [OPTIONS ...]
#                     [JAVAC PATH])
# Compiles Java sources with the JDK's javac (or JAVAC) into OUT_DIR as part of the build.
find_package(Java 17 REQUIRED COMPONENTS Development)
function(jsched_java_classes target out_dir)
  cmake_parse_arguments(J "" "RELEASE;CLASSPATH;JAVAC" "SOURCES;OPTIONS" ${ARGN})
  if(NOT J_JAVAC)
    set(J_JAVAC ${Java_JAVAC_EXECUTABLE})
  endif()
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}.stamp)
  set(args -nowarn -encoding UTF-8 -d ${out_dir})
  if(J_RELEASE)
    list(APPEND args --release ${J_RELEASE})
  endif()
  if(J_CLASSPATH)
    list(APPEND args -cp ${J_CLASSPATH})
  endif()
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${out_dir}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${J_JAVAC} ${args} ${J_OPTIONS} ${J_SOURCES}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${J_SOURCES}
    COMMENT "javac ${target}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${stamp})
endfunction()
