#include <gtest/gtest.h>

#include "classfile/class_file.h"
#include "classfile/class_source.h"
#include "classfile/opcodes.h"
#include "classfile/roundtrip.h"
#include "tests/support/code_builder.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

struct Count {
  size_t classes = 0, differ = 0, errors = 0;
  std::string first_problem;
};

Count roundtrip_all(const std::string& path) {
  Count c;
  ClassVisitor v;
  v.on_class = [&](const std::string& origin, Bytes b) {
    ++c.classes;
    RoundtripResult r = roundtrip(b);
    if (r.kind == RoundtripResult::Same) return;
    (r.kind == RoundtripResult::Differ ? c.differ : c.errors)++;
    if (c.first_problem.empty()) c.first_problem = origin + ": " + r.message;
  };
  v.on_error = [&](const std::string& origin, const std::string& m) {
    ++c.errors;
    if (c.first_problem.empty()) c.first_problem = origin + ": " + m;
  };
  visit_classes(path, v);
  return c;
}

}  // namespace

TEST(Roundtrip, CompiledFeatureClassesAreByteIdentical) {
  Count c = roundtrip_all(test::data_dir() + "/classfile");
  EXPECT_GE(c.classes, 8u);  // Features and its nested records, enum, interfaces, inner class
  EXPECT_EQ(c.differ, 0u) << c.first_problem;
  EXPECT_EQ(c.errors, 0u) << c.first_problem;
}

TEST(Roundtrip, Release7ClassesAndModuleInfo) {
  Count c = roundtrip_all(test::data_dir() + "/classfile7");
  EXPECT_GE(c.classes, 1u);
  EXPECT_EQ(c.differ + c.errors, 0u) << c.first_problem;
  Count m = roundtrip_all(test::data_dir() + "/classfile-mod");
  EXPECT_EQ(m.classes, 2u);
  EXPECT_EQ(m.differ + m.errors, 0u) << m.first_problem;
}

TEST(Roundtrip, EveryClassOfJavaBase) {
  Count c = roundtrip_all(test::jdk_home() + "/jmods/java.base.jmod");
  EXPECT_GT(c.classes, 5000u);
  EXPECT_EQ(c.differ, 0u) << c.first_problem;
  EXPECT_EQ(c.errors, 0u) << c.first_problem;
}

// Versions 45 to 49 have no StackMapTable and may use jsr/ret; javac 17 cannot produce them.
class OldVersions : public ::testing::TestWithParam<int> {};

TEST_P(OldVersions, JsrRetSubroutineRoundTripsAndDecodes) {
  uint16_t major = uint16_t(GetParam());
  Buffer bytes = test::build_class(major, "Old", "run", "(I)I", acc::kPublic | acc::kStatic,
                                   [](test::CodeBuilder& b) {
                                     Label sub = b.label(), out = b.label(), loop = b.label();
                                     b.limits(2, 3);
                                     b.place(loop).local(op::iload, 0).branch(op::ifle, out);
                                     b.iinc(0, -1).branch(op::jsr, sub).branch(op::goto_, loop);
                                     b.place(out).local(op::iload, 0).op(op::ireturn);
                                     b.place(sub).local(op::astore, 2).iinc(1, 1);
                                     b.local(op::ret, 2);
                                   });
  RoundtripResult r = roundtrip(bytes);
  ASSERT_EQ(r.kind, RoundtripResult::Same) << r.message;
  ClassFile cf = ClassFile::parse(bytes);
  EXPECT_EQ(cf.major, major);
  Code& code = cf.decode_code(cf.methods[0]);
  int jsrs = 0, rets = 0;
  for (const Insn& in : code.insns) {
    jsrs += in.op == op::jsr;
    rets += in.op == op::ret;
  }
  EXPECT_EQ(jsrs, 1);
  EXPECT_EQ(rets, 1);
  EXPECT_EQ(code.find(CodeAttr::StackMap), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Versions45To49, OldVersions, ::testing::Values(45, 46, 47, 48, 49));

TEST(Roundtrip, Version69IsAcceptedAnd70Rejected) {
  auto body = [](test::CodeBuilder& b) { b.limits(0, 0).op(op::return_); };
  for (uint16_t v : {65, 66, 67, 68, 69}) {  // JDK 21 to 25
    Buffer ok = test::build_class(v, "V", "m", "()V", acc::kStatic, body);
    EXPECT_EQ(roundtrip(ok).kind, RoundtripResult::Same) << v;
  }
  Buffer bad = test::build_class(70, "V70", "m", "()V", acc::kStatic, body);
  RoundtripResult r = roundtrip(bad);
  EXPECT_EQ(r.kind, RoundtripResult::Error);
  EXPECT_NE(r.message.find("unsupported class file version 70.0 (supported: 45 to 69)"),
            std::string::npos)
      << r.message;
}
