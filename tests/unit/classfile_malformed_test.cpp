// Malformed input: every error is a ParseError naming the byte offset and the problem; nothing
// crashes or reads out of bounds (this file also runs under ASan/UBSan).
#include <gtest/gtest.h>

#include <random>

#include "classfile/class_file.h"
#include "classfile/code_codec.h"
#include "classfile/opcodes.h"
#include "classfile/roundtrip.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

namespace {

// Byte-level class assembler: a class `C` with one static method `m()V` whose Code body is
// given raw, so each test can break exactly one thing and knows its offset.
struct RawClass {
  std::vector<uint8_t> b;
  void u1(uint32_t v) { b.push_back(uint8_t(v)); }
  void u2(uint32_t v) {
    u1(v >> 8);
    u1(v);
  }
  void u4(uint32_t v) {
    u2(v >> 16);
    u2(v);
  }
  void utf8(const std::string& s) {
    u1(1);
    u2(uint32_t(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
};

struct Spec {
  uint16_t major = 52;
  std::vector<uint8_t> code = {op::return_};
  std::vector<uint8_t> exceptions;  // raw entries (8 bytes each)
  std::vector<uint8_t> code_attrs;  // raw attributes, count given separately
  uint16_t n_code_attrs = 0;
  std::vector<uint8_t> extra_cp;  // raw extra entries appended after the fixed ones
  uint16_t n_extra_cp = 0;
  std::vector<uint8_t> trailer;  // bytes after the class
};

// Fixed pool: 1 Utf8 C, 2 Class #1, 3 Utf8 java/lang/Object, 4 Class #3, 5 Utf8 m, 6 Utf8 ()V,
// 7 Utf8 Code, 8 Utf8 StackMapTable, 9 Utf8 LineNumberTable, 10 Methodref #4.#11,
// 11 NameAndType #5.#6; extra entries start at 12.
struct Built {
  std::vector<uint8_t> bytes;
  size_t code_at = 0;  // offset of the first bytecode byte
  size_t cp_at = 0;    // offset of constant 1
};

Built build(const Spec& s) {
  RawClass r;
  Built out;
  r.u4(0xCAFEBABE);
  r.u2(0);
  r.u2(s.major);
  r.u2(12 + s.n_extra_cp);
  out.cp_at = r.b.size();
  r.utf8("C");
  r.u1(7), r.u2(1);
  r.utf8("java/lang/Object");
  r.u1(7), r.u2(3);
  r.utf8("m");
  r.utf8("()V");
  r.utf8("Code");
  r.utf8("StackMapTable");
  r.utf8("LineNumberTable");
  r.u1(10), r.u2(4), r.u2(11);
  r.u1(12), r.u2(5), r.u2(6);
  r.b.insert(r.b.end(), s.extra_cp.begin(), s.extra_cp.end());
  r.u2(0x21), r.u2(2), r.u2(4), r.u2(0), r.u2(0);  // access, this, super, interfaces, fields
  r.u2(1);                                         // methods
  r.u2(0x9), r.u2(5), r.u2(6), r.u2(1);            // public static m()V, 1 attribute
  r.u2(7);
  r.u4(uint32_t(2 + 2 + 4 + s.code.size() + 2 + s.exceptions.size() + 2 + s.code_attrs.size()));
  r.u2(4), r.u2(4);  // max_stack, max_locals
  r.u4(uint32_t(s.code.size()));
  out.code_at = r.b.size();
  r.b.insert(r.b.end(), s.code.begin(), s.code.end());
  r.u2(uint32_t(s.exceptions.size() / 8));
  r.b.insert(r.b.end(), s.exceptions.begin(), s.exceptions.end());
  r.u2(s.n_code_attrs);
  r.b.insert(r.b.end(), s.code_attrs.begin(), s.code_attrs.end());
  r.u2(0);  // class attributes
  r.b.insert(r.b.end(), s.trailer.begin(), s.trailer.end());
  out.bytes = std::move(r.b);
  return out;
}

// Parses and decodes; returns the error (empty if none).
struct Failure {
  bool failed = false;
  size_t offset = 0;
  std::string message;
};

Failure decode(const std::vector<uint8_t>& bytes) {
  try {
    ClassFile cf = ClassFile::parse(bytes);
    cf.decode_all_code();
    cf.write();
    return {};
  } catch (const ParseError& e) {
    return {true, e.offset(), e.what()};
  }
}

void expect_error(const Spec& s, const std::string& phrase, long offset_from_code = -1000000) {
  Built b = build(s);
  Failure f = decode(b.bytes);
  ASSERT_TRUE(f.failed) << "expected an error containing '" << phrase << "'";
  EXPECT_NE(f.message.find(phrase), std::string::npos) << f.message;
  EXPECT_LE(f.offset, b.bytes.size());
  if (offset_from_code != -1000000) {
    EXPECT_EQ(long(f.offset), long(b.code_at) + offset_from_code) << f.message;
  }
}

}  // namespace

TEST(Malformed, TheValidBaseClassDecodesAndRoundTrips) {
  Built b = build(Spec{});
  EXPECT_FALSE(decode(b.bytes).failed) << decode(b.bytes).message;
  EXPECT_EQ(roundtrip(b.bytes).kind, RoundtripResult::Same);
}

TEST(Malformed, HeaderErrors) {
  Built b = build(Spec{});
  std::vector<uint8_t> bad = b.bytes;
  bad[0] = 0xCB;
  Failure f = decode(bad);
  EXPECT_TRUE(f.failed);
  EXPECT_EQ(f.offset, 0u);
  EXPECT_NE(f.message.find("bad magic"), std::string::npos);
  Spec old;
  old.major = 44;
  expect_error(old, "unsupported class file version 44");
  Spec trailing;
  trailing.trailer = {0, 0, 0};
  expect_error(trailing, "3 extra bytes");
}

TEST(Malformed, ConstantPoolErrors) {
  Spec tag;
  tag.extra_cp = {2, 0, 0};  // tag 2 does not exist
  tag.n_extra_cp = 1;
  expect_error(tag, "unknown constant pool tag 2");
  Spec ref;
  ref.extra_cp = {7, 0, 2};  // Class pointing at a Class
  ref.n_extra_cp = 1;
  expect_error(ref, "refers to index 2, which is Class");
  Spec last;
  last.extra_cp = {5, 0, 0, 0, 0, 0, 0, 0, 1};  // Long in the final slot
  last.n_extra_cp = 1;
  expect_error(last, "8-byte constant in the last pool slot");
  Spec indy;
  indy.major = 50;  // InvokeDynamic needs 51
  indy.extra_cp = {18, 0, 0, 0, 11};
  indy.n_extra_cp = 1;
  expect_error(indy, "InvokeDynamic constant needs class version 51");
  Spec mh;
  mh.extra_cp = {15, 10, 0, 10};  // reference kind 10
  mh.n_extra_cp = 1;
  mh.major = 52;
  expect_error(mh, "MethodHandle reference kind 10");
}

TEST(Malformed, InstructionErrorsNameTheBytecodeOffset) {
  Spec invalid;
  invalid.code = {op::nop, 0xcb};
  expect_error(invalid, "invalid opcode 0xcb", 1);
  Spec truncated;
  truncated.code = {op::nop, op::sipush, 1};
  expect_error(truncated, "truncated sipush", 1);
  Spec mid;
  mid.code = {op::goto_, 0, 4, op::sipush, 0, 1, op::return_};  // lands inside sipush
  expect_error(mid, "not the start of an instruction", 0);
  Spec outside;
  outside.code = {op::goto_, 0x7f, 0, op::return_};
  expect_error(outside, "outside the code", 0);
  Spec wide;
  wide.code = {op::wide, op::nop, op::return_};
  expect_error(wide, "wide prefix before nop", 0);
  Spec table;
  table.code = {op::tableswitch, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 5, 0, 0, 0, 1, op::return_};
  expect_error(table, "tableswitch high < low", 0);
  Spec ldc;
  ldc.code = {op::ldc, 10, op::pop, op::return_};  // constant 10 is a Methodref
  expect_error(ldc, "ldc refers to constant 10 of kind Methodref", 0);
  Spec invoke;
  invoke.code = {op::invokestatic, 0, 1, op::return_};  // constant 1 is Utf8
  expect_error(invoke, "invokestatic refers to constant 1 of kind Utf8", 0);
  Spec empty;
  empty.code = {};
  expect_error(empty, "code length 0");
  Spec newarray;
  newarray.code = {op::iconst_1, op::newarray, 3, op::pop, op::return_};
  expect_error(newarray, "newarray with bad element type 3", 1);
}

TEST(Malformed, ExceptionTableAndFrameErrors) {
  Spec range;
  range.code = {op::nop, op::nop, op::return_};
  range.exceptions = {0, 2, 0, 1, 0, 0, 0, 0};  // start 2 > end 1
  expect_error(range, "exception table entry 0: bad range 2..1");
  Spec handler;
  handler.code = {op::sipush, 0, 1, op::pop, op::return_};
  handler.exceptions = {0, 0, 0, 3, 0, 1, 0, 0};  // handler inside sipush
  expect_error(handler, "handler 1 is not an instruction");
  Spec frame;
  frame.code = {op::sipush, 0, 1, op::pop, op::return_};
  // StackMapTable with one same_frame at offset 1 (inside sipush).
  frame.code_attrs = {0, 8, 0, 0, 0, 3, 0, 1, 1};
  frame.n_code_attrs = 1;
  expect_error(frame, "stack map frame 0 at offset 1");
  Spec reserved;
  reserved.code = {op::nop, op::return_};
  reserved.code_attrs = {0, 8, 0, 0, 0, 3, 0, 1, 200};
  reserved.n_code_attrs = 1;
  expect_error(reserved, "reserved stack map frame type 200");
  Spec vtype;
  vtype.code = {op::nop, op::return_};
  vtype.code_attrs = {0, 8, 0, 0, 0, 4, 0, 1, 65, 9};  // same_locals_1 at 1 with tag 9
  vtype.n_code_attrs = 1;
  expect_error(vtype, "bad verification type tag 9");
  Spec uninit;
  uninit.code = {op::nop, op::nop, op::return_};
  uninit.code_attrs = {0, 8, 0, 0, 0, 6, 0, 1, 65, 8, 0, 0};  // Uninitialized(0) but 0 is nop
  uninit.n_code_attrs = 1;
  expect_error(uninit, "Uninitialized(0) does not name a new instruction");
}

TEST(Malformed, UnlabelableLineNumbersAreKeptRawNotRejected) {
  Spec s;
  s.code = {op::sipush, 0, 1, op::pop, op::return_};
  s.code_attrs = {0, 9, 0, 0, 0, 6, 0, 1, 0, 1, 0, 7};  // line entry at offset 1 (mid-insn)
  s.n_code_attrs = 1;
  Built b = build(s);
  ClassFile cf = ClassFile::parse(b.bytes);
  Code& c = cf.decode_code(cf.methods[0]);
  ASSERT_EQ(c.attrs.size(), 1u);
  EXPECT_EQ(c.attrs[0].kind, CodeAttr::Raw);
  EXPECT_EQ(roundtrip(b.bytes).kind, RoundtripResult::Same);
}

// Every proper prefix of a real class is an error with an offset inside the input.
TEST(Malformed, EveryTruncationIsAReportedError) {
  for (const char* name : {"Features", "Features$Circle", "Legacy7"}) {
    std::string dir = std::string(name) == "Legacy7" ? "/classfile7/" : "/classfile/";
    std::vector<uint8_t> full = test::read_file(test::data_dir() + dir + name + ".class");
    for (size_t n = 0; n < full.size(); ++n) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + long(n));
      Failure f = decode(cut);
      ASSERT_TRUE(f.failed) << name << " truncated to " << n << " bytes was accepted";
      ASSERT_LE(f.offset, n) << f.message;
    }
  }
}

// Random corruption: any outcome but a crash is fine; accepted input must round-trip exactly.
TEST(Malformed, RandomCorruptionNeverCrashes) {
  std::vector<uint8_t> full = test::read_file(test::data_dir() + "/classfile/Features.class");
  std::mt19937_64 rng(12345);
  size_t accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<uint8_t> b = full;
    int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = uint8_t(rng());
    RoundtripResult r = roundtrip(b);
    ASSERT_NE(r.kind, RoundtripResult::Differ) << "trial " << trial << ": " << r.message;
    accepted += r.kind == RoundtripResult::Same;
  }
  EXPECT_GT(accepted, 0u);
}
