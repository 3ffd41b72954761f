#include "rewriter/method_references.h"

#include <string>
#include <vector>

#include "classfile/bytes.h"
#include "classfile/opcodes.h"
#include "rewriter/descriptors.h"
#include "rewriter/emitter.h"
#include "rewriter/thread_calls.h"

namespace jsched::rw {

namespace {

namespace op = cf::op;
using cf::Insn;

// JVMS 4.4.8 reference kinds.
constexpr uint8_t kInvokeVirtual = 5, kInvokeStatic = 6, kInvokeInterface = 9;

uint8_t opcode_of(uint8_t kind) {
  return kind == kInvokeVirtual     ? op::invokevirtual
         : kind == kInvokeStatic    ? op::invokestatic
         : kind == kInvokeInterface ? op::invokeinterface
                                    : 0;
}

bool is_lambda_bootstrap(const cf::ConstantPool& cp, uint16_t handle) {
  if (!cp.valid(handle, cf::Tag::MethodHandle)) return false;
  const cf::CpEntry& h = cp.at(handle);
  if (h.kind != kInvokeStatic) return false;
  auto ref = cp.member_ref(h.a);
  return ref.owner == "java/lang/invoke/LambdaMetafactory" &&
         (ref.name == "metafactory" || ref.name == "altMetafactory");
}

}  // namespace

bool redirect_method_references(ClassContext& ctx) {
  cf::ClassFile& cf = ctx.cf;
  cf::Attribute* bsm = nullptr;
  for (cf::Attribute& a : cf.attrs) {
    if (cf.cp.utf8(a.name) == "BootstrapMethods") bsm = &a;
  }
  if (bsm == nullptr) return false;
  cf::Reader r(bsm->data);
  std::vector<uint8_t> out(bsm->data.begin(), bsm->data.end());
  const uint16_t count = r.u2("bootstrap methods");
  bool changed = false;
  int bridges = 0;
  for (uint16_t i = 0; i < count; ++i) {
    const uint16_t method = r.u2("bootstrap method");
    const uint16_t nargs = r.u2("bootstrap arguments");
    const size_t args_at = r.pos();
    std::vector<uint16_t> args;
    for (uint16_t k = 0; k < nargs; ++k) args.push_back(r.u2("bootstrap argument"));
    if (nargs < 3 || !is_lambda_bootstrap(cf.cp, method)) continue;
    const uint16_t impl = args[1];
    if (!cf.cp.valid(impl, cf::Tag::MethodHandle)) continue;
    const uint8_t kind = cf.cp.at(impl).kind;
    const uint8_t o = opcode_of(kind);
    if (o == 0) continue;
    auto ref = cf.cp.member_ref(cf.cp.at(impl).a);
    auto match = match_call(o, ref.name, ref.desc);
    if (!match) continue;
    // Thread's own operations (a subclass's same-named method may be another); wait and
    // notify on any receiver.
    if (match->group != CallMatch::ObjectMethod && ref.owner != "java/lang/Thread") continue;
    const std::string recv = match->group == CallMatch::ThreadStatic   ? ""
                             : match->group == CallMatch::ObjectMethod ? "Ljava/lang/Object;"
                                                                       : "Ljava/lang/Thread;";
    const std::string args_desc(ref.desc.substr(1, ref.desc.find(')') - 1));
    const std::string desc = "(" + recv + args_desc + ")" + std::string(return_desc(ref.desc));
    const std::string name = "jsched$ref$" + std::to_string(bridges++);
    const int32_t site = ctx.sites.add(SiteInfo{match->kind, ctx.class_name, "<method reference>",
                                                "", uint32_t(i), ref.owner, ref.name, ref.desc});
    uint16_t access = cf::acc::kStatic | cf::acc::kSynthetic;
    access |= (ctx.is_interface && cf.major < 53) ? cf::acc::kPublic : cf::acc::kPrivate;
    cf::Member& m = cf.add_method(access, name, desc, true);
    cf::Code& code = *m.code;
    Emitter e(cf, code.insns);
    uint16_t slot = 0;
    for (std::string_view a : arg_descs(desc)) {
      e.local(load_op(a[0]), slot);
      slot = uint16_t(slot + desc_slots(a));
    }
    e.iconst(site);
    e.hook(ctx.cfg.hook_owner, match->hook);
    e.op(return_op(return_desc(ref.desc)[0]));
    code.max_locals = slot;
    code.max_stack = uint16_t(slot + 1);
    const cf::Tag tag = ctx.is_interface ? cf::Tag::InterfaceMethodref : cf::Tag::Methodref;
    const uint16_t handle =
        cf.cp.add_method_handle(kInvokeStatic, cf.cp.add_member(tag, ctx.class_name, name, desc));
    const size_t at = args_at + 2;  // args[1]
    out[at] = uint8_t(handle >> 8);
    out[at + 1] = uint8_t(handle);
    changed = true;
  }
  if (!changed) return false;
  // add_method may have moved the attributes' container: look the attribute up again.
  for (cf::Attribute& a : cf.attrs) {
    if (cf.cp.utf8(a.name) == "BootstrapMethods")
      a.data = cf.own(cf::Bytes(out.data(), out.size()));
  }
  return true;
}

}  // namespace jsched::rw
