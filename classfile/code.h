// The decoded Code attribute: instructions with branch targets as labels, the exception table,
// and the sub-attributes that refer to code positions (line numbers, local variables and their
// types, StackMapTable frames), all expressed with labels so that code can be edited freely.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <vector>

#include "classfile/bytes.h"
#include "classfile/opcodes.h"

namespace jsched::cf {

template <class T>
using Vec = std::pmr::vector<T>;

// A label's id is the code offset it marked when the code was read (so 0..code length);
// labels created afterwards come from Code::new_label() and lie beyond.
using Label = uint32_t;
inline constexpr Label kNoLabel = 0xffffffffu;

// Opcode value of the pseudo-instruction that marks where a label sits. 0xff (impdep2) can
// never appear in a class file, so it cannot collide with a real instruction.
inline constexpr uint8_t kLabelOp = 0xff;

// One instruction. Operands by format:
//   Local: u = index                 Iinc: u = index, v = delta
//   S1/S2: v = value                 Cp1/Cp2: u = constant index
//   Branch/Branch4: v = target label TableSwitch/LookupSwitch: v = index into Code::switches
//   InvokeInterface: u = constant, v = count | fourth byte << 8
//   InvokeDynamic: u = constant, v = the two trailing bytes (always 0 in valid code)
//   NewArray: u = element type       MultiANewArray: u = constant, v = dimensions
//   kLabelOp: v = label id
// `wide` records an explicit wide prefix so that unchanged code writes back byte for byte.
struct Insn {
  uint8_t op = 0;
  bool wide = false;
  uint16_t u = 0;
  int32_t v = 0;

  static Insn label(Label l) { return Insn{kLabelOp, false, 0, int32_t(l)}; }
  static Insn make(uint8_t op, uint16_t u = 0, int32_t v = 0) { return Insn{op, false, u, v}; }
  bool is_label() const { return op == kLabelOp; }
};

struct Switch {
  Label dflt = kNoLabel;
  int32_t low = 0, high = 0;  // tableswitch only
  uint32_t first = 0;         // into Code::switch_keys (lookupswitch) and Code::switch_targets
  uint32_t count = 0;
  uint8_t pad_len = 0;  // padding as read: written back verbatim while its length is unchanged
  uint8_t pad[3] = {0, 0, 0};
};

struct ExceptionEntry {
  Label start, end, handler;
  uint16_t catch_type;  // 0 = any
};

struct LineEntry {
  Label start;
  uint16_t line;
};

struct LocalVar {
  Label start, end;
  uint16_t name, desc;  // desc is the signature in a LocalVariableTypeTable
  uint16_t index;
};

// Verification type. Object: cp = Class constant. Uninitialized: label = the `new` instruction.
struct VType {
  enum : uint8_t {
    Top = 0,
    Integer = 1,
    Float = 2,
    Double = 3,
    Long = 4,
    Null = 5,
    UninitializedThis = 6,
    Object = 7,
    Uninitialized = 8
  };
  uint8_t tag = Top;
  uint16_t cp = 0;
  Label label = kNoLabel;
  bool operator==(const VType& o) const {
    return tag == o.tag && (tag != Object || cp == o.cp) &&
           (tag != Uninitialized || label == o.label);
  }
  bool wide() const { return tag == Double || tag == Long; }
};

// A StackMapTable entry kept in its encoded form (same, same_locals_1_stack_item, chop, append,
// full, and their extended variants) so that unchanged tables write back identically. `locals`
// holds the appended locals for append frames and all locals for full frames; `stack` holds the
// one item of same_locals_1 frames or the whole stack of full frames.
struct Frame {
  uint8_t type;
  Label at;
  Vec<VType> locals, stack;
  explicit Frame(std::pmr::memory_resource* mr) : type(0), at(0), locals(mr), stack(mr) {}
};

struct CodeAttr {
  enum Kind : uint8_t { Raw, LineNumbers, LocalVars, LocalVarTypes, StackMap };
  Kind kind = Raw;
  uint16_t name = 0;  // Utf8 constant naming the attribute
  Bytes raw;          // Raw only
  Vec<LineEntry> lines;
  Vec<LocalVar> vars;
  Vec<Frame> frames;
  explicit CodeAttr(std::pmr::memory_resource* mr) : lines(mr), vars(mr), frames(mr) {}
};

struct Code {
  uint16_t max_stack = 0, max_locals = 0;
  Vec<Insn> insns;
  Vec<Switch> switches;
  Vec<int32_t> switch_keys;
  Vec<Label> switch_targets;
  Vec<ExceptionEntry> exceptions;
  Vec<CodeAttr> attrs;
  uint32_t num_labels = 0;

  explicit Code(std::pmr::memory_resource* mr)
      : insns(mr), switches(mr), switch_keys(mr), switch_targets(mr), exceptions(mr), attrs(mr) {}
  std::pmr::memory_resource* resource() const { return insns.get_allocator().resource(); }
  Label new_label() { return num_labels++; }
  CodeAttr* find(CodeAttr::Kind k) {
    for (CodeAttr& a : attrs) {
      if (a.kind == k) return &a;
    }
    return nullptr;
  }
};

// Byte length of an instruction placed at `offset` (only switches depend on the offset).
uint32_t insn_length_slow(const Code& code, const Insn& in, uint32_t offset);
inline uint32_t insn_length(const Code& code, const Insn& in, uint32_t offset) {
  uint32_t len = kOps[in.op].length;  // 0 for switches and for label pseudo-instructions
  if (len != 0 && !in.wide) [[likely]]
    return len;
  return insn_length_slow(code, in, offset);
}

// Offsets of every label and every instruction of the code as it would be written now.
struct Layout {
  std::vector<uint32_t> label_offset;  // by label id
  std::vector<uint32_t> insn_offset;   // by index into Code::insns
  uint32_t length = 0;
};
void compute_layout(const Code& code, Layout& out);

}  // namespace jsched::cf
