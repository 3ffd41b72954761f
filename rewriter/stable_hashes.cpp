#include "rewriter/stable_hashes.h"

#include "classfile/opcodes.h"
#include "rewriter/hooks.h"

namespace jsched::rw {

bool add_stable_hash(cf::ClassFile& c, std::string_view hook_owner) {
  if (c.access & (cf::acc::kInterface | cf::acc::kAnnotation | cf::acc::kModule)) return false;
  if (c.super_class == 0 || c.cp.class_name(c.super_class) != "java/lang/Object") return false;
  for (uint16_t i : c.interfaces) {
    std::string_view n = c.cp.class_name(i);
    if (n == "java/io/Serializable" || n == "java/io/Externalizable") return false;
  }
  for (const cf::Member& m : c.methods) {
    if (c.member_name(m) == "hashCode" && c.member_desc(m) == "()I") return false;
  }
  const HookInfo& h = hook_info(Hook::IdentityHash);
  uint16_t ref = c.cp.add_methodref(hook_owner, h.name, h.desc);
  cf::Member& m = c.add_method(cf::acc::kPublic | cf::acc::kSynthetic, "hashCode", "()I", true);
  cf::Code& code = *m.code;
  code.insns.push_back(cf::Insn::make(cf::op::aload_0));
  code.insns.push_back(cf::Insn::make(cf::op::invokestatic, ref));
  code.insns.push_back(cf::Insn::make(cf::op::ireturn));
  code.max_stack = 1;
  code.max_locals = 1;
  return true;
}

}  // namespace jsched::rw
