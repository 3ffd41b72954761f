#include "rewriter/annotations.h"

namespace jsched::rw {

namespace {

void skip_element_value(cf::Reader& r);

// Reads one annotation; returns its type index.
uint16_t read_annotation(cf::Reader& r) {
  uint16_t type = r.u2("annotation type");
  uint16_t pairs = r.u2("annotation pair count");
  for (uint16_t i = 0; i < pairs; ++i) {
    r.u2("annotation element name");
    skip_element_value(r);
  }
  return type;
}

void skip_element_value(cf::Reader& r) {
  uint8_t tag = r.u1("element value tag");
  switch (tag) {
    case 'e':
      r.skip(4, "enum constant");
      break;
    case '@':
      read_annotation(r);
      break;
    case '[': {
      uint16_t n = r.u2("array length");
      for (uint16_t i = 0; i < n; ++i) skip_element_value(r);
      break;
    }
    default:
      r.skip(2, "element value");
      break;
  }
}

}  // namespace

bool has_annotation(const cf::ClassFile& cf, const cf::Member& m, std::string_view type_desc) {
  for (const cf::Attribute& a : m.attrs) {
    std::string_view name = cf.cp.utf8(a.name);
    if (name != "RuntimeVisibleAnnotations" && name != "RuntimeInvisibleAnnotations") continue;
    cf::Reader r(a.data);
    uint16_t n = r.u2("annotation count");
    for (uint16_t i = 0; i < n; ++i) {
      uint16_t type = read_annotation(r);
      if (cf.cp.valid(type, cf::Tag::Utf8) && cf.cp.utf8(type) == type_desc) return true;
    }
  }
  return false;
}

}  // namespace jsched::rw
