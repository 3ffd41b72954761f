#include "rewriter/frame_state.h"

#include <stdexcept>

#include "rewriter/descriptors.h"

namespace jsched::rw {

using cf::VType;

State entry_state(cf::ClassFile& cf, const cf::Member& m) {
  State s;
  if (!(m.access & cf::acc::kStatic)) {
    bool ctor = cf.member_name(m) == "<init>" && cf.name() != "java/lang/Object";
    s.locals.push_back(ctor ? of(VType::UninitializedThis) : object(cf.this_class));
  }
  for (std::string_view a : arg_descs(cf.member_desc(m))) {
    VType t = vtype_of(a, cf.cp);
    s.locals.push_back(t);
    if (t.wide()) s.locals.push_back(top());
  }
  return s;
}

std::vector<VType> frame_locals(const std::vector<VType>& slots) {
  std::vector<VType> out;
  for (size_t i = 0; i < slots.size(); ++i) {
    out.push_back(slots[i]);
    if (slots[i].wide()) ++i;
  }
  while (!out.empty() && out.back().tag == VType::Top) out.pop_back();
  return out;
}

std::vector<VType> slot_locals(const std::vector<VType>& ff) {
  std::vector<VType> out;
  for (const VType& t : ff) {
    out.push_back(t);
    if (t.wide()) out.push_back(top());
  }
  return out;
}

std::vector<State> expand_frames(const cf::CodeAttr& smt, const State& entry) {
  std::vector<State> out;
  std::vector<VType> locals = frame_locals(entry.locals);
  for (const cf::Frame& f : smt.frames) {
    State s;
    if (f.type < 64 || f.type == 251) {
      // same locals, empty stack
    } else if (f.type < 128 || f.type == 247) {
      s.stack.assign(f.stack.begin(), f.stack.end());
    } else if (f.type >= 248 && f.type <= 250) {
      size_t k = size_t(251 - f.type);
      if (k > locals.size()) throw std::runtime_error("chop frame removes more locals than exist");
      locals.resize(locals.size() - k);
    } else if (f.type >= 252 && f.type <= 254) {
      locals.insert(locals.end(), f.locals.begin(), f.locals.end());
    } else {
      locals.assign(f.locals.begin(), f.locals.end());
      s.stack.assign(f.stack.begin(), f.stack.end());
    }
    s.locals = slot_locals(locals);
    out.push_back(std::move(s));
  }
  return out;
}

void encode_frames(cf::CodeAttr& smt, const std::vector<std::pair<cf::Label, State>>& frames,
                   const State& entry) {
  auto* mr = smt.frames.get_allocator().resource();
  smt.frames.clear();
  std::vector<VType> prev = frame_locals(entry.locals);
  for (const auto& [label, st] : frames) {
    std::vector<VType> cur = frame_locals(st.locals);
    cf::Frame& f = smt.frames.emplace_back(mr);
    f.at = label;
    bool same_locals = cur == prev;
    if (same_locals && st.stack.empty()) {
      f.type = 0;  // same_frame; the writer widens it to same_frame_extended if needed
    } else if (same_locals && st.stack.size() == 1) {
      f.type = 64;
      f.stack.push_back(st.stack[0]);
    } else if (st.stack.empty() && cur.size() < prev.size() && prev.size() - cur.size() <= 3 &&
               std::equal(cur.begin(), cur.end(), prev.begin())) {
      f.type = uint8_t(251 - (prev.size() - cur.size()));
    } else if (st.stack.empty() && cur.size() > prev.size() && cur.size() - prev.size() <= 3 &&
               std::equal(prev.begin(), prev.end(), cur.begin())) {
      f.type = uint8_t(251 + (cur.size() - prev.size()));
      f.locals.assign(cur.begin() + long(prev.size()), cur.end());
    } else {
      f.type = 255;
      f.locals.assign(cur.begin(), cur.end());
      f.stack.assign(st.stack.begin(), st.stack.end());
    }
    prev = std::move(cur);
  }
}

void add_frame_table(cf::ClassFile& cf, cf::Code& code,
                     const std::vector<std::pair<cf::Label, State>>& frames, const State& entry) {
  cf::CodeAttr& smt = code.attrs.emplace_back(code.resource());
  smt.kind = cf::CodeAttr::StackMap;
  smt.name = cf.cp.add_utf8("StackMapTable");
  encode_frames(smt, frames, entry);
}

}  // namespace jsched::rw
