// javac itself, every class instrumented (JDK included, field and array
// accesses too) and every class verified, compiles sources to byte-identical output.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/integration/agent_runner.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;

TEST(Javac, FullyInstrumentedAndVerifiedJavacCompilesIdentically) {
  std::vector<std::string> sources;
  for (const char* dir : {"rewriter", "agent", "classfile"}) {
    for (const auto& e : fs::directory_iterator(std::string(JSCHED_TEST_SOURCES) + "/" + dir)) {
      if (e.path().extension() == ".java") sources.push_back(e.path().string());
    }
  }
  ASSERT_GE(sources.size(), 6u);
  test::TempDir plain, instrumented;
  std::string javac = test::jdk_home() + "/bin/javac";
  // Java 17's API on every JDK: some sources call what later JDKs removed (Thread.suspend).
  std::vector<std::string> a = {javac, "--release", "17", "-d", plain.path()};
  a.insert(a.end(), sources.begin(), sources.end());
  test::ProcessResult p = test::run(a);
  ASSERT_EQ(p.status, 0) << p.err;
  std::vector<std::string> b = {
      javac,
      "-J-agentpath:" + test::agent_path() + "=strategy=none,include=*,accesses=all,verbose",
      "-J-XX:+UnlockDiagnosticVMOptions",
      "-J-XX:+BytecodeVerificationLocal",
      "-J-XX:+BytecodeVerificationRemote",
      "--release",
      "17",
      "-d",
      instrumented.path()};
  b.insert(b.end(), sources.begin(), sources.end());
  test::ProcessResult q = test::run(b);
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(q.out, p.out);
  EXPECT_EQ(test::count_lines(q.err, "warning"), 0) << q.err;
  EXPECT_EQ(q.err.find("VerifyError"), std::string::npos) << q.err;
  // The agent really instrumented the JDK: hundreds of classes, millions of hook calls.
  size_t at = q.err.find("classes instrumented: ");
  ASSERT_NE(at, std::string::npos) << q.err;
  EXPECT_GT(std::stol(q.err.substr(at + 22)), 500) << q.err;
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(plain.path())) {
    if (!e.is_regular_file()) continue;
    ++files;
    fs::path rel = fs::relative(e.path(), plain.path());
    fs::path other = fs::path(instrumented.path()) / rel;
    ASSERT_TRUE(fs::exists(other)) << rel;
    EXPECT_EQ(test::read_file(e.path().string()), test::read_file(other.string())) << rel;
  }
  EXPECT_GE(files, 10u);
}
