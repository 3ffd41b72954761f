// How many t-way block sequences a program of m threads with n atomic blocks each has
// (Çalpur's TSCA thesis, §5.1.2, Fig. 37; docs/references.md): ordered t-tuples of distinct blocks
// that keep each thread's blocks in program order.
#pragma once

#include <cstdint>

namespace jsched::sched {

// Exact for results below 2^64; m, n >= 0, t >= 1.
uint64_t count_sequences(uint32_t m, uint32_t n, uint32_t t);

}  // namespace jsched::sched
