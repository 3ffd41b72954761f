// Where the build put test inputs, and small file helpers shared by the unit tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace jsched::test {

inline std::string data_dir() {
  return JSCHED_TEST_DATA_DIR;
}  // build/tests/data
// The JDK whose java and javac the tests run: $JSCHED_TEST_JDK when set (the test command runs
// the integration tests once per JDK it finds), else the JDK that built jsched.
inline std::string jdk_home() {
  const char* other = std::getenv("JSCHED_TEST_JDK");
  return other != nullptr && *other != '\0' ? other : JSCHED_JDK_HOME;
}

// The feature version of that JDK (17, 25, ...), from its release file; 0 when unknown.
inline int jdk_feature() {
  std::ifstream in(jdk_home() + "/release");
  const std::string key = "JAVA_VERSION=\"";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::atoi(line.c_str() + key.size());
  return 0;
}

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const std::string& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), std::streamsize(n));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace jsched::test
