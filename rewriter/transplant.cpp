#include "rewriter/transplant.h"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "classfile/opcodes.h"

namespace jsched::rw {

namespace {

class PoolMap {
 public:
  PoolMap(cf::ClassFile& donor, cf::ClassFile& host) : from_(donor.cp), to_(host.cp) {
    donor_name_ = std::string(donor.name());
    host_name_ = std::string(host.name());
  }

  uint16_t operator()(uint16_t i) {
    if (i == 0) return 0;
    if (auto it = done_.find(i); it != done_.end()) return it->second;
    const cf::CpEntry e = from_.at(i);
    uint16_t out;
    switch (e.tag) {
      case cf::Tag::Utf8:
        out = to_.add_utf8(e.utf8);
        break;
      case cf::Tag::Class:
        out = to_.add_class(cls(from_.utf8(e.a)));
        break;
      case cf::Tag::String:
        out = to_.add_string(from_.utf8(e.a));
        break;
      case cf::Tag::Integer:
      case cf::Tag::Float:
      case cf::Tag::Long:
      case cf::Tag::Double:
        out = to_.add_number(e.tag, e.bits);
        break;
      case cf::Tag::NameAndType:
        out = to_.add_name_and_type(from_.utf8(e.a), from_.utf8(e.b));
        break;
      case cf::Tag::Fieldref:
      case cf::Tag::Methodref:
      case cf::Tag::InterfaceMethodref: {
        auto r = from_.member_ref(i);
        out = to_.add_member(e.tag, cls(r.owner), r.name, r.desc);
        break;
      }
      default:
        throw std::runtime_error(std::string("cannot transplant a ") + cf::tag_name(e.tag) +
                                 " constant");
    }
    done_[i] = out;
    return out;
  }

 private:
  std::string cls(std::string_view name) {
    return name == donor_name_ ? host_name_ : std::string(name);
  }
  const cf::ConstantPool& from_;
  cf::ConstantPool& to_;
  std::string donor_name_, host_name_;
  std::unordered_map<uint16_t, uint16_t> done_;
};

void copy_code(cf::Code& from, cf::Code& to, PoolMap& map) {
  to.max_stack = from.max_stack;
  to.max_locals = from.max_locals;
  to.num_labels = from.num_labels;
  to.insns.assign(from.insns.begin(), from.insns.end());
  to.switches.assign(from.switches.begin(), from.switches.end());
  to.switch_keys.assign(from.switch_keys.begin(), from.switch_keys.end());
  to.switch_targets.assign(from.switch_targets.begin(), from.switch_targets.end());
  for (cf::Insn& in : to.insns) {
    if (in.is_label()) continue;
    switch (cf::kOps[in.op].operand) {
      case cf::Operand::Cp1:
      case cf::Operand::Cp2:
      case cf::Operand::InvokeInterface:
      case cf::Operand::InvokeDynamic:
      case cf::Operand::MultiANewArray:
        in.u = map(in.u);
        if (in.op == cf::op::ldc && in.u > 255) in.op = cf::op::ldc_w;
        break;
      default:
        break;
    }
  }
  for (const cf::ExceptionEntry& e : from.exceptions) {
    to.exceptions.push_back(cf::ExceptionEntry{e.start, e.end, e.handler, map(e.catch_type)});
  }
  for (const cf::CodeAttr& a : from.attrs) {
    if (a.kind == cf::CodeAttr::Raw) continue;
    cf::CodeAttr& b = to.attrs.emplace_back(to.resource());
    b.kind = a.kind;
    b.name = map(a.name);
    b.lines.assign(a.lines.begin(), a.lines.end());
    for (cf::LocalVar v : a.vars) {
      v.name = map(v.name);
      v.desc = map(v.desc);
      b.vars.push_back(v);
    }
    for (const cf::Frame& f : a.frames) {
      cf::Frame& g = b.frames.emplace_back(to.resource());
      g.type = f.type;
      g.at = f.at;
      auto vt = [&](cf::VType t) {
        if (t.tag == cf::VType::Object) t.cp = map(t.cp);
        return t;
      };
      for (const cf::VType& t : f.locals) g.locals.push_back(vt(t));
      for (const cf::VType& t : f.stack) g.stack.push_back(vt(t));
    }
  }
}

}  // namespace

void transplant(cf::ClassFile& donor, cf::ClassFile& host) {
  PoolMap map(donor, host);
  for (const cf::Member& f : donor.fields) {
    host.add_field(f.access, donor.member_name(f), donor.member_desc(f));
  }
  for (cf::Member& m : donor.methods) {
    std::string_view name = donor.member_name(m);
    if (name == "<init>" || name == "<clinit>") continue;
    cf::Member& n = host.add_method(m.access, name, donor.member_desc(m), m.code_attr >= 0);
    if (m.code_attr >= 0) copy_code(donor.decode_code(m), *n.code, map);
  }
}

}  // namespace jsched::rw
