// The safety net behind rewriting (rewriter/rewrite_check.h): each rule the JVM applies to what
// jsched changes is caught on a class that breaks it, and no class javac or the JDK made is
// refused (every method of java.base decoded and checked).
#include <gtest/gtest.h>

#include <string>

#include "classfile/class_file.h"
#include "classfile/class_source.h"
#include "classfile/opcodes.h"
#include "rewriter/rewrite_check.h"
#include "tests/support/code_builder.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

// The class's every method decoded (as the rewriter leaves the methods it touched), checked.
std::string check_all(Bytes bytes) {
  ClassFile cf = ClassFile::parse(bytes);
  cf.decode_all_code();
  return rw::check_rewritten(cf);
}

std::string check_all(const Buffer& b) {
  return check_all(Bytes(b.data(), b.size()));
}

// A class of version `major` whose static method `m` runs `body`.
Buffer one_method(uint16_t major, const std::function<void(test::CodeBuilder&)>& body,
                  uint16_t class_access = acc::kPublic | acc::kSuper,
                  uint16_t method_access = acc::kPublic | acc::kStatic) {
  ClassFile cf = ClassFile::create(major, "C", "java/lang/Object");
  cf.access = class_access;
  Member& m = cf.add_method(method_access, "m", "()V", true);
  test::CodeBuilder b(cf, m);
  body(b);
  return cf.write();
}

bool has(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

}  // namespace

// What broke hamcrest's Description: a static call through an InterfaceMethodref in a class
// before Java 8.
TEST(RewriteCheck, InterfaceMethodrefsInStaticCallsNeedJava8) {
  for (uint16_t major : {51, 52}) {
    ClassFile cf = ClassFile::create(major, "C", "java/lang/Object");
    Member& m = cf.add_method(acc::kPublic | acc::kStatic, "m", "()V", true);
    test::CodeBuilder b(cf, m);
    const uint16_t ref = cf.cp.add_member(Tag::InterfaceMethodref, "I", "s", "()V");
    b.limits(0, 0).code().insns.push_back(Insn::make(op::invokestatic, ref));
    b.op(op::return_);
    std::string why = check_all(cf.write());
    if (major == 51) {
      EXPECT_TRUE(has(why, "invokestatic names constant")) << why;
      EXPECT_TRUE(has(why, "InterfaceMethodref")) << why;
    } else {
      EXPECT_EQ(why, "");
    }
  }
}

TEST(RewriteCheck, ConstantKindsFollowTheVersion) {
  auto ldc_class = [](test::CodeBuilder& b) {
    b.limits(1, 0).type(op::ldc_w, "java/lang/String").op(op::pop).op(op::return_);
  };
  EXPECT_TRUE(has(check_all(one_method(48, ldc_class)), "ldc_w names constant")) << "before 49";
  EXPECT_EQ(check_all(one_method(49, ldc_class)), "");
}

TEST(RewriteCheck, InterfacesBeforeJava8HoldOnlyAbstractMethodsAndTheirInitializer) {
  auto ret = [](test::CodeBuilder& b) { b.limits(0, 0).op(op::return_); };
  const uint16_t iface = acc::kPublic | acc::kInterface | acc::kAbstract;
  std::string why = check_all(one_method(51, ret, iface));
  EXPECT_TRUE(has(why, "not allowed in an interface of version 51")) << why;
  EXPECT_EQ(check_all(one_method(52, ret, iface)), "") << "Java 8: static interface methods";
  EXPECT_TRUE(has(check_all(one_method(52, ret, iface, acc::kStatic)), "access flags"))
      << "neither public nor private";
}

TEST(RewriteCheck, SubroutinesAndMissingFramesFromVersion51On) {
  auto jump = [](test::CodeBuilder& b) {
    Label l = b.label();
    b.limits(0, 0).branch(op::goto_, l).place(l).op(op::return_);
  };
  EXPECT_EQ(check_all(one_method(50, jump)), "") << "50 falls back to the old verifier";
  EXPECT_TRUE(has(check_all(one_method(51, jump)), "no stack map frame at a branch target"));
  auto subroutine = [](test::CodeBuilder& b) {
    Label s = b.label();
    b.limits(1, 1).branch(op::jsr, s).op(op::return_);
    b.place(s).local(op::astore, 0).local(op::ret, 0);
  };
  EXPECT_EQ(check_all(one_method(49, subroutine)), "");
  EXPECT_TRUE(has(check_all(one_method(51, subroutine)), "jsr in a class of version 51"));
}

// A frame naming an uninitialized object by a label that is not at its `new` (what statics
// reset did to guice and httpcore).
TEST(RewriteCheck, AnUninitializedObjectIsNamedByItsNew) {
  std::vector<uint8_t> bytes = test::read_file(test::data_dir() + "/agent/UninitFrames.class");
  ClassFile cf = ClassFile::parse(bytes);
  cf.decode_all_code();
  EXPECT_EQ(rw::check_rewritten(cf), "");
  bool moved = false;
  for (Member& m : cf.methods) {
    if (cf.member_name(m) != "make") continue;
    CodeAttr* frames = m.code->find(CodeAttr::StackMap);
    ASSERT_NE(frames, nullptr);
    for (Frame& f : frames->frames) {
      for (VType& t : f.stack) {
        if (t.tag == VType::Uninitialized) {
          t.label = f.at;  // the frame's own position: a load, not the `new`
          moved = true;
        }
      }
    }
  }
  ASSERT_TRUE(moved) << "UninitFrames.make has frames with an uninitialized Box";
  EXPECT_TRUE(has(rw::check_rewritten(cf), "uninitialized object is not at a new"));
}

// No false alarm: every class of java.base, the test classes and the Java 7 ones pass with
// every method decoded.
TEST(RewriteCheck, EveryClassJavacAndTheJdkMadePasses) {
  size_t classes = 0;
  std::string first;
  ClassVisitor v;
  v.on_class = [&](const std::string& origin, Bytes b) {
    ++classes;
    std::string why = check_all(b);
    if (!why.empty() && first.empty()) first = origin + ": " + why;
  };
  v.on_error = [&](const std::string& origin, const std::string& m) {
    if (first.empty()) first = origin + ": " + m;
  };
  for (const char* dir : {"/classfile", "/classfile7", "/legacy", "/agent", "/rewriter"})
    visit_classes(test::data_dir() + dir, v);
  visit_classes(std::string(JSCHED_JDK_HOME) + "/jmods/java.base.jmod", v);
  EXPECT_GT(classes, 5000u);
  EXPECT_EQ(first, "");
}

// Groovy's dead code inside a handler's range: its frame has no locals, the handler's frame
// has `this`: the type checker refuses the class, and so does the check.
TEST(RewriteCheck, AHandlerCoversNoFrameThatLacksItsLocals) {
  for (bool dead_frame_has_this : {false, true}) {
    ClassFile cf = ClassFile::create(52, "C", "java/lang/Object");
    Member& m = cf.add_method(acc::kPublic, "m", "()V", true);
    test::CodeBuilder b(cf, m);
    Label start = b.label(), dead = b.label(), handler = b.label();
    b.limits(2, 1).place(start).type(op::new_, "java/lang/IllegalStateException").op(op::dup);
    b.invoke(op::invokespecial, "java/lang/IllegalStateException", "<init>", "()V");
    b.op(op::athrow).place(dead).op(op::athrow).place(handler).op(op::athrow);
    b.handler(start, handler, handler);
    CodeAttr& smt = b.code().attrs.emplace_back(b.code().resource());
    smt.kind = CodeAttr::StackMap;
    smt.name = cf.cp.add_utf8("StackMapTable");
    const VType self{VType::Object, cf.this_class, kNoLabel};
    const VType thrown{VType::Object, cf.cp.add_class("java/lang/Throwable"), kNoLabel};
    for (Label at : {dead, handler}) {
      Frame& f = smt.frames.emplace_back(b.code().resource());
      f.type = 255;
      f.at = at;
      if (at == handler || dead_frame_has_this) f.locals.push_back(self);
      f.stack.push_back(thrown);
    }
    std::string why = check_all(cf.write());
    if (dead_frame_has_this)
      EXPECT_EQ(why, "");
    else
      EXPECT_TRUE(has(why, "a handler's frame has local 0, which a frame in its range lacks"))
          << why;
  }
}
