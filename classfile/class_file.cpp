#include "classfile/class_file.h"

#include <cstring>

#include "classfile/code_codec.h"

namespace jsched::cf {

ClassFile::ClassFile(size_t size_hint)
    : arena_(std::make_unique<std::pmr::monotonic_buffer_resource>(size_hint)),
      interfaces(arena_.get()),
      fields(arena_.get()),
      methods(arena_.get()),
      attrs(arena_.get()) {}

namespace {

void read_attributes(Reader& r, const ConstantPool& cp, Vec<Attribute>& out) {
  uint16_t n = r.u2("attributes count");
  out.reserve(n);
  for (uint16_t i = 0; i < n; ++i) {
    size_t at = r.abs();
    uint16_t name = r.u2("attribute name");
    if (!cp.valid(name, Tag::Utf8)) {
      r.fail_at(at, "attribute name index " + std::to_string(name) + " is not a Utf8 constant");
    }
    uint32_t len = r.u4("attribute length");
    out.push_back(Attribute{name, r.bytes(len, "attribute body")});
  }
}

void read_members(Reader& r, const ConstantPool& cp, Vec<Member>& out, bool methods,
                  std::pmr::memory_resource* mr) {
  uint16_t n = r.u2(methods ? "methods count" : "fields count");
  out.reserve(n);
  for (uint16_t i = 0; i < n; ++i) {
    size_t at = r.abs();
    Member& m = out.emplace_back(mr);
    m.access = r.u2("member access flags");
    m.name = r.u2("member name");
    m.desc = r.u2("member descriptor");
    if (!cp.valid(m.name, Tag::Utf8) || !cp.valid(m.desc, Tag::Utf8)) {
      r.fail_at(at, std::string(methods ? "method " : "field ") + std::to_string(i) +
                        ": name or descriptor index is not a Utf8 constant");
    }
    read_attributes(r, cp, m.attrs);
    if (!methods) continue;
    for (size_t a = 0; a < m.attrs.size(); ++a) {
      if (cp.utf8(m.attrs[a].name) != "Code") continue;
      if (m.code_attr >= 0)
        r.fail_at(at, "method " + std::to_string(i) + " has two Code attributes");
      m.code_attr = int(a);
    }
  }
}

void write_attributes(Writer& w, const Vec<Attribute>& attrs) {
  w.u2(uint16_t(attrs.size()));
  for (const Attribute& a : attrs) {
    w.u2(a.name);
    w.u4(uint32_t(a.data.size()));
    w.bytes(a.data);
  }
}

}  // namespace

ClassFile ClassFile::parse(Bytes bytes) {
  ClassFile cf(bytes.size() * 2 + 1024);
  cf.input_ = bytes;
  Reader r(bytes);
  if (r.u4("magic") != 0xCAFEBABE) r.fail_at(0, "bad magic (not a class file)");
  cf.minor = r.u2("minor version");
  cf.major = r.u2("major version");
  if (cf.major < kMinMajor || cf.major > kMaxMajor) {
    r.fail_at(6, "unsupported class file version " + std::to_string(cf.major) + "." +
                     std::to_string(cf.minor) + " (supported: " + std::to_string(kMinMajor) +
                     " to " + std::to_string(kMaxMajor) + ")");
  }
  cf.cp.read(r, cf.major);
  size_t at = r.abs();
  cf.access = r.u2("access flags");
  cf.this_class = r.u2("this_class");
  cf.super_class = r.u2("super_class");
  if (!cf.cp.valid(cf.this_class, Tag::Class))
    r.fail_at(at + 2, "this_class is not a Class constant");
  if (cf.super_class != 0 && !cf.cp.valid(cf.super_class, Tag::Class)) {
    r.fail_at(at + 4, "super_class is not a Class constant");
  }
  uint16_t ni = r.u2("interfaces count");
  cf.interfaces.reserve(ni);
  for (uint16_t i = 0; i < ni; ++i) {
    size_t iat = r.abs();
    uint16_t c = r.u2("interface");
    if (!cf.cp.valid(c, Tag::Class)) r.fail_at(iat, "interface is not a Class constant");
    cf.interfaces.push_back(c);
  }
  read_members(r, cf.cp, cf.fields, false, cf.arena());
  read_members(r, cf.cp, cf.methods, true, cf.arena());
  read_attributes(r, cf.cp, cf.attrs);
  if (!r.at_end()) r.fail(std::to_string(r.remaining()) + " extra bytes after the class file");
  return cf;
}

size_t ClassFile::offset_of(Bytes b) const {
  if (b.data() >= input_.data() && b.data() <= input_.data() + input_.size()) {
    return size_t(b.data() - input_.data());
  }
  return 0;
}

Bytes ClassFile::own(Bytes b) {
  auto* p = static_cast<uint8_t*>(arena_->allocate(b.size() ? b.size() : 1, 1));
  if (!b.empty()) std::memcpy(p, b.data(), b.size());
  return Bytes(p, b.size());
}

ClassFile ClassFile::create(uint16_t major, std::string_view name, std::string_view super_name) {
  ClassFile cf(4096);
  cf.major = major;
  cf.access = acc::kPublic | acc::kSuper;
  cf.this_class = cf.cp.add_class(name);
  cf.super_class = super_name.empty() ? 0 : cf.cp.add_class(super_name);
  return cf;
}

Member& ClassFile::add_method(uint16_t access, std::string_view name, std::string_view desc,
                              bool with_code) {
  Member& m = methods.emplace_back(arena());
  m.access = access;
  m.name = cp.add_utf8(name);
  m.desc = cp.add_utf8(desc);
  if (with_code) {
    m.attrs.push_back(Attribute{cp.add_utf8("Code"), Bytes()});
    m.code_attr = 0;
    m.code = new (arena_->allocate(sizeof(Code), alignof(Code))) Code(arena());
  }
  return m;
}

Member& ClassFile::add_field(uint16_t access, std::string_view name, std::string_view desc) {
  Member& f = fields.emplace_back(arena());
  f.access = access;
  f.name = cp.add_utf8(name);
  f.desc = cp.add_utf8(desc);
  return f;
}

Code& ClassFile::decode_code(Member& m) {
  if (m.code) return *m.code;
  if (m.code_attr < 0) throw ParseError(0, "method has no Code attribute");
  const Attribute& a = m.attrs[size_t(m.code_attr)];
  void* mem = arena_->allocate(sizeof(Code), alignof(Code));
  // Arena memory is released wholesale, so Code's destructor never runs; its containers use
  // the same arena, which makes that safe.
  Code* code = new (mem) Code(arena());
  read_code(a.data, offset_of(a.data), cp, major, *code);
  m.code = code;
  return *code;
}

void ClassFile::decode_all_code() {
  for (Member& m : methods) {
    if (m.code_attr >= 0) decode_code(m);
  }
}

Buffer ClassFile::write() const {
  Writer w(input_.size() + input_.size() / 8 + 256);
  w.u4(0xCAFEBABE);
  w.u2(minor);
  w.u2(major);
  cp.write(w);
  w.u2(access);
  w.u2(this_class);
  w.u2(super_class);
  w.u2(uint16_t(interfaces.size()));
  for (uint16_t i : interfaces) w.u2(i);
  w.u2(uint16_t(fields.size()));
  for (const Member& f : fields) {
    w.u2(f.access);
    w.u2(f.name);
    w.u2(f.desc);
    write_attributes(w, f.attrs);
  }
  w.u2(uint16_t(methods.size()));
  for (const Member& m : methods) {
    w.u2(m.access);
    w.u2(m.name);
    w.u2(m.desc);
    w.u2(uint16_t(m.attrs.size()));
    for (size_t i = 0; i < m.attrs.size(); ++i) {
      const Attribute& a = m.attrs[i];
      if (int(i) == m.code_attr && m.code) {
        write_code(w, a.name, *m.code);
        continue;
      }
      w.u2(a.name);
      w.u4(uint32_t(a.data.size()));
      w.bytes(a.data);
    }
  }
  write_attributes(w, attrs);
  return w.take();
}

}  // namespace jsched::cf
