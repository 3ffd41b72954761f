// The constant pool: every tag of class-file versions 45 to 69, read into entries that point
// into the original bytes, and extensible by the rewriter (find-or-add of symbolic references).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "classfile/bytes.h"

namespace jsched::cf {

enum class Tag : uint8_t {
  None = 0,  // slot 0 and the slot after a Long or Double
  Utf8 = 1,
  Integer = 3,
  Float = 4,
  Long = 5,
  Double = 6,
  Class = 7,
  String = 8,
  Fieldref = 9,
  Methodref = 10,
  InterfaceMethodref = 11,
  NameAndType = 12,
  MethodHandle = 15,
  MethodType = 16,
  Dynamic = 17,
  InvokeDynamic = 18,
  Module = 19,
  Package = 20,
};

const char* tag_name(Tag t);

// One entry. Meaning of a/b by tag: Class/String/MethodType/Module/Package: a = utf8 index;
// *ref: a = class, b = name-and-type; NameAndType: a = name, b = descriptor; MethodHandle:
// kind = reference kind, a = reference; Dynamic/InvokeDynamic: a = bootstrap method attr index,
// b = name-and-type. Integer/Float/Long/Double keep their raw bits in `bits` (NaN payloads
// survive a round trip). Utf8 keeps its modified-UTF-8 bytes verbatim in `utf8`.
struct CpEntry {
  Tag tag = Tag::None;
  uint8_t kind = 0;
  uint16_t a = 0;
  uint16_t b = 0;
  uint64_t bits = 0;
  std::string_view utf8;
};

class ConstantPool {
 public:
  // Reads `count - 1` entries; checks every cross-reference has the tag the format requires.
  void read(Reader& r, uint16_t major);
  void write(Writer& w) const;
  size_t encoded_size() const { return encoded_size_; }

  uint16_t count() const { return uint16_t(entries_.size()); }
  const CpEntry& at(uint16_t i) const { return entries_[i]; }
  bool valid(uint16_t i, Tag t) const {
    return i > 0 && i < entries_.size() && entries_[i].tag == t;
  }

  // Typed accessors; they throw ParseError(0, ...) naming the index when the entry has the
  // wrong tag, so a malformed operand is reported rather than misread.
  std::string_view utf8(uint16_t i) const;
  std::string_view class_name(uint16_t i) const;  // Class entry -> internal name
  struct MemberRef {
    std::string_view owner, name, desc;
  };
  MemberRef member_ref(uint16_t i) const;  // Fieldref/Methodref/InterfaceMethodref
  std::string_view name_of_nat(uint16_t nat) const { return utf8(at(nat).a); }
  std::string_view desc_of_nat(uint16_t nat) const { return utf8(at(nat).b); }

  // Find-or-add, for the rewriter. Strings passed in are copied into storage the pool owns.
  uint16_t add_utf8(std::string_view s);
  uint16_t add_class(std::string_view internal_name);
  uint16_t add_string(std::string_view s);
  uint16_t add_integer(int32_t v);
  // Integer, Float, Long or Double by raw bits.
  uint16_t add_number(Tag t, uint64_t bits);
  uint16_t add_name_and_type(std::string_view name, std::string_view desc);
  uint16_t add_member(Tag t, std::string_view owner, std::string_view name, std::string_view desc);
  // A MethodHandle of reference kind `kind` (JVMS 4.4.8) to member constant `ref`.
  uint16_t add_method_handle(uint8_t kind, uint16_t ref);
  uint16_t add_methodref(std::string_view owner, std::string_view name, std::string_view desc) {
    return add_member(Tag::Methodref, owner, name, desc);
  }

 private:
  uint16_t push(const CpEntry& e, int slots);
  void build_index();
  static uint64_t key(Tag t, uint32_t a, uint32_t b) {
    return uint64_t(t) << 48 | uint64_t(a) << 24 | b;
  }

  static size_t entry_size(const CpEntry& e);
  size_t entry_offset(size_t pool_start, uint32_t index) const;

  std::vector<CpEntry> entries_;
  size_t encoded_size_ = 2;
  std::deque<std::string> owned_;  // storage for added Utf8 entries (stable addresses)
  bool indexed_ = false;
  std::unordered_map<std::string_view, uint16_t> utf8_index_;
  std::unordered_map<uint64_t, uint16_t> ref_index_;
};

}  // namespace jsched::cf
