// Verification-type states at instruction boundaries, and conversion between the compact
// StackMapTable encoding and explicit per-frame states.
#pragma once

#include <utility>
#include <vector>

#include "classfile/class_file.h"

namespace jsched::rw {

// Locals are in slot form (a long or double fills its slot and the next, which holds Top);
// the stack has one entry per value.
struct State {
  std::vector<cf::VType> locals;
  std::vector<cf::VType> stack;
  bool operator==(const State& o) const { return locals == o.locals && stack == o.stack; }
};

inline cf::VType top() {
  return cf::VType{};
}
inline cf::VType of(uint8_t tag) {
  return cf::VType{tag, 0, cf::kNoLabel};
}
inline cf::VType object(uint16_t cp) {
  return cf::VType{cf::VType::Object, cp, cf::kNoLabel};
}

// The state on method entry: `this` (uninitializedThis in constructors) and the arguments.
State entry_state(cf::ClassFile& cf, const cf::Member& m);

// The explicit state of every frame of a StackMapTable, in order.
std::vector<State> expand_frames(const cf::CodeAttr& smt, const State& entry);

// Replaces the table's frames by `frames` (label, state), choosing the most compact encoding
// of each relative to the previous one. Labels must be in code order.
void encode_frames(cf::CodeAttr& smt, const std::vector<std::pair<cf::Label, State>>& frames,
                   const State& entry);

// Gives `code` (of a method jsched adds, which has none) a StackMapTable with `frames`.
void add_frame_table(cf::ClassFile& cf, cf::Code& code,
                     const std::vector<std::pair<cf::Label, State>>& frames, const State& entry);

// Locals in the value form frames use (one entry per long/double, trailing Tops dropped).
std::vector<cf::VType> frame_locals(const std::vector<cf::VType>& slots);
// And back to slot form.
std::vector<cf::VType> slot_locals(const std::vector<cf::VType>& frame_form);

}  // namespace jsched::rw
