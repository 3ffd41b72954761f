// Encoding the Code model. Layout first (every label's offset), then one emitting pass.
#include <string>

#include "classfile/code_codec.h"
#include "classfile/opcodes.h"

namespace jsched::cf {

namespace {

class CodeEncoder {
 public:
  CodeEncoder(Writer& w, const Code& code) : w_(w), code_(code) {}

  void run(uint16_t name) {
    thread_local Layout layout;
    compute_layout(code_, layout);
    L_ = &layout;
    if (layout.length == 0 || layout.length > 65535) {
      throw EncodeError("code length " + std::to_string(layout.length) + " (must be 1 to 65535)");
    }
    w_.u2(name);
    size_t len_at = w_.size();
    w_.u4(0);
    w_.u2(code_.max_stack);
    w_.u2(code_.max_locals);
    w_.u4(layout.length);
    uint8_t* base = w_.raw(layout.length);
    for (size_t i = 0; i < code_.insns.size(); ++i) {
      const Insn& in = code_.insns[i];
      if (in.op != kLabelOp) emit(in, layout.insn_offset[i], base + layout.insn_offset[i]);
    }
    w_.u2(uint16_t(code_.exceptions.size()));
    for (const ExceptionEntry& e : code_.exceptions) {
      w_.u2(off(e.start));
      w_.u2(off(e.end));
      w_.u2(off(e.handler));
      w_.u2(e.catch_type);
    }
    w_.u2(uint16_t(code_.attrs.size()));
    for (const CodeAttr& a : code_.attrs) write_attr(a);
    w_.patch_u4(len_at, uint32_t(w_.size() - len_at - 4));
  }

 private:
  uint32_t off(Label l) const {
    if (l >= L_->label_offset.size() || L_->label_offset[l] == kNoLabel) {
      throw EncodeError("label " + std::to_string(l) + " is referenced but never placed");
    }
    return L_->label_offset[l];
  }

  int64_t rel(Label target, uint32_t at) const { return int64_t(off(target)) - int64_t(at); }

  static void put2(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 8);
    p[1] = uint8_t(v);
  }
  static void put4(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
  }

  [[noreturn, gnu::cold]] static void too_big(const char* what, int64_t v, uint32_t at) {
    throw EncodeError(std::string(what) + " operand " + std::to_string(v) + " at offset " +
                      std::to_string(at) + " does not fit its encoding");
  }

  static uint8_t byte_operand(uint32_t v, uint32_t at, const char* what) {
    if (v > 0xff) [[unlikely]]
      too_big(what, v, at);
    return uint8_t(v);
  }

  // Writes the instruction at p (its offset `at` in the code) without capacity checks: the
  // whole code array was reserved from the layout.
  void emit(const Insn& in, uint32_t at, uint8_t* p) {
    if (in.wide) {
      p[0] = op::wide;
      p[1] = in.op;
      put2(p + 2, in.u);
      if (in.op == op::iinc) put2(p + 4, uint16_t(in.v));
      return;
    }
    p[0] = in.op;
    switch (kOps[in.op].operand) {
      case Operand::None:
        break;
      case Operand::S1:
        p[1] = uint8_t(in.v);
        break;
      case Operand::S2:
        put2(p + 1, uint16_t(in.v));
        break;
      case Operand::Cp1:
        p[1] = byte_operand(in.u, at, "ldc");
        break;
      case Operand::Cp2:
        put2(p + 1, in.u);
        break;
      case Operand::Local:
        p[1] = byte_operand(in.u, at, kOps[in.op].name);
        break;
      case Operand::Iinc:
        p[1] = byte_operand(in.u, at, "iinc");
        if (in.v < -128 || in.v > 127) too_big("iinc", in.v, at);
        p[2] = uint8_t(in.v);
        break;
      case Operand::Branch: {
        int64_t d = rel(Label(in.v), at);
        if (d < -32768 || d > 32767) [[unlikely]] {
          throw EncodeError(std::string(kOps[in.op].name) + " at offset " + std::to_string(at) +
                            ": branch offset " + std::to_string(d) + " needs 32 bits");
        }
        put2(p + 1, uint16_t(d));
        break;
      }
      case Operand::Branch4:
        put4(p + 1, uint32_t(rel(Label(in.v), at)));
        break;
      case Operand::TableSwitch:
      case Operand::LookupSwitch:
        emit_switch(in, at, p);
        break;
      case Operand::InvokeInterface:
        put2(p + 1, in.u);
        p[3] = uint8_t(in.v);
        p[4] = uint8_t(in.v >> 8);
        break;
      case Operand::InvokeDynamic:
        put2(p + 1, in.u);
        put2(p + 3, uint16_t(in.v));
        break;
      case Operand::NewArray:
        p[1] = uint8_t(in.u);
        break;
      case Operand::MultiANewArray:
        put2(p + 1, in.u);
        p[3] = uint8_t(in.v);
        break;
      case Operand::Wide:
      case Operand::Invalid:
        throw EncodeError("cannot encode opcode " + std::to_string(in.op) + " at offset " +
                          std::to_string(at));
    }
  }

  void emit_switch(const Insn& in, uint32_t at, uint8_t* p) {
    const Switch& sw = code_.switches[size_t(in.v)];
    uint32_t pad = (4 - ((at + 1) & 3)) & 3;
    ++p;
    for (uint32_t i = 0; i < pad; ++i) *p++ = pad == sw.pad_len ? sw.pad[i] : 0;
    put4(p, uint32_t(rel(sw.dflt, at)));
    p += 4;
    if (in.op == op::tableswitch) {
      put4(p, uint32_t(sw.low));
      put4(p + 4, uint32_t(sw.high));
      p += 8;
      for (uint32_t k = 0; k < sw.count; ++k, p += 4) {
        put4(p, uint32_t(rel(code_.switch_targets[sw.first + k], at)));
      }
    } else {
      put4(p, sw.count);
      p += 4;
      for (uint32_t k = 0; k < sw.count; ++k, p += 8) {
        put4(p, uint32_t(code_.switch_keys[sw.first + k]));
        put4(p + 4, uint32_t(rel(code_.switch_targets[sw.first + k], at)));
      }
    }
  }

  void vtype(const VType& t) {
    w_.u1(t.tag);
    if (t.tag == VType::Object) w_.u2(t.cp);
    if (t.tag == VType::Uninitialized) w_.u2(off(t.label));
  }

  void write_frames(const Vec<Frame>& frames) {
    w_.u2(uint16_t(frames.size()));
    int64_t prev = -1;
    for (const Frame& f : frames) {
      int64_t o = off(f.at);
      int64_t delta = o - prev - 1;
      if (delta < 0) {
        throw EncodeError("stack map frames out of order at offset " + std::to_string(o));
      }
      uint32_t d = uint32_t(delta);
      if (f.type < 64 || f.type == 251) {
        if (f.type < 64 && d < 64) {
          w_.u1(d);
        } else {
          w_.u1(251);
          w_.u2(d);
        }
      } else if (f.type < 128 || f.type == 247) {
        if (f.type < 128 && d < 64) {
          w_.u1(64 + d);
        } else {
          w_.u1(247);
          w_.u2(d);
        }
        vtype(f.stack.at(0));
      } else if (f.type >= 248 && f.type <= 250) {
        w_.u1(f.type);
        w_.u2(d);
      } else if (f.type >= 252 && f.type <= 254) {
        if (f.locals.size() != size_t(f.type - 251)) {
          throw EncodeError("append frame with " + std::to_string(f.locals.size()) + " locals");
        }
        w_.u1(f.type);
        w_.u2(d);
        for (const VType& t : f.locals) vtype(t);
      } else if (f.type == 255) {
        w_.u1(255);
        w_.u2(d);
        w_.u2(uint16_t(f.locals.size()));
        for (const VType& t : f.locals) vtype(t);
        w_.u2(uint16_t(f.stack.size()));
        for (const VType& t : f.stack) vtype(t);
      } else {
        throw EncodeError("bad frame type " + std::to_string(f.type));
      }
      prev = o;
    }
  }

  void write_attr(const CodeAttr& a) {
    w_.u2(a.name);
    size_t len_at = w_.size();
    w_.u4(0);
    switch (a.kind) {
      case CodeAttr::Raw:
        w_.bytes(a.raw);
        break;
      case CodeAttr::LineNumbers:
        w_.u2(uint16_t(a.lines.size()));
        for (const LineEntry& e : a.lines) {
          w_.u2(off(e.start));
          w_.u2(e.line);
        }
        break;
      case CodeAttr::LocalVars:
      case CodeAttr::LocalVarTypes:
        w_.u2(uint16_t(a.vars.size()));
        for (const LocalVar& v : a.vars) {
          uint32_t s = off(v.start), e = off(v.end);
          if (e < s) throw EncodeError("local variable range ends before it starts");
          w_.u2(s);
          w_.u2(e - s);
          w_.u2(v.name);
          w_.u2(v.desc);
          w_.u2(v.index);
        }
        break;
      case CodeAttr::StackMap:
        write_frames(a.frames);
        break;
    }
    w_.patch_u4(len_at, uint32_t(w_.size() - len_at - 4));
  }

  Writer& w_;
  const Code& code_;
  const Layout* L_ = nullptr;
};

}  // namespace

void write_code(Writer& w, uint16_t name, const Code& code) {
  CodeEncoder(w, code).run(name);
}

}  // namespace jsched::cf
