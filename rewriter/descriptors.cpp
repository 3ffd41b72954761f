#include "rewriter/descriptors.h"

#include <stdexcept>
#include <string>

#include "classfile/opcodes.h"

namespace jsched::rw {

namespace {

// Length of the field descriptor starting at d[i].
size_t one_desc(std::string_view d, size_t i) {
  size_t j = i;
  while (j < d.size() && d[j] == '[') ++j;
  if (j >= d.size()) throw std::runtime_error("bad descriptor " + std::string(d));
  if (d[j] == 'L') {
    size_t semi = d.find(';', j);
    if (semi == std::string_view::npos)
      throw std::runtime_error("bad descriptor " + std::string(d));
    j = semi;
  }
  return j - i + 1;
}

}  // namespace

std::vector<std::string_view> arg_descs(std::string_view md) {
  std::vector<std::string_view> out;
  if (md.empty() || md[0] != '(')
    throw std::runtime_error("bad method descriptor " + std::string(md));
  size_t i = 1;
  while (i < md.size() && md[i] != ')') {
    size_t n = one_desc(md, i);
    out.push_back(md.substr(i, n));
    i += n;
  }
  return out;
}

std::string_view return_desc(std::string_view md) {
  size_t close = md.find(')');
  if (close == std::string_view::npos)
    throw std::runtime_error("bad method descriptor " + std::string(md));
  return md.substr(close + 1);
}

int arg_slots(std::string_view md) {
  int n = 0;
  for (std::string_view a : arg_descs(md)) n += desc_slots(a);
  return n;
}

std::string_view class_of(std::string_view d) {
  if (!d.empty() && d[0] == 'L') return d.substr(1, d.size() - 2);
  return d;
}

cf::VType vtype_of(std::string_view d, cf::ConstantPool& cp) {
  using cf::VType;
  switch (d[0]) {
    case 'Z':
    case 'B':
    case 'C':
    case 'S':
    case 'I':
      return VType{VType::Integer, 0, cf::kNoLabel};
    case 'F':
      return VType{VType::Float, 0, cf::kNoLabel};
    case 'J':
      return VType{VType::Long, 0, cf::kNoLabel};
    case 'D':
      return VType{VType::Double, 0, cf::kNoLabel};
    default:
      return VType{VType::Object, cp.add_class(class_of(d)), cf::kNoLabel};
  }
}

uint8_t load_op(char c) {
  switch (c) {
    case 'J':
      return cf::op::lload;
    case 'F':
      return cf::op::fload;
    case 'D':
      return cf::op::dload;
    case 'L':
    case '[':
      return cf::op::aload;
    default:
      return cf::op::iload;
  }
}

uint8_t return_op(char c) {
  switch (c) {
    case 'V':
      return cf::op::return_;
    case 'J':
      return cf::op::lreturn;
    case 'F':
      return cf::op::freturn;
    case 'D':
      return cf::op::dreturn;
    case 'L':
    case '[':
      return cf::op::areturn;
    default:
      return cf::op::ireturn;
  }
}

}  // namespace jsched::rw
