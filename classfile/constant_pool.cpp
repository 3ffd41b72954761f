#include "classfile/constant_pool.h"

#include <cstring>

namespace jsched::cf {

const char* tag_name(Tag t) {
  switch (t) {
    case Tag::None:
      return "none";
    case Tag::Utf8:
      return "Utf8";
    case Tag::Integer:
      return "Integer";
    case Tag::Float:
      return "Float";
    case Tag::Long:
      return "Long";
    case Tag::Double:
      return "Double";
    case Tag::Class:
      return "Class";
    case Tag::String:
      return "String";
    case Tag::Fieldref:
      return "Fieldref";
    case Tag::Methodref:
      return "Methodref";
    case Tag::InterfaceMethodref:
      return "InterfaceMethodref";
    case Tag::NameAndType:
      return "NameAndType";
    case Tag::MethodHandle:
      return "MethodHandle";
    case Tag::MethodType:
      return "MethodType";
    case Tag::Dynamic:
      return "Dynamic";
    case Tag::InvokeDynamic:
      return "InvokeDynamic";
    case Tag::Module:
      return "Module";
    case Tag::Package:
      return "Package";
  }
  return "?";
}

namespace {

uint16_t min_version(Tag t) {
  switch (t) {
    case Tag::MethodHandle:
    case Tag::MethodType:
    case Tag::InvokeDynamic:
      return 51;
    case Tag::Module:
    case Tag::Package:
      return 53;
    case Tag::Dynamic:
      return 55;
    default:
      return 45;
  }
}

// Body length after the tag byte, or 0 for tags that are not valid (Utf8 is variable).
constexpr uint8_t kBodyLength[21] = {0, 0, 0, 4, 4, 8, 8, 2, 2, 4, 4, 4, 4, 0, 0, 3, 2, 4, 4, 2, 2};

// Tag each reference must have, as a bit mask over tags, for a and b of each entry kind.
constexpr uint32_t bit(Tag t) {
  return 1u << unsigned(t);
}
// The first reference (a) of each entry kind; a method handle's depends on its kind.
uint32_t ref_a(const CpEntry& e) {
  switch (e.tag) {
    case Tag::Class:
    case Tag::String:
    case Tag::NameAndType:
    case Tag::MethodType:
    case Tag::Module:
    case Tag::Package:
      return bit(Tag::Utf8);
    case Tag::Fieldref:
    case Tag::Methodref:
    case Tag::InterfaceMethodref:
      return bit(Tag::Class);
    case Tag::MethodHandle:
      return e.kind <= 4 ? bit(Tag::Fieldref) : bit(Tag::Methodref) | bit(Tag::InterfaceMethodref);
    default:
      return 0;  // Dynamic and InvokeDynamic: a is a bootstrap method index
  }
}
// The second reference (b).
uint32_t ref_b(Tag t) {
  switch (t) {
    case Tag::Fieldref:
    case Tag::Methodref:
    case Tag::InterfaceMethodref:
    case Tag::Dynamic:
    case Tag::InvokeDynamic:
      return bit(Tag::NameAndType);
    case Tag::NameAndType:
      return bit(Tag::Utf8);
    default:
      return 0;
  }
}

}  // namespace

size_t ConstantPool::entry_size(const CpEntry& e) {
  if (e.tag == Tag::None) return 0;
  if (e.tag == Tag::Utf8) return 3 + e.utf8.size();
  return 1 + size_t(kBodyLength[unsigned(e.tag)]);
}

// Offsets are only needed for error messages, so they are recomputed on demand.
size_t ConstantPool::entry_offset(size_t pool_start, uint32_t index) const {
  size_t at = pool_start;
  for (uint32_t i = 1; i < index && i < entries_.size(); ++i) at += entry_size(entries_[i]);
  return at;
}

void ConstantPool::read(Reader& r, uint16_t major) {
  size_t count_at = r.abs();
  uint16_t count = r.u2("constant pool count");
  if (count == 0) r.fail_at(count_at, "constant pool count is 0");
  entries_.resize(count);
  entries_[0] = CpEntry{};
  const size_t pool_start = r.abs();
  for (uint32_t i = 1; i < count; ++i) {
    const size_t entry_at = r.abs();
    CpEntry& e = entries_[i];
    e = CpEntry{};
    uint8_t tag = r.u1("constant pool tag");
    if (tag > 20 || (kBodyLength[tag] == 0 && tag != 1)) [[unlikely]] {
      r.fail_at(entry_at, "unknown constant pool tag " + std::to_string(tag) + " at index " +
                              std::to_string(i));
    }
    e.tag = Tag(tag);
    if (tag == 1) {
      uint16_t len = r.u2("Utf8 length");
      Bytes b = r.bytes(len, "Utf8 bytes");
      e.utf8 = std::string_view(reinterpret_cast<const char*>(b.data()), len);
      encoded_size_ += 3 + len;
      continue;
    }
    Bytes body = r.bytes(kBodyLength[tag], "constant");
    const uint8_t* p = body.data();
    encoded_size_ += 1 + body.size();
    switch (e.tag) {
      case Tag::Integer:
      case Tag::Float:
        e.bits = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | p[2] << 8 | p[3];
        break;
      case Tag::Long:
      case Tag::Double:
        for (int k = 0; k < 8; ++k) e.bits = e.bits << 8 | p[k];
        if (i + 1 >= count) r.fail_at(entry_at, "8-byte constant in the last pool slot");
        entries_[++i] = CpEntry{};  // the next slot is unusable
        break;
      case Tag::MethodHandle:
        e.kind = p[0];
        e.a = uint16_t(p[1] << 8 | p[2]);
        if (e.kind < 1 || e.kind > 9) {
          r.fail_at(entry_at, "MethodHandle reference kind " + std::to_string(e.kind));
        }
        break;
      default:
        e.a = uint16_t(p[0] << 8 | p[1]);
        if (body.size() == 4) e.b = uint16_t(p[2] << 8 | p[3]);
        break;
    }
    if (major < 55 && major < min_version(e.tag)) [[unlikely]] {
      r.fail_at(entry_at, std::string(tag_name(e.tag)) + " constant needs class version " +
                              std::to_string(min_version(e.tag)) + ", file is " +
                              std::to_string(major));
    }
  }
  // Cross-references may point forward, so they are checked once every entry is known.
  auto tag_bit = [&](uint16_t ref) { return ref < count ? bit(entries_[ref].tag) : 1u; };
  for (uint32_t i = 1; i < count; ++i) {
    const CpEntry& e = entries_[i];
    const uint32_t want_a = ref_a(e), want_b = ref_b(e.tag);
    if ((want_a && !(tag_bit(e.a) & want_a)) || (want_b && !(tag_bit(e.b) & want_b))) [[unlikely]] {
      bool a_bad = want_a && !(tag_bit(e.a) & want_a);
      uint16_t ref = a_bad ? e.a : e.b;
      r.fail_at(entry_offset(pool_start, i),
                "constant " + std::to_string(i) + " (" + tag_name(e.tag) + ") refers to index " +
                    std::to_string(ref) + ", which is " +
                    (ref < count ? tag_name(entries_[ref].tag) : "outside the pool"));
    }
  }
}

void ConstantPool::write(Writer& w) const {
  uint8_t* p = w.raw(encoded_size_);
  *p++ = uint8_t(entries_.size() >> 8);
  *p++ = uint8_t(entries_.size());
  for (const CpEntry& e : entries_) {
    if (e.tag == Tag::None) continue;
    *p++ = uint8_t(e.tag);
    switch (e.tag) {
      case Tag::Utf8:
        *p++ = uint8_t(e.utf8.size() >> 8);
        *p++ = uint8_t(e.utf8.size());
        std::memcpy(p, e.utf8.data(), e.utf8.size());
        p += e.utf8.size();
        break;
      case Tag::Integer:
      case Tag::Float:
        for (int k = 3; k >= 0; --k) *p++ = uint8_t(e.bits >> (8 * k));
        break;
      case Tag::Long:
      case Tag::Double:
        for (int k = 7; k >= 0; --k) *p++ = uint8_t(e.bits >> (8 * k));
        break;
      case Tag::MethodHandle:
        *p++ = e.kind;
        [[fallthrough]];
      case Tag::Class:
      case Tag::String:
      case Tag::MethodType:
      case Tag::Module:
      case Tag::Package:
        *p++ = uint8_t(e.a >> 8);
        *p++ = uint8_t(e.a);
        break;
      default:
        *p++ = uint8_t(e.a >> 8);
        *p++ = uint8_t(e.a);
        *p++ = uint8_t(e.b >> 8);
        *p++ = uint8_t(e.b);
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
      case Tag::Utf8:
        utf8_index_.emplace(e.utf8, uint16_t(i));
        break;
      case Tag::Class:
      case Tag::String:
      case Tag::Fieldref:
      case Tag::Methodref:
      case Tag::InterfaceMethodref:
      case Tag::NameAndType:
        ref_index_.emplace(key(e.tag, e.a, e.b), uint16_t(i));
        break;
      case Tag::Integer:
        ref_index_.emplace(key(e.tag, uint32_t(e.bits), 0x7fffff), uint16_t(i));
        break;
      case Tag::MethodHandle:
        ref_index_.emplace(key(e.tag, e.kind, e.a), uint16_t(i));
        break;
      default:
        break;
    }
  }
}

uint16_t ConstantPool::push(const CpEntry& e, int slots) {
  if (entries_.size() + slots > 0xffff) {
    throw ParseError(0, "constant pool full (65535 entries)");
  }
  if (entries_.empty()) entries_.emplace_back();
  entries_.push_back(e);
  encoded_size_ += entry_size(e);
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

uint16_t ConstantPool::add_number(Tag t, uint64_t bits) {
  if (t == Tag::Integer) return add_integer(int32_t(uint32_t(bits)));
  if (!indexed_) build_index();
  for (uint32_t i = 1; i < entries_.size(); ++i) {
    if (entries_[i].tag == t && entries_[i].bits == bits) return uint16_t(i);
  }
  CpEntry e;
  e.tag = t;
  e.bits = bits;
  return push(e, (t == Tag::Long || t == Tag::Double) ? 2 : 1);
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

uint16_t ConstantPool::add_method_handle(uint8_t kind, uint16_t ref) {
  if (!indexed_) build_index();
  uint64_t k = key(Tag::MethodHandle, kind, ref);
  if (uint16_t i = find_or(ref_index_, k)) return i;
  CpEntry e;
  e.tag = Tag::MethodHandle;
  e.kind = kind;
  e.a = ref;
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
