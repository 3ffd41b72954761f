// The class-file model: header, constant pool, fields, methods and attributes. Parsing keeps
// every attribute as bytes; a method's Code is decoded on request, so a consumer that changes a
// few methods pays only for those, and anything left undecoded is written back verbatim.
//
// The model borrows the input bytes (Utf8 constants and raw attributes point into them): keep
// the input alive as long as the ClassFile.
#pragma once

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <string_view>
#include <vector>

#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace jsched::cf {

inline constexpr uint16_t kMinMajor = 45;  // Java 1.1
inline constexpr uint16_t kMaxMajor = 69;  // Java 25

namespace acc {
inline constexpr uint16_t kPublic = 0x0001, kPrivate = 0x0002, kProtected = 0x0004,
                          kStatic = 0x0008, kFinal = 0x0010, kSynchronized = 0x0020,
                          kSuper = 0x0020, kVolatile = 0x0040, kBridge = 0x0040,
                          kTransient = 0x0080, kVarargs = 0x0080, kNative = 0x0100,
                          kInterface = 0x0200, kAbstract = 0x0400, kStrict = 0x0800,
                          kSynthetic = 0x1000, kAnnotation = 0x2000, kEnum = 0x4000,
                          kModule = 0x8000;
}

struct Attribute {
  uint16_t name;
  Bytes data;
};

struct Member {
  uint16_t access = 0, name = 0, desc = 0;
  Vec<Attribute> attrs;
  int code_attr = -1;    // index of the Code attribute in attrs, -1 if none
  Code* code = nullptr;  // decoded Code, written instead of attrs[code_attr] when set
  explicit Member(std::pmr::memory_resource* mr) : attrs(mr) {}
};

class ClassFile {
  // Declared first: every container below allocates from it.
  std::unique_ptr<std::pmr::monotonic_buffer_resource> arena_;

 public:
  // Parses the structure (not the code). Throws ParseError naming the offset on bad input.
  static ClassFile parse(Bytes bytes);

  // An empty class (no members) for tools and tests that build classes from scratch.
  static ClassFile create(uint16_t major, std::string_view name, std::string_view super_name);
  // Adds a method; with `with_code`, also an empty Code (to be filled) as its first attribute.
  Member& add_method(uint16_t access, std::string_view name, std::string_view desc, bool with_code);
  Member& add_field(uint16_t access, std::string_view name, std::string_view desc);

  // Decodes the Code attribute of `m` (must have one) into m.code and returns it.
  Code& decode_code(Member& m);
  // Decodes every method's code: what a full round trip exercises.
  void decode_all_code();

  Buffer write() const;

  std::string_view name() const { return cp.class_name(this_class); }
  std::string_view member_name(const Member& m) const { return cp.utf8(m.name); }
  std::string_view member_desc(const Member& m) const { return cp.utf8(m.desc); }
  std::pmr::memory_resource* arena() const { return arena_.get(); }
  // Copies bytes into storage owned by this model (for attributes a consumer creates).
  Bytes own(Bytes b);

  uint16_t minor = 0, major = 0;
  ConstantPool cp;
  uint16_t access = 0, this_class = 0, super_class = 0;
  Vec<uint16_t> interfaces;
  Vec<Member> fields, methods;
  Vec<Attribute> attrs;

  ClassFile(ClassFile&&) = default;
  // Assignment would free this model's arena while its containers still point into it.
  ClassFile& operator=(ClassFile&&) = delete;

 private:
  explicit ClassFile(size_t size_hint);
  size_t offset_of(Bytes b) const;  // absolute file offset of a span into the input

  Bytes input_;
};

}  // namespace jsched::cf
