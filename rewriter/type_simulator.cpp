#include "rewriter/type_simulator.h"

#include <stdexcept>
#include <string>

#include "classfile/opcodes.h"
#include "rewriter/descriptors.h"

namespace jsched::rw {

using cf::Insn;
using cf::Label;
using cf::VType;
namespace op = cf::op;

namespace {
[[noreturn]] void bad(const std::string& what) {
  throw std::runtime_error("type simulation: " + what);
}
bool cat2(const VType& t) {
  return t.wide();
}
}  // namespace

void label_news(cf::Code& code) {
  for (size_t i = 0; i < code.insns.size(); ++i) {
    if (code.insns[i].op != op::new_) continue;
    if (i > 0 && code.insns[i - 1].is_label()) continue;
    code.insns.insert(code.insns.begin() + long(i), Insn::label(code.new_label()));
    ++i;
  }
}

TypeSimulator::TypeSimulator(cf::ClassFile& cf, const cf::Member& m, const cf::Code& code)
    : cf_(cf), code_(code), entry_(entry_state(cf, m)) {
  for (size_t i = 0; i < code.insns.size(); ++i) {
    if (code.insns[i].op == op::new_ && i > 0 && code.insns[i - 1].is_label()) {
      new_class_[Label(code.insns[i - 1].v)] = code.insns[i].u;
    }
  }
}

VType TypeSimulator::pop(State& s) {
  if (s.stack.empty()) bad("pop from an empty stack");
  VType t = s.stack.back();
  s.stack.pop_back();
  return t;
}

void TypeSimulator::store(State& s, uint16_t index, const VType& t) {
  size_t need = index + (cat2(t) ? 2u : 1u);
  if (s.locals.size() < need) s.locals.resize(need, top());
  // Overwriting the second half of a long/double invalidates it.
  if (index > 0 && cat2(s.locals[index - 1])) s.locals[index - 1] = top();
  s.locals[index] = t;
  if (cat2(t)) s.locals[index + 1] = top();
}

VType TypeSimulator::component(const VType& a) {
  if (a.tag == VType::Null) return of(VType::Null);
  if (a.tag != VType::Object) bad("array load from a non-array");
  std::string_view name = cf_.cp.class_name(a.cp);
  if (name.size() < 2 || name[0] != '[') bad("array load from " + std::string(name));
  return vtype_of(name.substr(1), cf_.cp);
}

VType TypeSimulator::ldc_type(uint16_t index) {
  const cf::CpEntry& e = cf_.cp.at(index);
  switch (e.tag) {
    case cf::Tag::Integer:
      return of(VType::Integer);
    case cf::Tag::Float:
      return of(VType::Float);
    case cf::Tag::Long:
      return of(VType::Long);
    case cf::Tag::Double:
      return of(VType::Double);
    case cf::Tag::String:
      return object(cf_.cp.add_class("java/lang/String"));
    case cf::Tag::Class:
      return object(cf_.cp.add_class("java/lang/Class"));
    case cf::Tag::MethodType:
      return object(cf_.cp.add_class("java/lang/invoke/MethodType"));
    case cf::Tag::MethodHandle:
      return object(cf_.cp.add_class("java/lang/invoke/MethodHandle"));
    case cf::Tag::Dynamic: {
      std::string desc(cf_.cp.desc_of_nat(e.b));
      return vtype_of(desc, cf_.cp);
    }
    default:
      bad("ldc of an unloadable constant");
  }
}

void TypeSimulator::invoke(const Insn& in, State& s) {
  std::string_view name, desc;
  if (in.op == op::invokedynamic) {
    const cf::CpEntry& e = cf_.cp.at(in.u);
    name = cf_.cp.name_of_nat(e.b);
    desc = cf_.cp.desc_of_nat(e.b);
  } else {
    auto r = cf_.cp.member_ref(in.u);
    name = r.name;
    desc = r.desc;
  }
  std::string d(desc);  // the pool may grow below, which can move string storage
  size_t nargs = arg_descs(d).size();
  for (size_t k = 0; k < nargs; ++k) pop(s);
  if (in.op != op::invokestatic && in.op != op::invokedynamic) {
    VType recv = pop(s);
    if (in.op == op::invokespecial && name == "<init>") {
      VType init;
      if (recv.tag == VType::UninitializedThis) {
        init = object(cf_.this_class);
      } else if (recv.tag == VType::Uninitialized) {
        auto it = new_class_.find(recv.label);
        if (it == new_class_.end()) bad("<init> on an unknown new");
        init = object(it->second);
      } else {
        bad("<init> on an initialized value");
      }
      for (VType& t : s.locals) {
        if (t == recv) t = init;
      }
      for (VType& t : s.stack) {
        if (t == recv) t = init;
      }
    }
  }
  std::string_view ret = return_desc(d);
  if (ret != "V") push(s, vtype_of(ret, cf_.cp));
}

void TypeSimulator::step(const Insn& in, Label at, State& s) {
  const uint8_t o = in.op;
  auto I = [&] { push(s, of(VType::Integer)); };
  auto F = [&] { push(s, of(VType::Float)); };
  auto J = [&] { push(s, of(VType::Long)); };
  auto D = [&] { push(s, of(VType::Double)); };
  auto popn = [&](int n) {
    for (int k = 0; k < n; ++k) pop(s);
  };
  auto load = [&](uint16_t index) {
    if (index >= s.locals.size()) bad("load of local " + std::to_string(index) + " out of range");
    push(s, s.locals[index]);
  };
  if (o >= op::iload_0 && o <= op::aload_3) return load(uint16_t((o - op::iload_0) % 4));
  if (o >= op::istore_0 && o <= op::astore_3) {
    return store(s, uint16_t((o - op::istore_0) % 4), pop(s));
  }
  switch (o) {
    case op::nop:
      return;
    case op::aconst_null:
      push(s, of(VType::Null));
      return;
    case op::iconst_m1:
    case op::iconst_0:
    case op::iconst_1:
    case op::iconst_2:
    case op::iconst_3:
    case op::iconst_4:
    case op::iconst_5:
    case op::bipush:
    case op::sipush:
      I();
      return;
    case op::lconst_0:
    case op::lconst_1:
      J();
      return;
    case op::fconst_0:
    case op::fconst_1:
    case op::fconst_2:
      F();
      return;
    case op::dconst_0:
    case op::dconst_1:
      D();
      return;
    case op::ldc:
    case op::ldc_w:
    case op::ldc2_w:
      push(s, ldc_type(in.u));
      return;
    case op::iload:
    case op::lload:
    case op::fload:
    case op::dload:
    case op::aload:
      load(in.u);
      return;
    case op::iaload:
    case op::baload:
    case op::caload:
    case op::saload:
      popn(2), I();
      return;
    case op::laload:
      popn(2), J();
      return;
    case op::faload:
      popn(2), F();
      return;
    case op::daload:
      popn(2), D();
      return;
    case op::aaload: {
      pop(s);
      VType a = pop(s);
      push(s, component(a));
      return;
    }
    case op::istore:
    case op::lstore:
    case op::fstore:
    case op::dstore:
    case op::astore:
      store(s, in.u, pop(s));
      return;
    case op::iastore:
    case op::lastore:
    case op::fastore:
    case op::dastore:
    case op::aastore:
    case op::bastore:
    case op::castore:
    case op::sastore:
      popn(3);
      return;
    case op::pop:
      pop(s);
      return;
    case op::pop2:
      if (cat2(pop(s))) return;
      pop(s);
      return;
    case op::dup: {
      VType a = pop(s);
      push(s, a), push(s, a);
      return;
    }
    case op::dup_x1: {
      VType a = pop(s), b = pop(s);
      push(s, a), push(s, b), push(s, a);
      return;
    }
    case op::dup_x2: {
      VType a = pop(s), b = pop(s);
      if (cat2(b)) {
        push(s, a), push(s, b), push(s, a);
      } else {
        VType c = pop(s);
        push(s, a), push(s, c), push(s, b), push(s, a);
      }
      return;
    }
    case op::dup2: {
      VType a = pop(s);
      if (cat2(a)) {
        push(s, a), push(s, a);
      } else {
        VType b = pop(s);
        push(s, b), push(s, a), push(s, b), push(s, a);
      }
      return;
    }
    case op::dup2_x1: {
      VType a = pop(s);
      if (cat2(a)) {
        VType b = pop(s);
        push(s, a), push(s, b), push(s, a);
      } else {
        VType b = pop(s), c = pop(s);
        push(s, b), push(s, a), push(s, c), push(s, b), push(s, a);
      }
      return;
    }
    case op::dup2_x2: {
      VType a = pop(s);
      if (cat2(a)) {
        VType b = pop(s);
        if (cat2(b)) {
          push(s, a), push(s, b), push(s, a);
        } else {
          VType c = pop(s);
          push(s, a), push(s, c), push(s, b), push(s, a);
        }
      } else {
        VType b = pop(s), c = pop(s);
        if (cat2(c)) {
          push(s, b), push(s, a), push(s, c), push(s, b), push(s, a);
        } else {
          VType d = pop(s);
          push(s, b), push(s, a), push(s, d), push(s, c), push(s, b), push(s, a);
        }
      }
      return;
    }
    case op::swap: {
      VType a = pop(s), b = pop(s);
      push(s, a), push(s, b);
      return;
    }
    case op::iadd:
    case op::isub:
    case op::imul:
    case op::idiv:
    case op::irem:
    case op::ishl:
    case op::ishr:
    case op::iushr:
    case op::iand:
    case op::ior:
    case op::ixor:
      popn(2), I();
      return;
    case op::ladd:
    case op::lsub:
    case op::lmul:
    case op::ldiv:
    case op::lrem:
    case op::land:
    case op::lor:
    case op::lxor:
    case op::lshl:
    case op::lshr:
    case op::lushr:
      popn(2), J();
      return;
    case op::fadd:
    case op::fsub:
    case op::fmul:
    case op::fdiv:
    case op::frem:
      popn(2), F();
      return;
    case op::dadd:
    case op::dsub:
    case op::dmul:
    case op::ddiv:
    case op::drem:
      popn(2), D();
      return;
    case op::ineg:
    case op::lneg:
    case op::fneg:
    case op::dneg:
    case op::iinc:
      return;
    case op::i2l:
    case op::f2l:
    case op::d2l:
      pop(s), J();
      return;
    case op::i2f:
    case op::l2f:
    case op::d2f:
      pop(s), F();
      return;
    case op::i2d:
    case op::l2d:
    case op::f2d:
      pop(s), D();
      return;
    case op::l2i:
    case op::f2i:
    case op::d2i:
    case op::i2b:
    case op::i2c:
    case op::i2s:
      pop(s), I();
      return;
    case op::lcmp:
    case op::fcmpl:
    case op::fcmpg:
    case op::dcmpl:
    case op::dcmpg:
      popn(2), I();
      return;
    case op::ifeq:
    case op::ifne:
    case op::iflt:
    case op::ifge:
    case op::ifgt:
    case op::ifle:
    case op::ifnull:
    case op::ifnonnull:
    case op::tableswitch:
    case op::lookupswitch:
    case op::athrow:
    case op::monitorenter:
    case op::monitorexit:
    case op::putstatic:
      pop(s);
      return;
    case op::if_icmpeq:
    case op::if_icmpne:
    case op::if_icmplt:
    case op::if_icmpge:
    case op::if_icmpgt:
    case op::if_icmple:
    case op::if_acmpeq:
    case op::if_acmpne:
    case op::putfield:
      popn(2);
      return;
    case op::goto_:
    case op::goto_w:
    case op::return_:
      return;
    case op::ireturn:
    case op::lreturn:
    case op::freturn:
    case op::dreturn:
    case op::areturn:
      pop(s);
      return;
    case op::jsr:
    case op::jsr_w:
    case op::ret:
      bad("jsr/ret cannot be type-checked");
    case op::getstatic: {
      std::string d(cf_.cp.member_ref(in.u).desc);
      push(s, vtype_of(d, cf_.cp));
      return;
    }
    case op::getfield: {
      pop(s);
      std::string d(cf_.cp.member_ref(in.u).desc);
      push(s, vtype_of(d, cf_.cp));
      return;
    }
    case op::invokevirtual:
    case op::invokespecial:
    case op::invokestatic:
    case op::invokeinterface:
    case op::invokedynamic:
      invoke(in, s);
      return;
    case op::new_:
      if (at == cf::kNoLabel) bad("new without a label");
      push(s, VType{VType::Uninitialized, 0, at});
      return;
    case op::newarray: {
      static const char* kArr[] = {"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};
      pop(s);
      push(s, object(cf_.cp.add_class(kArr[in.u - 4])));
      return;
    }
    case op::anewarray: {
      pop(s);
      std::string c(cf_.cp.class_name(in.u));
      std::string arr = c[0] == '[' ? "[" + c : "[L" + c + ";";
      push(s, object(cf_.cp.add_class(arr)));
      return;
    }
    case op::arraylength:
    case op:: instanceof:
      pop(s), I();
      return;
    case op::checkcast:
      pop(s), push(s, object(in.u));
      return;
    case op::multianewarray:
      popn(in.v), push(s, object(in.u));
      return;
    default:
      bad("unexpected opcode " + std::to_string(o));
  }
}

void TypeSimulator::walk(const std::function<void(size_t, const State&)>& visit) {
  std::unordered_map<Label, State> frames;
  if (const cf::CodeAttr* smt = const_cast<cf::Code&>(code_).find(cf::CodeAttr::StackMap)) {
    std::vector<State> states = expand_frames(*smt, entry_);
    for (size_t k = 0; k < states.size(); ++k) frames[smt->frames[k].at] = std::move(states[k]);
  }
  State cur = entry_;
  bool live = true;
  Label at = cf::kNoLabel;
  for (size_t i = 0; i < code_.insns.size(); ++i) {
    const Insn& in = code_.insns[i];
    if (in.is_label()) {
      at = Label(in.v);
      if (auto it = frames.find(at); it != frames.end()) {
        cur = it->second;
        live = true;
      }
      continue;
    }
    if (live) {
      visit(i, cur);
      step(in, at, cur);
      if (cf::ends_block(in.op)) live = false;
    }
    at = cf::kNoLabel;
  }
}

}  // namespace jsched::rw
