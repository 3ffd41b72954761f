// The Maven projects under samples/ run as a user runs them: copied to a fresh directory, then
// `mvn -o test` against Debian's repository, on the JDK under test.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/agent_runner.h"
#include "tests/support/test_paths.h"

namespace jsched::test {

// samples/<project> copied into `dir`, then `mvn -o test` with -Djsched.agent set to the
// agent under test (the demo poms put it in argLine) and `extra` arguments.
inline ProcessResult mvn_test(const std::string& project, const TempDir& dir,
                              const std::vector<std::string>& extra = {}) {
  namespace fs = std::filesystem;
  fs::path src = fs::path(JSCHED_SAMPLES_SUITE).parent_path();
  fs::copy(src / project, fs::path(dir.path()) / project,
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  if (project == "maven-demo-junit5") {  // it compiles maven-demo's code
    fs::copy(src / "maven-demo", fs::path(dir.path()) / "maven-demo",
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  // Maven and the JVMs Surefire forks run on the JDK under test.
  std::vector<std::string> argv = {"env",
                                   "JAVA_HOME=" + jdk_home(),
                                   "mvn",
                                   "-o",
                                   "-q",
                                   "-B",
                                   "-Dmaven.repo.local=/usr/share/maven-repo",
                                   "-f",
                                   dir.path() + "/" + project + "/pom.xml",
                                   "-Djsched.agent=" + agent_path(),
                                   "test"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run(argv);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace jsched::test
