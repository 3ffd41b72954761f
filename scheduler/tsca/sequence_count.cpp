#include "scheduler/tsca/sequence_count.h"

#include <vector>

namespace jsched::sched {

namespace {
uint64_t binomial(uint64_t n, uint64_t k) {
  if (k > n) return 0;
  uint64_t r = 1;
  for (uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}
}  // namespace

// Threads are added one at a time: with j positions of the sequence filled by earlier threads,
// the next thread contributes a of its blocks (C(n, a) choices, their order fixed) and their
// positions among the j + a (C(j + a, a) ways). This is Fig. 37's sum over a_1 + ... + a_m = t.
uint64_t count_sequences(uint32_t m, uint32_t n, uint32_t t) {
  std::vector<uint64_t> ways(t + 1, 0);
  ways[0] = 1;
  for (uint32_t thread = 0; thread < m; ++thread) {
    std::vector<uint64_t> next(t + 1, 0);
    for (uint32_t j = 0; j <= t; ++j) {
      if (ways[j] == 0) continue;
      for (uint32_t a = 0; j + a <= t && a <= n; ++a)
        next[j + a] += ways[j] * binomial(n, a) * binomial(j + a, a);
    }
    ways = std::move(next);
  }
  return ways[t];
}

}  // namespace jsched::sched
