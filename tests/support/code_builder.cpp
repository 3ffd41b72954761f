#include "tests/support/code_builder.h"

namespace jsched::test {

using namespace cf;

CodeBuilder& CodeBuilder::iconst(int32_t v) {
  if (v >= -1 && v <= 5) return op(uint8_t(op::iconst_0 + v));
  if (v >= -128 && v <= 127) return push(Insn::make(op::bipush, 0, v));
  if (v >= -32768 && v <= 32767) return push(Insn::make(op::sipush, 0, v));
  uint16_t i = cf_.cp.add_integer(v);
  return push(Insn::make(i < 256 ? op::ldc : op::ldc_w, i));
}

CodeBuilder& CodeBuilder::ldc_string(std::string_view s) {
  uint16_t i = cf_.cp.add_string(s);
  return push(Insn::make(i < 256 ? op::ldc : op::ldc_w, i));
}

CodeBuilder& CodeBuilder::invoke(uint8_t o, std::string_view owner, std::string_view name,
                                 std::string_view desc) {
  Tag t = o == op::invokeinterface ? Tag::InterfaceMethodref : Tag::Methodref;
  Insn in = Insn::make(o, cf_.cp.add_member(t, owner, name, desc));
  if (o == op::invokeinterface) {
    int slots = 1;  // receiver
    for (size_t i = 1; i < desc.size() && desc[i] != ')'; ++i) {
      char c = desc[i];
      slots += (c == 'J' || c == 'D') ? 2 : 1;
      while (desc[i] == '[') ++i;
      if (desc[i] == 'L') i = desc.find(';', i);
    }
    in.v = slots;
  }
  return push(in);
}

CodeBuilder& CodeBuilder::handler(Label start, Label end, Label h, std::string_view type) {
  code_.exceptions.push_back(
      ExceptionEntry{start, end, h, type.empty() ? uint16_t(0) : cf_.cp.add_class(type)});
  return *this;
}

Buffer build_class(uint16_t major, std::string_view name, std::string_view method,
                   std::string_view desc, uint16_t access,
                   const std::function<void(CodeBuilder&)>& body) {
  ClassFile cf = ClassFile::create(major, name, "java/lang/Object");
  Member& m = cf.add_method(access, method, desc, true);
  CodeBuilder b(cf, m);
  body(b);
  return cf.write();
}

}  // namespace jsched::test
