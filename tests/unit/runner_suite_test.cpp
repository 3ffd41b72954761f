// Suite files (docs/runner.md, "Suites"): what a suite says reaches each program and
// strategy, and a malformed one is refused with its file and line before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runner/batch/suite.h"

using namespace jsched::runner;
namespace fs = std::filesystem;

namespace {

std::string write_suite(const std::string& name, const std::string& xml) {
  fs::path dir = fs::path(testing::TempDir()) / "suite_test";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p) << xml;
  return p.string();
}

// The SuiteError text of loading `xml`, or "" when it loads.
std::string error_of(const std::string& xml) {
  try {
    Suite::load(write_suite("bad.xml", xml));
    return "";
  } catch (const SuiteError& e) {
    return e.what();
  }
}

}  // namespace

TEST(Suite, EveryAttributeReachesItsProgramAndStrategy) {
  std::string path =
      write_suite("s.xml", R"(<suite name="demo" runs="7" repetitions="2" timeout="3000">
  <classpath>classes</classpath>
  <jvm-args>-ea</jvm-args>
  <strategy name="random"/>
  <strategy name="pct" label="pct-d2" params="depth=2" runs="4"/>
  <program name="a" main="p.A" expect="bug" finding="AssertionError"/>
  <program name="b" main="p.B" expect="none" args="3 100" jvm-args="-Xss512k"
           classpath="other" timeout="20000" runs="9" params="accesses=all"/>
</suite>
)");
  Suite s = Suite::load(path);
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.runs, 7u);
  EXPECT_EQ(s.repetitions, 2u);
  EXPECT_EQ(s.timeout_ms, 3000u);
  ASSERT_EQ(s.strategies.size(), 2u);
  EXPECT_EQ(s.strategies[0].label, "random");
  EXPECT_EQ(s.strategies[1].label, "pct-d2");
  EXPECT_EQ(s.strategies[1].name, "pct");
  EXPECT_EQ(s.strategies[1].params, "depth=2");
  EXPECT_EQ(s.strategies[1].runs, 4u);
  ASSERT_EQ(s.programs.size(), 2u);
  const SuiteProgram& a = s.programs[0];
  EXPECT_EQ(a.main, "p.A");
  EXPECT_EQ(a.expect, "bug");
  EXPECT_EQ(a.finding, "AssertionError");
  // A relative class path is relative to the suite file.
  EXPECT_EQ(fs::path(a.classpath), fs::path(path).parent_path() / "classes");
  const SuiteProgram& b = s.programs[1];
  EXPECT_EQ(b.args, (std::vector<std::string>{"3", "100"}));
  EXPECT_EQ(b.jvm_args.back(), "-Xss512k");
  EXPECT_EQ(fs::path(b.classpath), fs::path(path).parent_path() / "other");
  EXPECT_EQ(b.timeout_ms, 20000u);
  EXPECT_EQ(b.runs, 9u);
  EXPECT_EQ(b.params, "accesses=all");
  // The matrix: programs x strategies x repetitions x runs (a strategy's own runs first, then
  // the program's, then the suite's).
  std::vector<RunSpec> specs = s.specs(1);
  EXPECT_EQ(specs.size(), size_t(2 * (7 + 4) + 2 * (9 + 4)));
}

TEST(Suite, MalformedSuitesAreRefusedWithFileAndLine) {
  struct Case {
    std::string xml, says;
  } cases[] = {
      {"<suite", "bad.xml:"},
      {"<notasuite/>", "bad.xml:1"},
      {"<suite>\n<strategy name=\"random\"/>\n</suite>", "program"},
      {"<suite>\n<strategy name=\"random\"/>\n<program name=\"a\" expect=\"bug\"/>\n</suite>",
       "bad.xml:3"},
      {"<suite>\n<strategy name=\"random\"/>\n<program name=\"a\" main=\"A\" expect=\"maybe\"/>"
       "\n</suite>",
       "bad.xml:3"},
      {"<suite runs=\"0\">\n<strategy name=\"random\"/>\n<program name=\"a\" main=\"A\"/>\n"
       "</suite>",
       "runs"},
      {"<suite>\n<strategy name=\"nosuch\"/>\n<program name=\"a\" main=\"A\"/>\n</suite>",
       "bad.xml:2"},
      {"<suite>\n<classpath>c</classpath>\n<strategy name=\"pct\" params=\"depth=zero\"/>\n"
       "<program name=\"a\" main=\"A\"/>\n</suite>",
       "depth"},
      {"<suite>\n<strategy name=\"random\"/>\n<program name=\"a\" main=\"A\"/>\n</suite>",
       "no classpath"},
  };
  for (const Case& c : cases) {
    std::string e = error_of(c.xml);
    EXPECT_NE(e.find(c.says), std::string::npos) << c.xml << "\n=> " << e;
  }
}
