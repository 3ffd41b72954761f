// Code that runs after a monitor is released must lie outside the exception ranges whose
// handler releases that monitor: javac's handler for a synchronized block releases it again,
// so a path from the hook after a `monitorexit` into that handler is a second release of one
// monitor. The JVM runs such a method, but its compilers refuse it (HotSpot's C1 "invalid
// parsing", C2 "cannot parse method": monitors not balanced on every path) and it runs
// interpreted for the life of the JVM. Handlers of monitors still held in the gap (an outer
// block's, a try's inside a block) keep covering it.
#pragma once

#include <vector>

#include "classfile/code.h"

namespace jsched::rw {

// The instructions between two labels, in code order, run with `held` monitors of the method
// held (-1: unknown).
struct Gap {
  cf::Label from, to;
  int held = -1;
};

// How many of the method's monitors are held before each instruction of `code` (by index
// into code.insns; -1 where control never reaches), following normal and exception flow (any
// instruction may throw, to the handlers covering it up to the first that catches any). Empty
// when the code does not keep to one depth per instruction (a merge of two depths, a
// monitorexit with none held, a jsr subroutine).
std::vector<int> monitors_held(const cf::Code& code);

// Per label of `code`: the monitors held at the instruction it marks, from `held` (-1 if none).
std::vector<int> held_at_labels(const cf::Code& code, const std::vector<int>& held);

// Splits each exception range around every gap it contains whose handler is entered with more
// monitors held than the gap (`handler_held`, by label; a gap or handler of unknown depth stays
// covered). Gaps in code order, each wholly inside a range or outside it. Pieces left without
// an instruction are dropped; the pieces of a range keep its place in the table, so every
// instruction still covered has the same first matching handler.
void leave_gaps_uncovered(cf::Code& code, const std::vector<Gap>& gaps,
                          const std::vector<int>& handler_held);

}  // namespace jsched::rw
