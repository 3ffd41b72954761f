#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "classfile/class_source.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

struct Visit {
  std::vector<std::string> classes;
  std::vector<std::string> errors;
};

Visit visit(const std::string& path) {
  Visit out;
  ClassVisitor v;
  v.on_class = [&](const std::string& origin, Bytes b) {
    EXPECT_GE(b.size(), 10u);
    EXPECT_EQ(b[0], 0xCA);
    out.classes.push_back(origin);
  };
  v.on_error = [&](const std::string& origin, const std::string& m) {
    out.errors.push_back(origin + ": " + m);
  };
  visit_classes(path, v);
  return out;
}

std::string tmp_file(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + name)).string();
}

}  // namespace

TEST(Archive, JarHoldsTheSameClassesAsTheDirectory) {
  Visit dir = visit(test::data_dir() + "/classfile");
  Visit jar = visit(test::data_dir() + "/archives/features.jar");
  EXPECT_TRUE(dir.errors.empty());
  EXPECT_TRUE(jar.errors.empty()) << jar.errors[0];
  EXPECT_EQ(dir.classes.size(), jar.classes.size());
  ASSERT_FALSE(jar.classes.empty());
  EXPECT_NE(jar.classes[0].find("features.jar!"), std::string::npos);
}

TEST(Archive, JmodSkipsItsHeaderAndReadsClasses) {
  Visit jm = visit(test::data_dir() + "/archives/demo.jmod");
  EXPECT_TRUE(jm.errors.empty());
  ASSERT_EQ(jm.classes.size(), 2u);  // module-info and demo/Api
  EXPECT_NE(jm.classes[0].find("!classes/"), std::string::npos);
}

TEST(Archive, MissingPathIsAnError) {
  Visit v = visit("/nonexistent/path.jar");
  ASSERT_EQ(v.errors.size(), 1u);
  EXPECT_NE(v.errors[0].find("no such file"), std::string::npos);
}

TEST(Archive, CorruptAndTruncatedArchivesAreReportedNotFatal) {
  std::vector<uint8_t> jar = test::read_file(test::data_dir() + "/archives/features.jar");
  // Truncated: the central directory is gone.
  std::string cut = tmp_file("cut.jar");
  test::write_file(cut, jar.data(), jar.size() / 2);
  Visit a = visit(cut);
  EXPECT_EQ(a.errors.size(), 1u);
  EXPECT_TRUE(a.classes.empty());
  // Damaged entry data: CRC or inflate error for that entry; the others are still read.
  std::vector<uint8_t> bad = jar;
  for (size_t i = 200; i < 260 && i < bad.size(); ++i) bad[i] ^= 0x5a;
  std::string dmg = tmp_file("dmg.jar");
  test::write_file(dmg, bad.data(), bad.size());
  Visit b = visit(dmg);
  EXPECT_GE(b.errors.size(), 1u);
  EXPECT_GE(b.classes.size() + b.errors.size(), 2u);
  // Not a jmod.
  std::string fake = tmp_file("fake.jmod");
  test::write_file(fake, "PK", 2);
  Visit c = visit(fake);
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_NE(c.errors[0].find("not a jmod"), std::string::npos);
  std::remove(cut.c_str());
  std::remove(dmg.c_str());
  std::remove(fake.c_str());
}
