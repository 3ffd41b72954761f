#include "classfile/constant_pool.h"

namespace jsched::cf {

const char* tag_name(Tag t) {
  switch (t) {
    case Tag::None: return "none";
    case Tag::Utf8: return "Utf8";
    case Tag::Integer: return "Integer";
    case Tag::Float: return "Float";
    case Tag::Long: return "Long";
    case Tag::Double: return "Double";
    case Tag::Class: return "Class";
    case Tag::String: return "String";
    case Tag::Fieldref: return "Fieldref";
    case Tag::Methodref: return "Methodref";
    case Tag::InterfaceMethodref: return "InterfaceMethodref";
    case Tag::NameAndType: return "NameAndType";
    case Tag::MethodHandle: return "MethodHandle";
    case Tag::MethodType: return "MethodType";
    case Tag::Dynamic: return "Dynamic";
    case Tag::InvokeDynamic: return "InvokeDynamic";
    case Tag::Module: return "Module";
    case Tag::Package: return "Package";
  }
  return "?";
}

namespace {

uint16_t min_version(Tag t) {
  switch (t) {
    case Tag::MethodHandle:
    case Tag::MethodType:
    case Tag::InvokeDynamic: return 51;
    case Tag::Module:
    case Tag::Package: return 53;
    case Tag::Dynamic: return 55;
    default: return 45;
  }
}

}  // namespace

void ConstantPool::read(Reader& r, uint16_t major) {
  size_t count_at = r.abs();
  uint16_t count = r.u2("constant pool count");
  if (count == 0) r.fail_at(count_at, "constant pool count is 0");
  entries_.assign(count, CpEntry{});
  std::vector<uint32_t> offsets(count, 0);
  for (uint32_t i = 1; i < count; ++i) {
    offsets[i] = uint32_t(r.abs());
    CpEntry& e = entries_[i];
    uint8_t tag = r.u1("constant pool tag");
    e.tag = Tag(tag);
    switch (e.tag) {
      case Tag::Utf8: {
        uint16_t len = r.u2("Utf8 length");
        Bytes b = r.bytes(len, "Utf8 bytes");
        e.utf8 = std::string_view(reinterpret_cast<const char*>(b.data()), len);
        break;
      }
      case Tag::Integer:
      case Tag::Float: e.bits = r.u4("constant value"); break;
      case Tag::Long:
      case Tag::Double:
        e.bits = uint64_t(r.u4("constant value")) << 32;
        e.bits |= r.u4("constant value");
        if (i + 1 >= count) r.fail_at(offsets[i], "8-byte constant in the last pool slot");
        ++i;  // the next slot is unusable
        break;
      case Tag::Class:
      case Tag::String:
      case Tag::MethodType:
      case Tag::Module:
      case Tag::Package: e.a = r.u2("constant reference"); break;
      case Tag::Fieldref:
      case Tag::Methodref:
      case Tag::InterfaceMethodref:
      case Tag::NameAndType:
      case Tag::Dynamic:
      case Tag::InvokeDynamic:
        e.a = r.u2("constant reference");
        e.b = r.u2("constant reference");
        break;
      case Tag::MethodHandle:
        e.kind = r.u1("method handle kind");
        e.a = r.u2("method handle reference");
        if (e.kind < 1 || e.kind > 9) {
          r.fail_at(offsets[i], "MethodHandle reference kind " + std::to_string(e.kind));
        }
        break;
      default:
        r.fail_at(offsets[i], "unknown constant pool tag " + std::to_string(tag) + " at index " +
                                  std::to_string(i));
    }
    if (major < min_version(e.tag)) {
      r.fail_at(offsets[i], std::string(tag_name(e.tag)) + " constant needs class version " +
                                std::to_string(min_version(e.tag)) + ", file is " +
                                std::to_string(major));
    }
  }
  // Cross-references may point forward, so they are checked once every entry is known.
  auto expect = [&](uint32_t i, uint16_t ref, Tag t, Tag alt = Tag::None) {
    if (ref == 0 || ref >= count || (entries_[ref].tag != t && entries_[ref].tag != alt) ||
        entries_[ref].tag == Tag::None) {
      r.fail_at(offsets[i], "constant " + std::to_string(i) + " (" + tag_name(entries_[i].tag) +
                                ") refers to index " + std::to_string(ref) + ", which is not " +
                                tag_name(t));
    }
  };
  for (uint32_t i = 1; i < count; ++i) {
    const CpEntry& e = entries_[i];
    switch (e.tag) {
      case Tag::Class:
      case Tag::String:
      case Tag::MethodType:
      case Tag::Module:
      case Tag::Package: expect(i, e.a, Tag::Utf8); break;
      case Tag::Fieldref:
      case Tag::Methodref:
      case Tag::InterfaceMethodref:
        expect(i, e.a, Tag::Class);
        expect(i, e.b, Tag::NameAndType);
        break;
      case Tag::NameAndType:
        expect(i, e.a, Tag::Utf8);
        expect(i, e.b, Tag::Utf8);
        break;
      case Tag::Dynamic:
      case Tag::InvokeDynamic: expect(i, e.b, Tag::NameAndType); break;
      case Tag::MethodHandle:
        if (e.kind <= 4) {
          expect(i, e.a, Tag::Fieldref);
        } else {
          expect(i, e.a, Tag::Methodref, Tag::InterfaceMethodref);
        }
        break;
      default: break;
    }
  }
}

size_t ConstantPool::encoded_size() const {
  size_t n = 2;
  for (const CpEntry& e : entries_) {
    switch (e.tag) {
      case Tag::None: break;
      case Tag::Utf8: n += 3 + e.utf8.size(); break;
      case Tag::Long:
      case Tag::Double: n += 9; break;
      case Tag::MethodHandle: n += 4; break;
      case Tag::Class:
      case Tag::String:
      case Tag::MethodType:
      case Tag::Module:
      case Tag::Package: n += 3; break;
      default: n += 5; break;
    }
  }
  return n;
}

void ConstantPool::write(Writer& w) const {
  w.ensure(encoded_size());
  w.u2(count());
  for (const CpEntry& e : entries_) {
    if (e.tag == Tag::None) continue;
    w.u1(uint8_t(e.tag));
    switch (e.tag) {
      case Tag::Utf8:
        w.u2(uint16_t(e.utf8.size()));
        w.bytes(Bytes(reinterpret_cast<const uint8_t*>(e.utf8.data()), e.utf8.size()));
        break;
      case Tag::Integer:
      case Tag::Float: w.u4(uint32_t(e.bits)); break;
      case Tag::Long:
      case Tag::Double:
        w.u4(uint32_t(e.bits >> 32));
        w.u4(uint32_t(e.bits));
        break;
      case Tag::Class:
      case Tag::String:
      case Tag::MethodType:
      case Tag::Module:
      case Tag::Package: w.u2(e.a); break;
      case Tag::MethodHandle:
        w.u1(e.kind);
        w.u2(e.a);
        break;
      default:
        w.u2(e.a);
        w.u2(e.b);
        break;
    }
  }
}

std::string_view ConstantPool::utf8(uint16_t i) const {
  if (!valid(i, Tag::Utf8)) throw ParseError(0, "constant " + std::to_string(i) + " is not Utf8");
  return entries_[i].utf8;
}

std::string_view ConstantPool::class_name(uint16_t i) const {
  if (!valid(i, Tag::Class)) {
    throw ParseError(0, "constant " + std::to_string(i) + " is not a Class");
  }
  return entries_[entries_[i].a].utf8;
}

ConstantPool::MemberRef ConstantPool::member_ref(uint16_t i) const {
  if (i == 0 || i >= entries_.size() ||
      (entries_[i].tag != Tag::Fieldref && entries_[i].tag != Tag::Methodref &&
       entries_[i].tag != Tag::InterfaceMethodref)) {
    throw ParseError(0, "constant " + std::to_string(i) + " is not a member reference");
  }
  const CpEntry& e = entries_[i];
  const CpEntry& nat = entries_[e.b];
  return {class_name(e.a), entries_[nat.a].utf8, entries_[nat.b].utf8};
}

void ConstantPool::build_index() {
  indexed_ = true;
  for (uint32_t i = 1; i < entries_.size(); ++i) {
    const CpEntry& e = entries_[i];
    switch (e.tag) {
      case Tag::Utf8: utf8_index_.emplace(e.utf8, uint16_t(i)); break;
      case Tag::Class:
      case Tag::String:
      case Tag::Fieldref:
      case Tag::Methodref:
      case Tag::InterfaceMethodref:
      case Tag::NameAndType: ref_index_.emplace(key(e.tag, e.a, e.b), uint16_t(i)); break;
      case Tag::Integer: ref_index_.emplace(key(e.tag, uint32_t(e.bits), 0x7fffff), uint16_t(i)); break;
      default: break;
    }
  }
}

uint16_t ConstantPool::push(const CpEntry& e, int slots) {
  if (entries_.size() + slots > 0xffff) {
    throw ParseError(0, "constant pool full (65535 entries)");
  }
  if (entries_.empty()) entries_.emplace_back();
  entries_.push_back(e);
  if (slots == 2) entries_.emplace_back();
  return uint16_t(entries_.size() - slots);
}

uint16_t ConstantPool::add_utf8(std::string_view s) {
  if (!indexed_) build_index();
  if (auto it = utf8_index_.find(s); it != utf8_index_.end()) return it->second;
  if (s.size() > 0xffff) throw ParseError(0, "Utf8 constant longer than 65535 bytes");
  const std::string& stored = owned_.emplace_back(s);
  CpEntry e;
  e.tag = Tag::Utf8;
  e.utf8 = stored;
  uint16_t i = push(e, 1);
  utf8_index_.emplace(std::string_view(stored), i);
  return i;
}

namespace {
uint16_t find_or(std::unordered_map<uint64_t, uint16_t>& idx, uint64_t k) {
  auto it = idx.find(k);
  return it == idx.end() ? 0 : it->second;
}
}  // namespace

uint16_t ConstantPool::add_class(std::string_view name) {
  uint16_t u = add_utf8(name);
  uint64_t k = key(Tag::Class, u, 0);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = Tag::Class;
  e.a = u;
  return ref_index_[k] = push(e, 1);
}

uint16_t ConstantPool::add_string(std::string_view s) {
  uint16_t u = add_utf8(s);
  uint64_t k = key(Tag::String, u, 0);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = Tag::String;
  e.a = u;
  return ref_index_[k] = push(e, 1);
}

uint16_t ConstantPool::add_integer(int32_t v) {
  if (!indexed_) build_index();
  uint64_t k = key(Tag::Integer, uint32_t(v), 0x7fffff);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = Tag::Integer;
  e.bits = uint32_t(v);
  return ref_index_[k] = push(e, 1);
}

uint16_t ConstantPool::add_name_and_type(std::string_view name, std::string_view desc) {
  uint16_t n = add_utf8(name), d = add_utf8(desc);
  uint64_t k = key(Tag::NameAndType, n, d);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = Tag::NameAndType;
  e.a = n;
  e.b = d;
  return ref_index_[k] = push(e, 1);
}

uint16_t ConstantPool::add_member(Tag t, std::string_view owner, std::string_view name,
                                  std::string_view desc) {
  uint16_t c = add_class(owner), nat = add_name_and_type(name, desc);
  uint64_t k = key(t, c, nat);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = t;
  e.a = c;
  e.b = nat;
  return ref_index_[k] = push(e, 1);
}

}  // namespace jsched::cf
