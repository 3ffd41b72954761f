// ACC_SYNCHRONIZED methods: the JVM would take the monitor before any bytecode runs, out of the
// scheduler's sight. The flag is removed and the body wrapped the way javac wraps a
// synchronized block:
//
//       <lock>; dup; <site>; invokestatic monitorEnter; monitorenter
//   start:
//       ... body; before each xreturn: <lock>; monitorexit; <lock>; <site>; invokestatic
//       monitorExit (from the monitorexit to the xreturn, outside the handler's range)
//   end:
//   handler (catch any, start..end, last in the exception table):
//       <lock>; monitorexit; <lock>; <site>; invokestatic monitorExit; athrow
//
// <lock> is `aload_0` for instance methods, unless the body stores into slot 0; otherwise (and
// for static methods, whose lock is `ldc ThisClass`) the lock is kept in a new local that
// every frame carries.
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "classfile/opcodes.h"
#include "rewriter/emitter.h"
#include "rewriter/frame_state.h"
#include "rewriter/handler_gaps.h"
#include "rewriter/method_rewriter.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;
using cf::VType;

namespace {

bool writes_slot0(const cf::Code& code) {
  for (const Insn& in : code.insns) {
    switch (in.op) {
      case op::istore_0:
      case op::lstore_0:
      case op::fstore_0:
      case op::dstore_0:
      case op::astore_0:
        return true;
      case op::istore:
      case op::lstore:
      case op::fstore:
      case op::dstore:
      case op::astore:
      case op::iinc:
        if (in.u == 0) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

// Which instructions of `code` control can reach from the method's entry (by index into
// code.insns; labels are never reachable). Code generators (Groovy's, ASM's users) leave dead
// code with frames of their own, such as a lone `athrow` after an `athrow` whose frame has no
// locals: the type checker checks such code against every handler that covers it, so the
// handler added here must not cover it.
std::vector<bool> reachable(const cf::Code& code) {
  const size_t n = code.insns.size();
  std::unordered_map<cf::Label, size_t> at;  // label -> index of the instruction after it
  for (size_t i = n; i-- > 0;) {
    if (code.insns[i].is_label()) at[cf::Label(code.insns[i].v)] = i;
  }
  std::vector<bool> seen(n, false);
  std::vector<size_t> work = {0};
  auto go = [&](cf::Label l) {
    if (auto it = at.find(l); it != at.end()) work.push_back(it->second);
  };
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    for (; i < n && !seen[i]; ++i) {
      seen[i] = true;
      const Insn& in = code.insns[i];
      if (in.is_label()) continue;
      if (cf::is_branch(in.op)) go(cf::Label(in.v));
      if (in.op == op::tableswitch || in.op == op::lookupswitch) {
        const cf::Switch& sw = code.switches[size_t(in.v)];
        go(sw.dflt);
        for (uint32_t k = 0; k < sw.count; ++k) go(code.switch_targets[sw.first + k]);
      }
      if (cf::ends_block(in.op)) break;
    }
    // A handler is reachable once any instruction it covers is.
    for (const cf::ExceptionEntry& x : code.exceptions) {
      auto from = at.find(x.start), to = at.find(x.end), h = at.find(x.handler);
      if (from == at.end() || h == at.end() || seen[h->second]) continue;
      const size_t end = to == at.end() ? n : to->second;
      for (size_t k = from->second; k < end; ++k) {
        if (seen[k] && !code.insns[k].is_label()) {
          work.push_back(h->second);
          break;
        }
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (code.insns[i].is_label()) seen[i] = false;
  }
  return seen;
}

cf::CodeAttr& stack_map(cf::ClassFile& cf, cf::Code& code) {
  if (cf::CodeAttr* a = code.find(cf::CodeAttr::StackMap)) return *a;
  cf::CodeAttr& a = code.attrs.emplace_back(code.resource());
  a.kind = cf::CodeAttr::StackMap;
  a.name = cf.cp.add_utf8("StackMapTable");
  return a;
}

}  // namespace

void desynchronize(ClassContext& ctx, cf::Member& m, cf::Code& code) {
  cf::ClassFile& cf = ctx.cf;
  const bool is_static = m.access & cf::acc::kStatic;
  if (is_static && cf.major < 49) cf.major = 49;  // `ldc Class` needs version 49
  // The lock lives in a local from entry to every exit: HotSpot's compilers match a
  // monitorexit to its monitorenter by where the reference came from, and two `ldc`s of the
  // class are two values to them. `this` stays in slot 0 unless the body overwrites it.
  const bool fresh = is_static || writes_slot0(code);
  const uint16_t lock_slot = fresh ? code.max_locals : 0;
  if (fresh && code.max_locals == 0xffff) throw std::runtime_error("max_locals overflow");
  const State entry = entry_state(cf, m);

  std::string method(cf.member_name(m)), desc(cf.member_desc(m));
  cf::Layout lay;
  cf::compute_layout(code, lay);
  auto site = [&](SiteKind k, uint32_t bci) {
    return ctx.sites.add(SiteInfo{k, ctx.class_name, method, desc, bci, "", "", ""});
  };
  const std::string& owner = ctx.cfg.hook_owner;

  cf::Vec<Insn> out(code.resource());
  out.reserve(code.insns.size() + 16);
  Emitter e(cf, out);
  auto push_lock = [&] { e.local(op::aload, lock_slot); };
  // Returns the label after the monitorexit: what follows runs with the monitor released.
  auto exit_sequence = [&](uint32_t bci) {
    push_lock();
    e.op(op::monitorexit);
    const cf::Label released = code.new_label();
    e.label(released);
    push_lock();
    e.iconst(site(SiteKind::SyncMethodExit, bci));
    e.hook(owner, Hook::MonitorExit);
    return released;
  };

  if (fresh) {
    if (is_static) {
      e.ldc_class(cf.this_class);
    } else {
      e.op(op::aload_0);
    }
    e.local(op::astore, lock_slot);
  }
  push_lock();
  e.op(op::dup);
  e.iconst(site(SiteKind::SyncMethodEnter, 0));
  e.hook(owner, Hook::MonitorEnter);
  e.op(op::monitorenter);
  // The handler covers the body's reachable code, in as many ranges as dead code splits it
  // into (see reachable()).
  const std::vector<bool> live = reachable(code);
  std::vector<std::pair<cf::Label, cf::Label>> ranges;
  std::vector<Gap> gaps;  // from each return's monitorexit to the return
  bool open = false;
  auto open_range = [&] {
    ranges.emplace_back(code.new_label(), cf::kNoLabel);
    e.label(ranges.back().first);
    open = true;
  };
  auto close_range = [&] {
    ranges.back().second = code.new_label();
    e.label(ranges.back().second);
    open = false;
  };
  open_range();
  for (size_t i = 0; i < code.insns.size(); ++i) {
    const Insn& in = code.insns[i];
    if (!in.is_label()) {
      if (live[i] && !open) open_range();
      if (!live[i] && open) close_range();
    }
    if (!in.is_label() && cf::is_return(in.op)) {
      const cf::Label released = exit_sequence(lay.insn_offset[i]);
      e.insn(in);
      gaps.push_back(Gap{released, code.new_label(), 0});
      e.label(gaps.back().to);
      continue;
    }
    e.insn(in);
  }
  if (open) close_range();
  cf::Label handler = code.new_label();
  e.label(handler);
  exit_sequence(lay.length);
  e.op(op::athrow);
  code.insns = std::move(out);
  for (const auto& [from, to] : ranges)
    code.exceptions.push_back(cf::ExceptionEntry{from, to, handler, 0});
  std::vector<int> handler_held(code.num_labels, -1);
  handler_held[handler] = 1;  // the method's monitor; the body's own handlers stay as they were
  leave_gaps_uncovered(code, gaps, handler_held);

  if (fresh) code.max_locals = uint16_t(lock_slot + 1);
  code.max_stack = uint16_t(std::max<int>(code.max_stack + 2, 3));
  m.access &= uint16_t(~cf::acc::kSynchronized);

  if (!needs_frames(cf)) return;
  cf::CodeAttr& smt = stack_map(cf, code);
  VType lock_type = is_static ? object(cf.cp.add_class("java/lang/Class")) : object(cf.this_class);
  std::vector<std::pair<cf::Label, State>> frames;
  std::vector<State> states = expand_frames(smt, entry);
  for (size_t k = 0; k < states.size(); ++k) {
    State s = std::move(states[k]);
    if (fresh) {
      if (s.locals.size() <= lock_slot) s.locals.resize(lock_slot + 1, top());
      s.locals[lock_slot] = lock_type;
    }
    frames.emplace_back(smt.frames[k].at, std::move(s));
  }
  State h;
  h.locals.assign(size_t(lock_slot) + 1, top());
  h.locals[lock_slot] = lock_type;
  h.stack.push_back(object(cf.cp.add_class("java/lang/Throwable")));
  if (fresh) encode_frames(smt, frames, entry);
  // Existing frames keep their encoding otherwise; the handler frame is last and explicit.
  cf::Frame& f = smt.frames.emplace_back(code.resource());
  f.type = 255;
  f.at = handler;
  std::vector<VType> fl = frame_locals(h.locals);
  f.locals.assign(fl.begin(), fl.end());
  f.stack.assign(h.stack.begin(), h.stack.end());
}

}  // namespace jsched::rw
