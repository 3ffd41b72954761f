// Figure 1 of Sen's RAPOS paper (docs/references.md): T1: y=1; y=2; y=3; x=4.
// T2: if (x==4) assert(false). Shared by the model tests and the JVM test.
#pragma once

#include "scheduler/core/abstract_program.h"

namespace jsched::test {

inline sched::AbstractProgram figure1_program() {
  using sched::AbstractOp;
  constexpr uint32_t x = 0, y = 1;
  sched::AbstractProgram p;
  p.threads.push_back({AbstractOp::write(y, 1), AbstractOp::write(y, 2), AbstractOp::write(y, 3),
                       AbstractOp::write(x, 4)});
  p.threads.push_back({AbstractOp::check(x, 4)});
  return p;
}

// Under RAPOS with wake probability q:
// The probability that RAPOS hits the assertion: {y=1} alone in the first round (1/4); then the
// delayed check survives each of the rounds before y=2 and y=3 with (1-q) + q/4 (woken, it is
// left out of the round with 1/4), and the round before x=4 with (1-q) + q/2 (the two exclude
// each other). q = 0 gives the paper's 1/4.
inline double figure1_rapos_hit_probability(double q) {
  return 0.25 * (1 - 3 * q / 4) * (1 - 3 * q / 4) * (1 - q / 2);
}

}  // namespace jsched::test
