// Decoding a Code attribute. Instructions, exception table and sub-attributes are read while
// recording which offsets are instruction starts and which are referenced; then targets are
// checked and label pseudo-instructions placed before every referenced instruction.
#include <array>
#include <string>

#include "classfile/code_codec.h"
#include "classfile/opcodes.h"

namespace jsched::cf {

namespace {

constexpr uint8_t kStart = 1;  // an instruction begins at this offset
constexpr uint8_t kRef = 2;    // something refers to this offset

// Per-thread buffers reused across methods (class loading runs on many threads in the agent).
struct Scratch {
  std::vector<uint8_t> mark;       // by offset, code length + 1
  std::vector<uint32_t> insn_off;  // by decoded instruction (at most one per byte)
  std::vector<Insn> insns;         // decoded instructions before labels are merged in
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

std::string hex(uint32_t v) {
  char buf[16];
  snprintf(buf, sizeof buf, "0x%02x", v);
  return buf;
}

class CodeDecoder {
 public:
  CodeDecoder(Bytes data, size_t base, const ConstantPool& cp, uint16_t major, Code& code)
      : r_(data, base), cp_(cp), major_(major), code_(code), s_(scratch()) {}

  void run() {
    code_.max_stack = r_.u2("max_stack");
    code_.max_locals = r_.u2("max_locals");
    size_t len_at = r_.abs();
    len_ = r_.u4("code length");
    if (len_ == 0 || len_ > 65535) {
      r_.fail_at(len_at, "code length " + std::to_string(len_) + " (must be 1 to 65535)");
    }
    code_base_ = r_.abs();
    bc_ = r_.bytes(len_, "bytecode").data();
    s_.mark.assign(len_ + 1, 0);
    if (s_.insn_off.size() < len_) {
      s_.insn_off.resize(len_);
      s_.insns.resize(len_);
    }
    decode_instructions();
    read_exception_table();
    read_attributes();
    if (!r_.at_end()) r_.fail("trailing bytes in Code attribute");
    assign_labels();
  }

 private:
  size_t at(uint32_t pc) const { return code_base_ + pc; }
  [[noreturn]] void fail_pc(uint32_t pc, const std::string& what) const {
    r_.fail_at(at(pc), what);
  }

  void need(uint32_t pc, uint32_t n) const {
    if (uint64_t(pc) + n > len_) {
      fail_pc(pc, std::string("truncated ") + kOps[bc_[pc]].name + " instruction");
    }
  }
  uint16_t u2(uint32_t p) const { return uint16_t(bc_[p] << 8 | bc_[p + 1]); }
  int32_t s4(uint32_t p) const {
    return int32_t(uint32_t(bc_[p]) << 24 | uint32_t(bc_[p + 1]) << 16 | uint32_t(bc_[p + 2]) << 8 |
                   bc_[p + 3]);
  }

  // Tags each constant-referencing opcode accepts, as a bit mask over tags.
  static uint32_t allowed_tags(uint8_t o) {
    auto bit = [](Tag t) { return 1u << unsigned(t); };
    switch (o) {
      case op::ldc:
      case op::ldc_w:
        return bit(Tag::Integer) | bit(Tag::Float) | bit(Tag::String) | bit(Tag::Class) |
               bit(Tag::MethodType) | bit(Tag::MethodHandle) | bit(Tag::Dynamic);
      case op::ldc2_w:
        return bit(Tag::Long) | bit(Tag::Double) | bit(Tag::Dynamic);
      case op::getstatic:
      case op::putstatic:
      case op::getfield:
      case op::putfield:
        return bit(Tag::Fieldref);
      case op::invokevirtual:
        return bit(Tag::Methodref);
      case op::invokespecial:
      case op::invokestatic:
        return bit(Tag::Methodref) | bit(Tag::InterfaceMethodref);
      case op::invokeinterface:
        return bit(Tag::InterfaceMethodref);
      case op::invokedynamic:
        return bit(Tag::InvokeDynamic);
      default:
        return bit(Tag::Class);  // new, anewarray, checkcast, instanceof, multianewarray
    }
  }

  void check_cp(uint32_t pc, uint8_t o, uint16_t idx) const {
    static const auto table = [] {
      std::array<uint32_t, 256> t{};
      for (int i = 0; i < 256; ++i) t[size_t(i)] = allowed_tags(uint8_t(i));
      return t;
    }();
    if (idx < cp_.count() && (table[o] >> unsigned(cp_.at(idx).tag) & 1)) [[likely]]
      return;
    bad_cp(pc, o, idx);
  }

  [[noreturn, gnu::cold]] void bad_cp(uint32_t pc, uint8_t o, uint16_t idx) const {
    if (idx == 0 || idx >= cp_.count()) {
      fail_pc(pc, std::string(kOps[o].name) + " refers to constant " + std::to_string(idx) +
                      " outside the pool");
    }
    fail_pc(pc, std::string(kOps[o].name) + " refers to constant " + std::to_string(idx) +
                    " of kind " + tag_name(cp_.at(idx).tag));
  }

  void ref(uint32_t pc, int64_t target) {
    if (target < 0 || target >= int64_t(len_)) {
      fail_pc(pc, "branch target " + std::to_string(target) + " outside the code");
    }
    s_.mark[size_t(target)] |= kRef;
  }

  void decode_switch(uint32_t& pc, uint8_t o, Insn& in) {
    uint32_t pad = (4 - ((pc + 1) & 3)) & 3;
    need(pc, 1 + pad + (o == op::tableswitch ? 12 : 8));
    Switch sw;
    sw.pad_len = uint8_t(pad);
    for (uint32_t i = 0; i < pad; ++i) sw.pad[i] = bc_[pc + 1 + i];
    uint32_t p = pc + 1 + pad;
    int64_t dflt = int64_t(pc) + s4(p);
    ref(pc, dflt);
    sw.dflt = uint32_t(dflt);
    sw.first = uint32_t(code_.switch_targets.size());
    if (o == op::tableswitch) {
      sw.low = s4(p + 4);
      sw.high = s4(p + 8);
      if (sw.high < sw.low) fail_pc(pc, "tableswitch high < low");
      uint64_t n = uint64_t(int64_t(sw.high) - sw.low) + 1;
      if (n * 4 > len_) fail_pc(pc, "truncated tableswitch instruction");
      need(pc, uint32_t(1 + pad + 12 + n * 4));
      sw.count = uint32_t(n);
      p += 12;
      for (uint32_t i = 0; i < sw.count; ++i, p += 4) {
        int64_t t = int64_t(pc) + s4(p);
        ref(pc, t);
        code_.switch_targets.push_back(uint32_t(t));
      }
    } else {
      int32_t n = s4(p + 4);
      if (n < 0) fail_pc(pc, "lookupswitch with negative pair count");
      if (uint64_t(n) * 8 > len_) fail_pc(pc, "truncated lookupswitch instruction");
      need(pc, uint32_t(1 + pad + 8 + uint64_t(n) * 8));
      sw.count = uint32_t(n);
      p += 8;
      for (uint32_t i = 0; i < sw.count; ++i, p += 8) {
        code_.switch_keys.push_back(s4(p));
        int64_t t = int64_t(pc) + s4(p + 4);
        ref(pc, t);
        code_.switch_targets.push_back(uint32_t(t));
      }
    }
    // Lookupswitch keys are indexed from the same `first` as targets; tableswitch has none,
    // so keep switch_keys aligned by padding it with unused slots.
    if (o == op::tableswitch) code_.switch_keys.resize(code_.switch_targets.size());
    in.v = int32_t(code_.switches.size());
    code_.switches.push_back(sw);
    pc = p;
  }

  void decode_instructions() {
    uint32_t pc = 0;
    Insn* out = s_.insns.data();
    uint32_t* out_off = s_.insn_off.data();
    while (pc < len_) {
      s_.mark[pc] |= kStart;
      uint32_t start = pc;
      uint8_t o = bc_[pc];
      Insn in;
      in.op = o;
      switch (kOps[o].operand) {
        case Operand::None:
          pc += 1;
          break;
        case Operand::S1:
          need(pc, 2);
          in.v = int8_t(bc_[pc + 1]);
          pc += 2;
          break;
        case Operand::S2:
          need(pc, 3);
          in.v = int16_t(u2(pc + 1));
          pc += 3;
          break;
        case Operand::Cp1:
          need(pc, 2);
          in.u = bc_[pc + 1];
          check_cp(pc, o, in.u);
          pc += 2;
          break;
        case Operand::Cp2:
          need(pc, 3);
          in.u = u2(pc + 1);
          check_cp(pc, o, in.u);
          pc += 3;
          break;
        case Operand::Local:
          need(pc, 2);
          in.u = bc_[pc + 1];
          pc += 2;
          break;
        case Operand::Iinc:
          need(pc, 3);
          in.u = bc_[pc + 1];
          in.v = int8_t(bc_[pc + 2]);
          pc += 3;
          break;
        case Operand::Branch: {
          need(pc, 3);
          int64_t t = int64_t(pc) + int16_t(u2(pc + 1));
          ref(pc, t);
          in.v = int32_t(t);
          pc += 3;
          break;
        }
        case Operand::Branch4: {
          need(pc, 5);
          int64_t t = int64_t(pc) + s4(pc + 1);
          ref(pc, t);
          in.v = int32_t(t);
          pc += 5;
          break;
        }
        case Operand::TableSwitch:
        case Operand::LookupSwitch:
          decode_switch(pc, o, in);
          break;
        case Operand::InvokeInterface:
          need(pc, 5);
          in.u = u2(pc + 1);
          check_cp(pc, o, in.u);
          in.v = bc_[pc + 3] | bc_[pc + 4] << 8;
          pc += 5;
          break;
        case Operand::InvokeDynamic:
          need(pc, 5);
          in.u = u2(pc + 1);
          check_cp(pc, o, in.u);
          in.v = u2(pc + 3);
          pc += 5;
          break;
        case Operand::NewArray:
          need(pc, 2);
          in.u = bc_[pc + 1];
          if (in.u < 4 || in.u > 11)
            fail_pc(pc, "newarray with bad element type " + std::to_string(in.u));
          pc += 2;
          break;
        case Operand::MultiANewArray:
          need(pc, 4);
          in.u = u2(pc + 1);
          check_cp(pc, o, in.u);
          in.v = bc_[pc + 3];
          if (in.v == 0) fail_pc(pc, "multianewarray with 0 dimensions");
          pc += 4;
          break;
        case Operand::Wide: {
          need(pc, 2);
          uint8_t w = bc_[pc + 1];
          in.op = w;
          in.wide = true;
          if (w == op::iinc) {
            need(pc, 6);
            in.u = u2(pc + 2);
            in.v = int16_t(u2(pc + 4));
            pc += 6;
          } else if (kOps[w].operand == Operand::Local) {
            need(pc, 4);
            in.u = u2(pc + 2);
            pc += 4;
          } else {
            fail_pc(pc, "wide prefix before " + std::string(kOps[w].name) + " (" + hex(w) + ")");
          }
          break;
        }
        case Operand::Invalid:
          fail_pc(pc, "invalid opcode " + hex(o));
      }
      *out++ = in;
      *out_off++ = start;
    }
    n_insns_ = size_t(out - s_.insns.data());
  }

  bool is_start(uint32_t off) const { return off < len_ && (s_.mark[off] & kStart); }
  bool is_start_or_end(uint32_t off) const { return off == len_ || is_start(off); }

  void check_target(size_t at_insn, uint32_t t) const {
    if (!is_start(t)) {
      fail_pc(s_.insn_off[at_insn],
              "branch target " + std::to_string(t) + " is not the start of an instruction");
    }
  }

  void read_exception_table() {
    uint16_t n = r_.u2("exception table length");
    code_.exceptions.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
      size_t at = r_.abs();
      uint32_t start = r_.u2("exception start"), end = r_.u2("exception end");
      uint32_t handler = r_.u2("exception handler");
      uint16_t type = r_.u2("exception catch type");
      if (!is_start(start) || !is_start_or_end(end) || start >= end) {
        r_.fail_at(at, "exception table entry " + std::to_string(i) + ": bad range " +
                           std::to_string(start) + ".." + std::to_string(end));
      }
      if (!is_start(handler)) {
        r_.fail_at(at, "exception table entry " + std::to_string(i) + ": handler " +
                           std::to_string(handler) + " is not an instruction");
      }
      if (type != 0 && !cp_.valid(type, Tag::Class)) {
        r_.fail_at(at, "exception table entry " + std::to_string(i) +
                           ": catch type is not a Class constant");
      }
      s_.mark[start] |= kRef;
      s_.mark[end] |= kRef;
      s_.mark[handler] |= kRef;
      code_.exceptions.push_back(ExceptionEntry{start, end, handler, type});
    }
  }

  // Line and local-variable tables are debug information: one that names an offset we cannot
  // label (not an instruction start) is kept as raw bytes rather than rejected.
  bool read_lines(Reader& a, CodeAttr& out) {
    uint16_t n = a.u2("line number count");
    out.lines.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
      uint32_t pc = a.u2("line start");
      uint16_t line = a.u2("line number");
      if (!is_start(pc)) return false;
      out.lines.push_back(LineEntry{pc, line});
    }
    if (!a.at_end()) return false;
    for (const LineEntry& e : out.lines) s_.mark[e.start] |= kRef;
    return true;
  }

  bool read_vars(Reader& a, CodeAttr& out) {
    uint16_t n = a.u2("local variable count");
    out.vars.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
      uint32_t pc = a.u2("local start");
      uint32_t len = a.u2("local length");
      uint16_t name = a.u2("local name"), desc = a.u2("local descriptor");
      uint16_t index = a.u2("local index");
      if (!is_start(pc) || !is_start_or_end(pc + len)) return false;
      out.vars.push_back(LocalVar{pc, pc + len, name, desc, index});
    }
    if (!a.at_end()) return false;
    for (const LocalVar& v : out.vars) {
      s_.mark[v.start] |= kRef;
      s_.mark[v.end] |= kRef;
    }
    return true;
  }

  void read_vtype(Reader& a, Vec<VType>& out) {
    size_t at = a.abs();
    VType t;
    t.tag = a.u1("verification type");
    if (t.tag == VType::Object) {
      t.cp = a.u2("verification type class");
      if (!cp_.valid(t.cp, Tag::Class)) a.fail_at(at, "Object verification type is not a Class");
    } else if (t.tag == VType::Uninitialized) {
      uint32_t off = a.u2("uninitialized offset");
      if (!is_start(off) || bc_[off] != op::new_) {
        a.fail_at(at, "Uninitialized(" + std::to_string(off) + ") does not name a new instruction");
      }
      s_.mark[off] |= kRef;
      t.label = off;
    } else if (t.tag > VType::Uninitialized) {
      a.fail_at(at, "bad verification type tag " + std::to_string(t.tag));
    }
    out.push_back(t);
  }

  void read_frames(Reader& a, CodeAttr& out) {
    uint16_t n = a.u2("stack map frame count");
    out.frames.reserve(n);
    int64_t prev = -1;
    for (uint16_t i = 0; i < n; ++i) {
      size_t at = a.abs();
      Frame& f = out.frames.emplace_back(code_.resource());
      f.type = a.u1("frame type");
      uint32_t delta;
      if (f.type < 64) {
        delta = f.type;
      } else if (f.type < 128) {
        delta = f.type - 64u;
        read_vtype(a, f.stack);
      } else if (f.type < 247) {
        a.fail_at(at, "reserved stack map frame type " + std::to_string(f.type));
      } else {
        delta = a.u2("frame offset delta");
        if (f.type == 247) {
          read_vtype(a, f.stack);
        } else if (f.type >= 252 && f.type <= 254) {
          for (int k = 0; k < f.type - 251; ++k) read_vtype(a, f.locals);
        } else if (f.type == 255) {
          uint16_t nl = a.u2("frame locals count");
          f.locals.reserve(nl);
          for (uint16_t k = 0; k < nl; ++k) read_vtype(a, f.locals);
          uint16_t ns = a.u2("frame stack count");
          f.stack.reserve(ns);
          for (uint16_t k = 0; k < ns; ++k) read_vtype(a, f.stack);
        }
      }
      int64_t off = prev + delta + 1;
      if (!is_start(uint32_t(off)) || off >= int64_t(len_)) {
        a.fail_at(at, "stack map frame " + std::to_string(i) + " at offset " + std::to_string(off) +
                          ", which is not the start of an instruction");
      }
      f.at = uint32_t(off);
      s_.mark[f.at] |= kRef;
      prev = off;
    }
    if (!a.at_end()) a.fail("trailing bytes in StackMapTable");
  }

  void read_attributes() {
    uint16_t n = r_.u2("code attributes count");
    code_.attrs.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
      size_t at = r_.abs();
      uint16_t name = r_.u2("attribute name");
      if (!cp_.valid(name, Tag::Utf8)) {
        r_.fail_at(at, "attribute name index " + std::to_string(name) + " is not a Utf8 constant");
      }
      uint32_t len = r_.u4("attribute length");
      size_t body_at = r_.abs();
      Bytes body = r_.bytes(len, "attribute body");
      CodeAttr& a = code_.attrs.emplace_back(code_.resource());
      a.name = name;
      a.raw = body;
      std::string_view nm = cp_.utf8(name);
      Reader ar(body, body_at);
      if (nm == "StackMapTable" && major_ >= 50) {
        a.kind = CodeAttr::StackMap;
        read_frames(ar, a);
      } else if (nm == "LineNumberTable") {
        a.kind = read_lines(ar, a) ? CodeAttr::LineNumbers : CodeAttr::Raw;
      } else if (nm == "LocalVariableTable" || nm == "LocalVariableTypeTable") {
        a.kind = read_vars(ar, a)
                     ? (nm.size() == 22 ? CodeAttr::LocalVarTypes : CodeAttr::LocalVars)
                     : CodeAttr::Raw;
      }
      if (a.kind == CodeAttr::Raw) {
        a.lines.clear();
        a.vars.clear();
      }
    }
  }

  // A label's id is the offset it marks in the code as read, so raw offsets already are labels
  // and only the label pseudo-instructions need to be merged into the instruction list. New
  // labels (made by an editor) get ids past the code length.
  void assign_labels() {
    const uint32_t* offs = s_.insn_off.data();
    const uint8_t* mark = s_.mark.data();
    size_t n = 0;
    for (size_t i = 0; i < n_insns_; ++i) n += mark[offs[i]] >> 1;  // kRef is bit 1
    const bool end_label = mark[len_] & kRef;
    code_.num_labels = len_ + 1;
    code_.insns.resize(n_insns_ + n + end_label);
    Insn* dst = code_.insns.data();
    for (size_t i = 0; i < n_insns_; ++i) {
      const Insn& in = s_.insns[i];
      if (mark[offs[i]] & kRef) *dst++ = Insn::label(offs[i]);
      if (is_branch(in.op)) {
        check_target(i, uint32_t(in.v));
      } else if (in.op == op::tableswitch || in.op == op::lookupswitch) [[unlikely]] {
        const Switch& sw = code_.switches[size_t(in.v)];
        check_target(i, sw.dflt);
        for (uint32_t k = 0; k < sw.count; ++k) check_target(i, code_.switch_targets[sw.first + k]);
      }
      *dst++ = in;
    }
    if (end_label) *dst++ = Insn::label(len_);
  }

  Reader r_;
  const ConstantPool& cp_;
  uint16_t major_;
  Code& code_;
  Scratch& s_;
  uint32_t len_ = 0;
  size_t n_insns_ = 0;
  size_t code_base_ = 0;
  const uint8_t* bc_ = nullptr;
};

}  // namespace

void read_code(Bytes data, size_t base, const ConstantPool& cp, uint16_t major, Code& out) {
  CodeDecoder(data, base, cp, major, out).run();
}

}  // namespace jsched::cf
