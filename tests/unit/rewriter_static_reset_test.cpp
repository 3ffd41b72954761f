// The rewriting behind clean statics in one JVM (rewriter/static_reset.h), checked on the class
// files the integration tests run (tests/data/java/agent/StaticsReset.java, StaticsFallback.java).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/class_rewriter.h"
#include "tests/support/code_builder.h"
#include "tests/support/rewrite_helpers.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

rw::RewriteConfig reset_config() {
  rw::RewriteConfig c = test::test_config(true);
  c.static_reset = true;
  return c;
}

rw::RewriteResult rewrite(const std::vector<uint8_t>& bytes) {
  test::RecordingSink sink;
  return rw::rewrite_class(bytes, reset_config(), sink);
}

const Member* method(const ClassFile& cf, std::string_view name) {
  for (const Member& m : cf.methods) {
    if (cf.member_name(m) == name) return &m;
  }
  return nullptr;
}

const Member* field(const ClassFile& cf, std::string_view name) {
  for (const Member& f : cf.fields) {
    if (cf.member_name(f) == name) return &f;
  }
  return nullptr;
}

std::vector<uint8_t> agent_class(const std::string& name) {
  return test::read_file(test::data_dir() + "/agent/" + name + ".class");
}

}  // namespace

TEST(StaticReset, TheInitializerBecomesAMethodBehindAStampAndStaticsLoseFinal) {
  std::vector<uint8_t> in = agent_class("StaticsReset");
  rw::RewriteResult r = rewrite(in);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  EXPECT_EQ(r.not_resettable, "");
  ClassFile out = ClassFile::parse(r.bytes);
  const Member* body = method(out, "jsched$clinit");
  const Member* check = method(out, "jsched$check");
  const Member* clinit = method(out, "<clinit>");
  ASSERT_TRUE(body && check && clinit);
  EXPECT_EQ(body->access, acc::kPrivate | acc::kStatic | acc::kSynthetic);
  const Member* stamp = field(out, "jsched$gen");
  ASSERT_TRUE(stamp);
  EXPECT_EQ(out.member_desc(*stamp), "I");
  // `static final List<String> EVENTS` is assigned again by jsched$clinit.
  ClassFile original = ClassFile::parse(in);
  ASSERT_TRUE(field(original, "EVENTS")->access & acc::kFinal);
  EXPECT_FALSE(field(out, "EVENTS")->access & acc::kFinal);
  // The new <clinit> stamps, then calls the body.
  Code& c = out.decode_code(const_cast<Member&>(*clinit));
  ASSERT_GE(c.insns.size(), 3u);
  EXPECT_EQ(c.insns[0].op, op::getstatic);
  EXPECT_EQ(out.cp.member_ref(c.insns[0].u).owner, "java/lang/JSchedStatics");
  EXPECT_EQ(c.insns[1].op, op::putstatic);
  EXPECT_EQ(out.cp.member_ref(c.insns[1].u).name, "jsched$gen");
  EXPECT_EQ(out.cp.member_ref(c.insns[2].u).name, "jsched$clinit");
}

TEST(StaticReset, StaticMethodsCheckOnEntryAndOtherClassesStaticsAreTouchedFirst) {
  rw::RewriteResult r = rewrite(agent_class("StaticsReset"));
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  ClassFile out = ClassFile::parse(r.bytes);
  Member& main = const_cast<Member&>(*method(out, "main"));
  Code& c = out.decode_code(main);
  ASSERT_FALSE(c.insns.empty());
  EXPECT_EQ(c.insns[0].op, op::invokestatic);
  EXPECT_EQ(out.cp.member_ref(c.insns[0].u).name, "jsched$check");
  size_t touched = 0, others = 0;
  std::map<std::string, std::string> touches;  // owner -> touch method
  for (size_t i = 0; i < c.insns.size(); ++i) {
    const Insn& in = c.insns[i];
    if (in.is_label() || (in.op != op::getstatic && in.op != op::putstatic && in.op != op::new_))
      continue;
    std::string_view owner =
        in.op == op::new_ ? out.cp.class_name(in.u) : out.cp.member_ref(in.u).owner;
    if (owner == "StaticsReset" || owner.substr(0, 5) == "java/") continue;
    ++others;
    // The class's touch method for that owner right before it, which asks JSchedStatics.
    ASSERT_GE(i, 1u);
    const Insn& call = c.insns[i - 1];
    ASSERT_EQ(call.op, op::invokestatic) << owner;
    std::string_view touch = out.cp.member_ref(call.u).name;
    ASSERT_EQ(touch.substr(0, 13), "jsched$touch$") << owner;
    touches.emplace(std::string(owner), std::string(touch));
    ++touched;
  }
  EXPECT_GT(others, 3u);  // Holder, Sub, Color, Flaky
  EXPECT_EQ(touched, others);
  // One touch method per owner, each asking JSchedStatics.touch(Owner.class).
  for (const auto& [owner, name] : touches) {
    const Member* t = method(out, name);
    ASSERT_TRUE(t) << name;
    Code& tc = out.decode_code(const_cast<Member&>(*t));
    bool asks = false;
    for (size_t k = 1; k < tc.insns.size(); ++k) {
      const Insn& in = tc.insns[k];
      const Insn& before = tc.insns[k - 1];
      if (!in.is_label() && in.op == op::invokestatic && out.cp.member_ref(in.u).name == "touch" &&
          !before.is_label() && (before.op == op::ldc || before.op == op::ldc_w))
        asks |= out.cp.class_name(before.u) == owner;
    }
    EXPECT_TRUE(asks) << name << " " << owner;
  }
}

TEST(StaticReset, WhatCannotBeResetSaysWhy) {
  // An interface's static fields are final: its initializer cannot run again.
  rw::RewriteResult r = rewrite(agent_class("StaticsFallback$Registry"));
  EXPECT_NE(r.not_resettable.find("interface with a static initializer"), std::string::npos)
      << r.not_resettable;
  // Checks need `ldc Class` (version 49).
  Buffer old = test::build_class(48, "Old", "m", "()V", acc::kStatic,
                                 [](test::CodeBuilder& c) { c.limits(0, 0).op(op::return_); });
  rw::RewriteResult o = rewrite(std::vector<uint8_t>(old.begin(), old.end()));
  EXPECT_NE(o.not_resettable.find("version 48"), std::string::npos) << o.not_resettable;
}
