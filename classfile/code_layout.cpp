#include "classfile/code.h"
#include "classfile/opcodes.h"

namespace jsched::cf {

namespace {
uint32_t switch_pad(uint32_t offset) {
  return (4 - ((offset + 1) & 3)) & 3;
}
}  // namespace

uint32_t insn_length_slow(const Code& code, const Insn& in, uint32_t offset) {
  if (in.op == kLabelOp) return 0;
  if (in.op == op::tableswitch) {
    return 1 + switch_pad(offset) + 12 + 4 * code.switches[size_t(in.v)].count;
  }
  if (in.op == op::lookupswitch) {
    return 1 + switch_pad(offset) + 8 + 8 * code.switches[size_t(in.v)].count;
  }
  if (in.wide) return in.op == op::iinc ? 6 : 4;
  return kOps[in.op].length;
}

void compute_layout(const Code& code, Layout& out) {
  out.label_offset.assign(code.num_labels, kNoLabel);  // kNoLabel = never placed
  out.insn_offset.resize(code.insns.size());
  uint32_t off = 0;
  uint32_t* insn_offset = out.insn_offset.data();
  uint32_t* label_offset = out.label_offset.data();
  const size_t n = code.insns.size();
  for (size_t i = 0; i < n; ++i) {
    const Insn& in = code.insns[i];
    insn_offset[i] = off;
    if (in.op == kLabelOp) [[unlikely]] {
      label_offset[uint32_t(in.v)] = off;
      continue;
    }
    off += insn_length(code, in, off);
  }
  out.length = off;
}

}  // namespace jsched::cf
