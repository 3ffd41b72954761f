# `cpack -G DEB` in the build folder: a Debian package of what `cmake --install` installs
# (bin/jsched, lib/jsched/libjsched.so, the samples jar and suite, the docs) under /usr. The
# libraries the runner links come from dpkg-shlibdeps; the agent needs a Java 17 runtime,
# which no shared-library dependency can say.
set(CPACK_PACKAGE_NAME jsched)
set(CPACK_PACKAGE_VENDOR "jsched")
set(CPACK_PACKAGE_CONTACT "jsched developers <jsched@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "finds concurrency bugs in Java programs by controlling the thread scheduler")
set(CPACK_PACKAGE_DESCRIPTION "A JVMTI agent (libjsched.so) rewrites classes as they load so that \
every synchronization operation asks a native scheduler for permission; the jsched runner \
drives thousands of seeded, replayable executions and reports what it found.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openjdk-17-jre-headless | java17-runtime-headless")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
include(CPack)
