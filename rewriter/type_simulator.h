// Forward simulation of verification types through a method, anchored at its StackMapTable
// frames exactly as the JVM's type checker does (JVMS 4.10.1): the state at an instruction is
// the state of the nearest frame before it, carried forward instruction by instruction. No
// class hierarchy is needed because frames sit at every merge point. This is what lets the
// rewriter create frames for new branch targets and see which values are still uninitialized.
#pragma once

#include <functional>
#include <unordered_map>

#include "classfile/class_file.h"
#include "rewriter/frame_state.h"

namespace jsched::rw {

class TypeSimulator {
 public:
  // `code` must belong to `m` of `cf`. Every `new` instruction must have a label placed
  // directly before it (see label_news) so Uninitialized types can name it.
  TypeSimulator(cf::ClassFile& cf, const cf::Member& m, const cf::Code& code);

  // Calls visit(index, state) for each real instruction reachable in the type checker's sense
  // (after a frame or the method start, not after an unconditional transfer without a frame),
  // with the state before it. Throws std::runtime_error on code that does not type-check.
  void walk(const std::function<void(size_t index, const State& before)>& visit);

  // Applies one instruction to `s`. `at` is the label directly before the instruction (for
  // `new`), or kNoLabel.
  void step(const cf::Insn& in, cf::Label at, State& s);

  const State& entry() const { return entry_; }

 private:
  cf::VType pop(State& s);
  void push(State& s, const cf::VType& t) { s.stack.push_back(t); }
  void store(State& s, uint16_t index, const cf::VType& t);
  cf::VType component(const cf::VType& array);
  cf::VType ldc_type(uint16_t index);
  void invoke(const cf::Insn& in, State& s);

  cf::ClassFile& cf_;
  const cf::Code& code_;
  State entry_;
  std::unordered_map<cf::Label, uint16_t> new_class_;  // label of a `new` -> its class
};

// Places a label before every `new` that lacks one (frames may name it as Uninitialized).
void label_news(cf::Code& code);

}  // namespace jsched::rw
