// Figure 1 of Sen's RAPOS paper (docs/references.md) under RAPOS with wake probability q
// (T1: y=1; y=2; y=3; x=4.  T2: if (x==4) assert(false)), shared by the model test and the JVM
// test.
#pragma once

namespace jsched::test {

// The probability that RAPOS hits the assertion: {y=1} alone in the first round (1/4); then the
// delayed check survives each of the rounds before y=2 and y=3 with (1-q) + q/4 (woken, it is
// left out of the round with 1/4), and the round before x=4 with (1-q) + q/2 (the two exclude
// each other). q = 0 gives the paper's 1/4.
inline double figure1_rapos_hit_probability(double q) {
  return 0.25 * (1 - 3 * q / 4) * (1 - 3 * q / 4) * (1 - q / 2);
}

}  // namespace jsched::test
