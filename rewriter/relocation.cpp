// Branch relocation after instrumentation grew a method.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "classfile/opcodes.h"
#include "rewriter/method_rewriter.h"
#include "rewriter/type_simulator.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;

namespace {

uint8_t invert(uint8_t o) {
  if (o == op::ifnull) return op::ifnonnull;
  if (o == op::ifnonnull) return op::ifnull;
  // ifeq/ifne, iflt/ifge, ifgt/ifle, if_icmpeq/ne, lt/ge, gt/le, if_acmpeq/ne pair up as
  // even/odd neighbours starting at ifeq (153).
  return uint8_t(((o - op::ifeq) ^ 1) + op::ifeq);
}

bool fits16(int64_t d) {
  return d >= -32768 && d <= 32767;
}

}  // namespace

void relocate(cf::ClassFile& cf, const cf::Member& m, cf::Code& code) {
  for (;;) {
    cf::Layout lay;
    cf::compute_layout(code, lay);
    if (lay.length > 65535) {
      throw std::runtime_error("code grows to " + std::to_string(lay.length) +
                               " bytes, over the 65535-byte limit");
    }
    bool changed = false;
    std::vector<size_t> far;
    for (size_t i = 0; i < code.insns.size(); ++i) {
      Insn& in = code.insns[i];
      if (in.is_label() || cf::kOps[in.op].operand != cf::Operand::Branch) continue;
      int64_t d = int64_t(lay.label_offset[cf::Label(in.v)]) - int64_t(lay.insn_offset[i]);
      if (fits16(d)) continue;
      changed = true;
      if (in.op == op::goto_) {
        in.op = op::goto_w;
      } else if (in.op == op::jsr) {
        in.op = op::jsr_w;
      } else {
        far.push_back(i);
      }
    }
    if (!changed) return;
    if (far.empty()) continue;

    // Conditional branches out of range: `if<c> L` becomes `if<!c> skip; goto_w L; skip:`.
    // `skip` is a branch target after an unconditional jump, so it needs a frame: the state
    // after the original branch popped its operands.
    cf::CodeAttr* smt = code.find(cf::CodeAttr::StackMap);
    const bool frames = smt != nullptr || cf.major >= 51;
    std::unordered_map<size_t, State> after;
    State entry = entry_state(cf, m);
    if (frames) {
      TypeSimulator sim(cf, m, code);
      std::vector<bool> want(code.insns.size(), false);
      for (size_t i : far) want[i] = true;
      sim.walk([&](size_t i, const State& s) {
        if (!want[i]) return;
        State t = s;
        sim.step(code.insns[i], cf::kNoLabel, t);
        after.emplace(i, std::move(t));
      });
    }
    std::vector<std::pair<cf::Label, State>> new_frames;
    cf::Vec<Insn> out(code.resource());
    out.reserve(code.insns.size() + 3 * far.size());
    size_t next = 0;
    for (size_t i = 0; i < code.insns.size(); ++i) {
      const Insn& in = code.insns[i];
      if (next < far.size() && far[next] == i) {
        ++next;
        cf::Label skip = code.new_label();
        out.push_back(Insn::make(invert(in.op), 0, int32_t(skip)));
        out.push_back(Insn::make(op::goto_w, 0, in.v));
        out.push_back(Insn::label(skip));
        if (frames) {
          auto it = after.find(i);
          if (it == after.end()) throw std::runtime_error("far branch in code without frames");
          new_frames.emplace_back(skip, it->second);
        }
        continue;
      }
      out.push_back(in);
    }
    code.insns = std::move(out);
    if (!frames) continue;
    if (!smt) {
      smt = &code.attrs.emplace_back(code.resource());
      smt->kind = cf::CodeAttr::StackMap;
      smt->name = cf.cp.add_utf8("StackMapTable");
    }
    // Merge old and new frames in code order and re-encode them all (a new frame in the middle
    // changes what the next compact frame is relative to). Where a new fall-through point
    // coincides with an existing frame, the existing one already covers every way in.
    size_t n_new = new_frames.size();
    std::vector<State> old = expand_frames(*smt, entry);
    for (size_t k = 0; k < old.size(); ++k)
      new_frames.emplace_back(smt->frames[k].at, std::move(old[k]));
    cf::Layout now;
    cf::compute_layout(code, now);
    std::vector<size_t> order(new_frames.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto offset = [&](size_t k) { return now.label_offset[new_frames[k].first]; };
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (offset(a) != offset(b)) return offset(a) < offset(b);
      return (a >= n_new) > (b >= n_new);  // existing frames first
    });
    std::vector<std::pair<cf::Label, State>> merged;
    for (size_t k : order) {
      if (!merged.empty() && now.label_offset[merged.back().first] == offset(k)) continue;
      merged.push_back(std::move(new_frames[k]));
    }
    new_frames = std::move(merged);
    encode_frames(*smt, new_frames, entry);
  }
}

}  // namespace jsched::rw
