// Where JUnit runs one test with its whole lifecycle, diverted to jsched's driver
// (rewriter/test_runner_entry.h), checked on the JUnit classes Debian ships.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "classfile/zip_reader.h"
#include "rewriter/test_runner_entry.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

std::vector<uint8_t> class_from_jar(const std::string& jar, const std::string& cls) {
  std::vector<uint8_t> data = test::read_file(jar);
  ZipReader zip(Bytes(data.data(), data.size()));
  for (const ZipReader::Entry& e : zip.entries()) {
    if (e.name == cls + ".class") return zip.read(e);
  }
  ADD_FAILURE() << cls << " not in " << jar;
  return {};
}

// The method `name` that is no bridge (Jupiter's execute has one for Node's erased signature).
Member* method(ClassFile& cf, std::string_view name) {
  for (Member& m : cf.methods) {
    if (cf.member_name(m) == name && m.code_attr >= 0 && !(m.access & acc::kBridge)) return &m;
  }
  return nullptr;
}

// The calls a method makes, as "Owner.name".
std::vector<std::string> calls(ClassFile& cf, Member& m) {
  std::vector<std::string> out;
  for (const Insn& in : cf.decode_code(m).insns) {
    if (in.is_label() || (in.op != op::invokevirtual && in.op != op::invokestatic &&
                          in.op != op::invokeinterface && in.op != op::invokespecial))
      continue;
    auto ref = cf.cp.member_ref(in.u);
    out.push_back(std::string(ref.owner) + "." + std::string(ref.name));
  }
  return out;
}

size_t count(const std::vector<std::string>& v, const std::string& s) {
  return size_t(std::count(v.begin(), v.end(), s));
}

}  // namespace

TEST(TestRunnerEntry, Junit4EvaluatesEachTestThroughTheDriver) {
  std::vector<uint8_t> in =
      class_from_jar("/usr/share/java/junit4.jar", std::string(rw::kJunit4Runner));
  ASSERT_FALSE(in.empty());
  ASSERT_TRUE(rw::is_test_runner_entry(rw::kJunit4Runner));
  Buffer out = rw::divert_test_runner_entry(Bytes(in.data(), in.size()));
  ClassFile cf = ClassFile::parse(out);
  Member* leaf = method(cf, "runLeaf");
  ASSERT_NE(leaf, nullptr);
  std::vector<std::string> c = calls(cf, *leaf);
  EXPECT_EQ(count(c, "java/lang/JSchedShim.runJunit4Test"), 1u);
  EXPECT_EQ(count(c, "org/junit/runners/model/Statement.evaluate"), 0u);
}

TEST(TestRunnerEntry, JupiterExecutesEachTestThroughTheDriver) {
  std::vector<uint8_t> in = class_from_jar("/usr/share/java/junit-jupiter-engine.jar",
                                           std::string(rw::kJupiterTestMethod));
  ASSERT_FALSE(in.empty());
  Buffer out = rw::divert_test_runner_entry(Bytes(in.data(), in.size()));
  ClassFile cf = ClassFile::parse(out);
  Member* execute = method(cf, "execute");
  Member* original = method(cf, "jsched$execute");
  Member* prepare = method(cf, "prepare");
  ASSERT_TRUE(execute && original && prepare);
  EXPECT_EQ(cf.member_desc(*execute), cf.member_desc(*original));
  EXPECT_EQ(calls(cf, *execute), std::vector<std::string>{"java/lang/JSchedShim.runJupiterTest"});
  // prepare keeps its parent context first, then does what it did.
  const Code& pc = cf.decode_code(*prepare);
  ASSERT_GE(pc.insns.size(), 3u);
  EXPECT_EQ(pc.insns[2].op, op::putfield);
  EXPECT_EQ(cf.cp.member_ref(pc.insns[2].u).name, "jsched$parent");
}

TEST(TestRunnerEntry, Junit3RunsEachTestThroughTheDriver) {
  std::vector<uint8_t> in =
      class_from_jar("/usr/share/java/junit4.jar", std::string(rw::kJunit3TestCase));
  ASSERT_FALSE(in.empty());
  ASSERT_TRUE(rw::is_test_runner_entry(rw::kJunit3TestCase));
  Buffer out = rw::divert_test_runner_entry(Bytes(in.data(), in.size()));
  ClassFile cf = ClassFile::parse(out);
  Member* bare = method(cf, "runBare");
  Member* original = method(cf, "jsched$runBare");
  ASSERT_TRUE(bare && original);
  EXPECT_EQ(cf.member_desc(*bare), "()V");
  EXPECT_TRUE(bare->access & acc::kPublic);
  EXPECT_EQ(calls(cf, *bare), std::vector<std::string>{"java/lang/JSchedShim.runJunit3Test"});
  // The original keeps set-up, the test and tear-down, and the driver can call it.
  std::vector<std::string> c = calls(cf, *original);
  EXPECT_EQ(count(c, "junit/framework/TestCase.setUp"), 1u);
  EXPECT_EQ(count(c, "junit/framework/TestCase.runTest"), 1u);
  EXPECT_TRUE(original->access & acc::kPublic);
}

TEST(TestRunnerEntry, AnUnknownShapeIsRefused) {
  ClassFile cf = ClassFile::create(52, std::string(rw::kJunit4Runner), "java/lang/Object");
  Buffer b = cf.write();
  EXPECT_THROW(rw::divert_test_runner_entry(b), std::exception);
  ClassFile j3 = ClassFile::create(52, std::string(rw::kJunit3TestCase), "java/lang/Object");
  Buffer b3 = j3.write();
  EXPECT_THROW(rw::divert_test_runner_entry(b3), std::exception);
}
