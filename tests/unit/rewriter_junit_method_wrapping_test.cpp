// Test methods become executions (rewriter/junit_method_wrapping.h): the annotated instance methods
// of JUnit 4 and 5 keep their name and annotations and call the driver; their body moves.
#include <gtest/gtest.h>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/annotations.h"
#include "rewriter/junit_method_wrapping.h"
#include "tests/support/code_builder.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

// A class with instance methods a(), b(), c(I)V and a static d(), annotated with `type`
// except b().
Buffer test_class(std::string_view type) {
  Buffer b = test::build_class(61, "demo/T", "d", "()V", acc::kStatic | acc::kPublic,
                               [](test::CodeBuilder& c) { c.limits(0, 0).op(op::return_); });
  ClassFile cf = ClassFile::parse(b);
  auto add = [&](std::string_view name, std::string_view desc, uint16_t locals) {
    Member& m = cf.add_method(acc::kPublic, name, desc, true);
    m.code->insns.push_back(Insn::make(op::return_));
    m.code->max_locals = locals;
  };
  add("a", "()V", 1);
  add("b", "()V", 1);
  add("c", "(I)V", 2);
  uint16_t ann = cf.cp.add_utf8(type);
  uint8_t data[] = {0, 1, uint8_t(ann >> 8), uint8_t(ann), 0, 0};
  uint16_t name = cf.cp.add_utf8("RuntimeVisibleAnnotations");
  for (Member& m : cf.methods) {
    if (cf.member_name(m) != "b") m.attrs.push_back(Attribute{name, cf.own(Bytes(data, 6))});
  }
  return cf.write();
}

const Member* find(const ClassFile& cf, std::string_view name) {
  for (const Member& m : cf.methods) {
    if (cf.member_name(m) == name) return &m;
  }
  return nullptr;
}

}  // namespace

TEST(TestMethods, AnnotatedInstanceMethodsCallTheDriverAndKeepTheirAnnotations) {
  for (std::string_view type : {"Lorg/junit/Test;", "Lorg/junit/jupiter/api/Test;"}) {
    Buffer in = test_class(type);
    EXPECT_TRUE(rw::may_have_tests(in));
    ClassFile cf = ClassFile::parse(in);
    ASSERT_EQ(rw::wrap_test_methods(cf), 1u) << type;  // a() only: b unannotated, c, d not ()V
    Buffer written = cf.write();  // the model reads from it: it must outlive `out`
    ClassFile out = ClassFile::parse(written);
    const Member* a = find(out, "a");
    const Member* body = find(out, "jsched$test$a");
    ASSERT_TRUE(a && body);
    EXPECT_TRUE(rw::has_annotation(out, *a, type));
    EXPECT_FALSE(rw::has_annotation(out, *body, type));
    EXPECT_TRUE(a->access & acc::kPublic);
    EXPECT_TRUE(body->access & acc::kPrivate);
    Member copy = *a;
    const Code& code = out.decode_code(copy);
    ASSERT_EQ(code.insns.size(), 4u);
    EXPECT_EQ(code.insns[0].op, op::aload_0);
    EXPECT_EQ(out.cp.utf8(out.cp.at(code.insns[1].u).a), "jsched$test$a");
    EXPECT_EQ(code.insns[2].op, op::invokestatic);
    EXPECT_EQ(out.cp.member_ref(code.insns[2].u).name, "runTest");
    EXPECT_EQ(find(out, "jsched$test$b"), nullptr);
    EXPECT_EQ(find(out, "jsched$test$c"), nullptr);
    EXPECT_EQ(find(out, "jsched$test$d"), nullptr);
    // Wrapping twice changes nothing more.
    EXPECT_EQ(rw::wrap_test_methods(out), 0u);
  }
}

TEST(TestMethods, ClassesWithoutTestAnnotationsAreRecognisedCheaply) {
  Buffer in = test_class("Ljava/lang/Deprecated;");
  EXPECT_FALSE(rw::may_have_tests(in));
  ClassFile cf = ClassFile::parse(in);
  EXPECT_EQ(rw::wrap_test_methods(cf), 0u);
}
