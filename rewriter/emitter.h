// Appends instructions to a new instruction list, adding constants to the class's pool.
#pragma once

#include <string_view>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/hooks.h"

namespace jsched::rw {

class Emitter {
 public:
  Emitter(cf::ClassFile& cf, cf::Vec<cf::Insn>& out) : cf_(cf), out_(out) {}

  void insn(const cf::Insn& in) { out_.push_back(in); }
  void op(uint8_t o) { out_.push_back(cf::Insn::make(o)); }
  void label(cf::Label l) { out_.push_back(cf::Insn::label(l)); }
  void branch(uint8_t o, cf::Label target) {
    out_.push_back(cf::Insn::make(o, 0, int32_t(target)));
  }
  void type(uint8_t o, std::string_view cls) {
    out_.push_back(cf::Insn::make(o, cf_.cp.add_class(cls)));
  }
  void ldc_class(uint16_t class_index) {
    out_.push_back(cf::Insn::make(class_index < 256 ? cf::op::ldc : cf::op::ldc_w, class_index));
  }

  // The shortest push of an int constant.
  void iconst(int32_t v) {
    namespace op = cf::op;
    if (v >= -1 && v <= 5) return this->op(uint8_t(op::iconst_0 + v));
    if (v >= -128 && v <= 127) return insn(cf::Insn::make(op::bipush, 0, v));
    if (v >= -32768 && v <= 32767) return insn(cf::Insn::make(op::sipush, 0, v));
    uint16_t i = cf_.cp.add_integer(v);
    insn(cf::Insn::make(i < 256 ? op::ldc : op::ldc_w, i));
  }

  // `kind` is the typed base opcode (iload, lload, ..., astore); slots past 3/255 handled.
  void local(uint8_t kind, uint16_t slot) {
    cf::Insn in = cf::Insn::make(kind, slot);
    in.wide = slot > 255;
    out_.push_back(in);
  }

  void invokestatic(std::string_view owner, std::string_view name, std::string_view desc,
                    bool interface_owner = false) {
    uint16_t ref = cf_.cp.add_member(
        interface_owner ? cf::Tag::InterfaceMethodref : cf::Tag::Methodref, owner, name, desc);
    out_.push_back(cf::Insn::make(cf::op::invokestatic, ref));
  }

  void hook(std::string_view owner, Hook h) {
    invokestatic(owner, hook_info(h).name, hook_info(h).desc);
  }

 private:
  cf::ClassFile& cf_;
  cf::Vec<cf::Insn>& out_;
};

}  // namespace jsched::rw
