#include "rewriter/handler_gaps.h"

#include <algorithm>

#include "classfile/opcodes.h"

namespace jsched::rw {

namespace op = cf::op;

namespace {

// Index of the instruction (or label) each label marks.
std::vector<size_t> label_places(const cf::Code& code) {
  std::vector<size_t> at(code.num_labels, code.insns.size());
  for (size_t i = 0; i < code.insns.size(); ++i) {
    if (code.insns[i].is_label()) at[size_t(code.insns[i].v)] = i;
  }
  return at;
}

}  // namespace

std::vector<int> monitors_held(const cf::Code& code) {
  const size_t n = code.insns.size();
  const std::vector<size_t> at = label_places(code);
  auto place = [&](cf::Label l) { return l < at.size() ? at[l] : n; };
  struct Range {
    size_t from, to, handler;
    bool any;
  };
  std::vector<Range> ranges;
  for (const cf::ExceptionEntry& x : code.exceptions)
    ranges.push_back(Range{place(x.start), place(x.end), place(x.handler), x.catch_type == 0});
  std::vector<int> held(n, -1);
  std::vector<std::pair<size_t, int>> work = {{0, 0}};
  while (!work.empty()) {
    auto [i, d] = work.back();
    work.pop_back();
    for (; i < n; ++i) {
      if (held[i] >= 0) {
        if (held[i] != d) return {};
        break;
      }
      held[i] = d;
      const cf::Insn& in = code.insns[i];
      if (in.is_label()) continue;
      if (in.op == op::jsr || in.op == op::jsr_w || in.op == op::ret) return {};
      // An exception leaves with the monitors held before the instruction, to each handler
      // whose range covers it in table order, up to the first that catches any.
      for (const Range& r : ranges) {
        if (r.from >= i || i >= r.to) continue;
        work.emplace_back(r.handler, d);
        if (r.any) break;
      }
      if (in.op == op::monitorenter) ++d;
      if (in.op == op::monitorexit && --d < 0) return {};
      if (cf::is_branch(in.op)) work.emplace_back(place(cf::Label(in.v)), d);
      if (in.op == op::tableswitch || in.op == op::lookupswitch) {
        const cf::Switch& sw = code.switches[size_t(in.v)];
        work.emplace_back(place(sw.dflt), d);
        for (uint32_t k = 0; k < sw.count; ++k)
          work.emplace_back(place(code.switch_targets[sw.first + k]), d);
      }
      if (cf::ends_block(in.op)) break;
    }
  }
  return held;
}

std::vector<int> held_at_labels(const cf::Code& code, const std::vector<int>& held) {
  std::vector<int> out(code.num_labels, -1);
  if (held.empty()) return out;
  // A label's depth is that of the next instruction.
  int next = -1;
  for (size_t i = code.insns.size(); i-- > 0;) {
    if (code.insns[i].is_label()) {
      out[size_t(code.insns[i].v)] = next;
    } else {
      next = held[i];
    }
  }
  return out;
}

void leave_gaps_uncovered(cf::Code& code, const std::vector<Gap>& gaps,
                          const std::vector<int>& handler_held) {
  if (gaps.empty() || code.exceptions.empty()) return;
  const std::vector<size_t> at = label_places(code);
  auto place = [&](cf::Label l) { return l < at.size() ? at[l] : code.insns.size(); };
  // How many instructions come before each place: a piece without one is dropped.
  std::vector<size_t> before(code.insns.size() + 1, 0);
  for (size_t i = 0; i < code.insns.size(); ++i)
    before[i + 1] = before[i] + (code.insns[i].is_label() ? 0 : 1);
  cf::Vec<cf::ExceptionEntry> out(code.resource());
  out.reserve(code.exceptions.size() + gaps.size());
  auto keep = [&](cf::Label from, cf::Label to, const cf::ExceptionEntry& x) {
    if (before[place(to)] > before[place(from)])
      out.push_back(cf::ExceptionEntry{from, to, x.handler, x.catch_type});
  };
  for (const cf::ExceptionEntry& x : code.exceptions) {
    const int entered = x.handler < handler_held.size() ? handler_held[x.handler] : -1;
    const size_t start = place(x.start), end = place(x.end);
    auto g = std::lower_bound(gaps.begin(), gaps.end(), start,
                              [&](const Gap& gap, size_t p) { return place(gap.from) < p; });
    cf::Label from = x.start;
    for (; g != gaps.end() && place(g->to) <= end; ++g) {
      if (g->held < 0 || entered <= g->held) continue;
      keep(from, g->from, x);
      from = g->to;
    }
    keep(from, x.end, x);
  }
  code.exceptions = std::move(out);
}

}  // namespace jsched::rw
