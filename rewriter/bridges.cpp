// Bridges for Thread operations called through another owner. `w.join()` on a `Worker extends
// Thread` compiles to `invokevirtual Worker.join()V`; without the class hierarchy at rewrite
// time we cannot tell a Thread subclass from an unrelated class with a join() method, so the
// call goes to a synthetic static method of the calling class that decides at run time:
//
//   static void jsched$bridge$N(Worker recv, int site) {
//     if (recv instanceof Thread) JSchedShim.threadJoin((Thread) recv, site);
//     else recv.join();
//   }
//
// Static calls (`Worker.sleep(5)`) ask the shim whether the owner resolves the method to
// Thread's, since a class in between may declare its own static method of that name.
#include "classfile/opcodes.h"
#include "rewriter/descriptors.h"
#include "rewriter/emitter.h"
#include "rewriter/frame_state.h"
#include "rewriter/method_rewriter.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;

void add_bridges(ClassContext& ctx) {
  cf::ClassFile& cf = ctx.cf;
  const std::string& hooks = ctx.cfg.hook_owner;
  for (const auto& [key, req] : ctx.bridges) {
    uint16_t access = cf::acc::kStatic | cf::acc::kSynthetic;
    access |= (ctx.is_interface && cf.major < 53) ? cf::acc::kPublic : cf::acc::kPrivate;
    cf::Member& m = cf.add_method(access, req.method_name, req.method_desc, true);
    cf::Code& code = *m.code;
    Emitter e(cf, code.insns);
    const bool is_static = key.op == op::invokestatic;
    std::vector<std::string_view> args = arg_descs(req.method_desc);  // includes receiver, site
    auto load_args = [&](size_t from, size_t to) {
      uint16_t slot = 0;
      for (size_t k = 0; k < args.size(); ++k) {
        if (k >= from && k < to) e.local(load_op(args[k][0]), slot);
        slot = uint16_t(slot + desc_slots(args[k]));
      }
    };
    const uint16_t site_slot = uint16_t(arg_slots(req.method_desc) - 1);
    cf::Label plain = code.new_label();
    if (is_static) {
      e.ldc_class(cf.cp.add_class(key.owner));
      e.local(op::iload, site_slot);
      e.hook(hooks, Hook::ResolvesToThread);
      e.branch(op::ifeq, plain);
      load_args(0, args.size());
    } else {
      e.op(op::aload_0);
      e.type(op:: instanceof, "java/lang/Thread");
      e.branch(op::ifeq, plain);
      e.op(op::aload_0);
      e.type(op::checkcast, "java/lang/Thread");
      load_args(1, args.size());
    }
    e.hook(hooks, req.hook);
    char ret = return_desc(req.method_desc)[0];
    e.op(return_op(ret));
    e.label(plain);
    load_args(0, args.size() - 1);
    cf::Tag tag = key.op == op::invokeinterface ? cf::Tag::InterfaceMethodref : cf::Tag::Methodref;
    Insn call = Insn::make(key.op, cf.cp.add_member(tag, key.owner, key.name, key.desc));
    if (key.op == op::invokeinterface) call.v = arg_slots(key.desc) + 1;
    e.insn(call);
    e.op(return_op(ret));
    code.max_locals = uint16_t(site_slot + 1);
    code.max_stack = uint16_t(site_slot + 2);
    if (!needs_frames(cf)) continue;
    // One frame at `plain`: the arguments as locals, empty stack.
    State entry = entry_state(cf, m);
    add_frame_table(cf, code, {{plain, State{entry.locals, {}}}}, entry);
  }
}

}  // namespace jsched::rw
