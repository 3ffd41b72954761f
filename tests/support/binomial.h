// Statistical bounds for tests of randomized strategies: such tests never rely on a lucky
// seed, they run many trials and check the count against a binomial confidence interval.
#pragma once

#include <cmath>
#include <cstdint>

namespace jsched::test {

// Wilson score interval for k successes in n trials at z standard deviations (z = 4.5 gives
// a false-failure probability below one in 100,000 per check).
struct Interval {
  double lo, hi;
};

inline Interval wilson(uint64_t k, uint64_t n, double z = 4.5) {
  double p = double(k) / double(n), z2 = z * z;
  double denom = 1 + z2 / double(n);
  double centre = (p + z2 / (2 * double(n))) / denom;
  double half = z * std::sqrt(p * (1 - p) / double(n) + z2 / (4.0 * double(n) * double(n))) / denom;
  return {centre - half, centre + half};
}

}  // namespace jsched::test
