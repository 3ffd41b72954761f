#include "rewriter/static_reset.h"

#include <stdexcept>
#include <unordered_map>

#include "classfile/opcodes.h"
#include "rewriter/emitter.h"
#include "rewriter/frame_state.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;

namespace {

constexpr std::string_view kClinit = "jsched$clinit", kCheck = "jsched$check",
                           kStamp = "jsched$gen", kTouch = "jsched$touch$", kSeen = "jsched$seen$";

bool has_constant_value(const cf::ClassFile& cf, const cf::Member& f) {
  for (const cf::Attribute& a : f.attrs) {
    if (cf.cp.utf8(a.name) == "ConstantValue") return true;
  }
  return false;
}

// A static field jsched$clinit assigns again: not a compile-time constant.
bool resettable_field(const cf::ClassFile& cf, const cf::Member& f) {
  return (f.access & cf::acc::kStatic) && !has_constant_value(cf, f);
}

void push_default(Emitter& e, char desc) {
  switch (desc) {
    case 'J':
      return e.op(op::lconst_0);
    case 'F':
      return e.op(op::fconst_0);
    case 'D':
      return e.op(op::dconst_0);
    case 'L':
    case '[':
      return e.op(op::aconst_null);
    default:
      return e.op(op::iconst_0);
  }
}

cf::Member* find_method(cf::ClassFile& cf, std::string_view name) {
  for (cf::Member& m : cf.methods) {
    if (cf.member_name(m) == name) return &m;
  }
  return nullptr;
}

}  // namespace

std::string reset_unsupported(const cf::ClassFile& cf) {
  if (cf.major < 49) return "class file version " + std::to_string(cf.major) + " (before Java 5)";
  return "";
}

bool add_reset_checks(ClassContext& ctx, cf::Member& m) {
  if (m.code_attr < 0) return false;
  cf::ClassFile& cf = ctx.cf;
  // Before Java 8 an interface may hold no static method but <clinit>, and its code may not
  // call one through an InterfaceMethodref (the verifier refuses the class), so there is no
  // touch method to call: its only code, <clinit>, keeps its accesses as they are, and such an
  // interface is not resettable anyway (make_resettable says so).
  if (ctx.is_interface && cf.major < 52) return false;
  const std::string_view name = cf.member_name(m);
  const bool is_static = (m.access & cf::acc::kStatic) != 0;
  // Static methods and constructors check their own class on entry, which is where the JVM
  // would have initialized it; their own static accesses need nothing more.
  const bool entry = !ctx.is_interface && (name == "<init>" || (is_static && name != "<clinit>"));
  const bool own_current = entry || name == "<clinit>" || ctx.is_interface;
  cf::Code& code = cf.decode_code(m);
  cf::Vec<Insn> out(code.resource());
  out.reserve(code.insns.size() + 8);
  Emitter e(cf, out);
  bool changed = false;
  if (entry) {
    e.invokestatic(ctx.class_name, kCheck, "()V");
    changed = true;
  }
  // A frame names an uninitialized object by the label of its `new`: a call put before a
  // `new` gets the labels there (branches must reach the call), and the `new` a label of its
  // own, which those frame entries then name.
  std::unordered_map<cf::Label, cf::Label> renamed;
  for (const Insn& in : code.insns) {
    if (!in.is_label() && (in.op == op::getstatic || in.op == op::putstatic || in.op == op::new_)) {
      std::string_view owner =
          in.op == op::new_ ? cf.cp.class_name(in.u) : cf.cp.member_ref(in.u).owner;
      const size_t before = out.size();
      if (owner == ctx.class_name) {
        if (!own_current) e.invokestatic(ctx.class_name, kCheck, "()V");
      } else if (ctx.cfg.may_reset == nullptr || ctx.cfg.may_reset(owner)) {
        auto [it, added] = ctx.touches.try_emplace(std::string(owner));
        if (added) it->second = std::string(kTouch) + std::to_string(ctx.touches.size() - 1);
        e.invokestatic(ctx.class_name, it->second, "()V", ctx.is_interface);
      }
      if (out.size() != before) {
        changed = true;
        if (in.op == op::new_) {
          const cf::Label own = code.new_label();
          for (size_t k = before; k-- > 0 && out[k].is_label();) renamed[cf::Label(out[k].v)] = own;
          e.label(own);
        }
      }
    }
    e.insn(in);
  }
  if (!changed) return false;
  if (!renamed.empty()) {
    if (cf::CodeAttr* frames = code.find(cf::CodeAttr::StackMap)) {
      for (cf::Frame& f : frames->frames) {
        for (auto* types : {&f.locals, &f.stack}) {
          for (cf::VType& t : *types) {
            if (t.tag != cf::VType::Uninitialized) continue;
            if (auto it = renamed.find(t.label); it != renamed.end()) t.label = it->second;
          }
        }
      }
    }
  }
  code.insns = std::move(out);
  relocate(cf, m, code);
  return true;
}

namespace {

// The start of a no-argument static method jsched adds: unless static int `field` is the
// execution (JSchedStatics.generation), go on; else to the label returned, where end_at ends it.
cf::Label unless_current(cf::ClassFile& cf, cf::Code& code, uint16_t field, uint16_t generation) {
  Emitter e(cf, code.insns);
  cf::Label current = code.new_label();
  e.insn(Insn::make(op::getstatic, field));
  e.insn(Insn::make(op::getstatic, generation));
  e.branch(op::if_icmpeq, current);
  code.max_stack = 2;
  return current;
}

void end_at(cf::ClassFile& cf, cf::Code& code, cf::Label current) {
  Emitter e(cf, code.insns);
  e.label(current);
  e.op(op::return_);
  if (needs_frames(cf)) add_frame_table(cf, code, {{current, State{}}}, State{});
}

// For each class whose statics this class's code uses, a method the uses call first (a class's
// note of what it has seen keeps the common case to two reads and a compare):
//
//   static void jsched$touch$N() {
//     if (jsched$seen$N != JSchedStatics.generation && JSchedStatics.touch(Owner.class))
//       jsched$seen$N = JSchedStatics.generation;
//   }
//
// JSchedStatics.touch is false while the owner's initializer is still running (its own thread
// uses it again): other threads must still wait for it then.
void add_touches(ClassContext& ctx) {
  cf::ClassFile& cf = ctx.cf;
  const uint16_t generation = cf.cp.add_member(cf::Tag::Fieldref, kStaticsClass, "generation", "I");
  uint16_t access = cf::acc::kStatic | cf::acc::kSynthetic;
  access |= (ctx.is_interface && cf.major < 53) ? cf::acc::kPublic : cf::acc::kPrivate;
  for (const auto& [owner, name] : ctx.touches) {
    if (ctx.is_interface) {  // an interface's fields are final: no note of what it has seen
      cf::Member& m = cf.add_method(access, name, "()V", true);
      Emitter e(cf, m.code->insns);
      e.ldc_class(cf.cp.add_class(owner));
      e.invokestatic(kStaticsClass, "touch", "(Ljava/lang/Class;)Z");
      e.op(op::pop);
      e.op(op::return_);
      m.code->max_stack = 1;
      continue;
    }
    const std::string seen = std::string(kSeen) + name.substr(kTouch.size());
    cf.add_field(cf::acc::kPrivate | cf::acc::kStatic | cf::acc::kSynthetic, seen, "I");
    const uint16_t seen_ref = cf.cp.add_member(cf::Tag::Fieldref, ctx.class_name, seen, "I");
    cf::Member& m = cf.add_method(access, name, "()V", true);
    cf::Code& code = *m.code;
    Emitter e(cf, code.insns);
    cf::Label done = unless_current(cf, code, seen_ref, generation);
    e.ldc_class(cf.cp.add_class(owner));
    e.invokestatic(kStaticsClass, "touch", "(Ljava/lang/Class;)Z");
    e.branch(op::ifeq, done);
    e.insn(Insn::make(op::getstatic, generation));
    e.insn(Insn::make(op::putstatic, seen_ref));
    end_at(cf, code, done);
  }
}

}  // namespace

std::string make_resettable(ClassContext& ctx) {
  cf::ClassFile& cf = ctx.cf;
  cf::Member* clinit = find_method(cf, "<clinit>");
  if (ctx.is_interface) {
    add_touches(ctx);
    return clinit ? "an interface with a static initializer (its fields cannot be assigned again)"
                  : "";
  }
  if (find_method(cf, kClinit) || find_method(cf, kCheck))
    throw std::runtime_error("the class already has jsched$clinit or jsched$check");
  const uint16_t synthetic_static = cf::acc::kPrivate | cf::acc::kStatic | cf::acc::kSynthetic;

  // jsched$clinit: every static field back to its default, then the original initializer.
  cf::Member* body = clinit;
  if (body) {
    body->name = cf.cp.add_utf8(kClinit);
    body->access = synthetic_static;
  } else {
    body = &cf.add_method(synthetic_static, kClinit, "()V", true);
    body->code->insns.push_back(Insn::make(op::return_));
  }
  cf::Code& code = cf.decode_code(*body);
  cf::Vec<Insn> out(code.resource());
  Emitter e(cf, out);
  for (cf::Member& f : cf.fields) {
    if (!resettable_field(cf, f)) continue;
    f.access = uint16_t(f.access & ~cf::acc::kFinal);
    push_default(e, cf.member_desc(f)[0]);
    e.insn(Insn::make(op::putstatic, cf.cp.add_member(cf::Tag::Fieldref, ctx.class_name,
                                                      cf.member_name(f), cf.member_desc(f))));
  }
  if (!out.empty()) {
    out.insert(out.end(), code.insns.begin(), code.insns.end());
    code.insns = std::move(out);
    code.max_stack = std::max<uint16_t>(code.max_stack, 2);
    relocate(cf, *body, code);
  }

  // The stamp, and the JVM's initializer: stamp, then the body.
  cf.add_field(synthetic_static, kStamp, "I");
  const uint16_t stamp = cf.cp.add_member(cf::Tag::Fieldref, ctx.class_name, kStamp, "I");
  const uint16_t generation = cf.cp.add_member(cf::Tag::Fieldref, kStaticsClass, "generation", "I");
  cf::Member& init = cf.add_method(cf::acc::kStatic, "<clinit>", "()V", true);
  init.code->insns.push_back(Insn::make(op::getstatic, generation));
  init.code->insns.push_back(Insn::make(op::putstatic, stamp));
  Emitter ie(cf, init.code->insns);
  ie.invokestatic(ctx.class_name, kClinit, "()V");
  ie.op(op::return_);
  init.code->max_stack = 1;

  // jsched$check: `if (jsched$gen != generation) JSchedStatics.reinitialize(ThisClass.class)`.
  cf::Member& check = cf.add_method(synthetic_static, kCheck, "()V", true);
  cf::Code& cc = *check.code;
  Emitter ce(cf, cc.insns);
  cf::Label current = unless_current(cf, cc, stamp, generation);
  ce.ldc_class(cf.this_class);
  ce.invokestatic(kStaticsClass, "reinitialize", "(Ljava/lang/Class;)V");
  end_at(cf, cc, current);
  add_touches(ctx);  // last: adding methods moves the members above
  return "";
}

}  // namespace jsched::rw
