// A small assembler over the classfile model, for tests that need classes javac cannot make
// (old versions, jsr/ret, huge methods, hand-made malformed input).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"

namespace jsched::test {

class CodeBuilder {
 public:
  CodeBuilder(cf::ClassFile& cf, cf::Member& m) : cf_(cf), code_(*m.code) {}

  cf::Label label() { return code_.new_label(); }
  CodeBuilder& place(cf::Label l) { return push(cf::Insn::label(l)); }
  CodeBuilder& op(uint8_t o) { return push(cf::Insn::make(o)); }
  CodeBuilder& local(uint8_t o, uint16_t index, bool wide = false) {
    cf::Insn in = cf::Insn::make(o, index);
    in.wide = wide || index > 255;
    return push(in);
  }
  CodeBuilder& iinc(uint16_t index, int32_t delta) {
    cf::Insn in = cf::Insn::make(cf::op::iinc, index, delta);
    in.wide = index > 255 || delta < -128 || delta > 127;
    return push(in);
  }
  CodeBuilder& iconst(int32_t v);
  CodeBuilder& ldc_string(std::string_view s);
  CodeBuilder& branch(uint8_t o, cf::Label target) {
    return push(cf::Insn::make(o, 0, int32_t(target)));
  }
  CodeBuilder& field(uint8_t o, std::string_view owner, std::string_view name,
                     std::string_view desc) {
    return push(cf::Insn::make(o, cf_.cp.add_member(cf::Tag::Fieldref, owner, name, desc)));
  }
  CodeBuilder& invoke(uint8_t o, std::string_view owner, std::string_view name,
                      std::string_view desc);
  CodeBuilder& type(uint8_t o, std::string_view cls) {
    return push(cf::Insn::make(o, cf_.cp.add_class(cls)));
  }
  CodeBuilder& handler(cf::Label start, cf::Label end, cf::Label handler,
                       std::string_view type = "");
  CodeBuilder& limits(uint16_t max_stack, uint16_t max_locals) {
    code_.max_stack = max_stack;
    code_.max_locals = max_locals;
    return *this;
  }
  cf::Code& code() { return code_; }

 private:
  CodeBuilder& push(const cf::Insn& in) {
    code_.insns.push_back(in);
    return *this;
  }
  cf::ClassFile& cf_;
  cf::Code& code_;
};

// `public static void main(String[])`-style helper: a class with one static method whose code
// the callback fills, written to bytes.
cf::Buffer build_class(uint16_t major, std::string_view name, std::string_view method,
                       std::string_view desc, uint16_t access,
                       const std::function<void(CodeBuilder&)>& body);

}  // namespace jsched::test
