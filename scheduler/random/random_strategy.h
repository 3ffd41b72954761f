// CalFuzzer's simple randomized algorithm (Sen's RAPOS paper, Fig. 3; docs/references.md): a
// uniformly random enabled thread at every scheduling point; notify targets uniform too.
#pragma once

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"

namespace jsched::sched {

class RandomStrategy : public Strategy {
 public:
  explicit RandomStrategy(uint64_t seed) : rng_(seed) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    return size_t(rng_.below(enabled.size()));
  }
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }

 private:
  Rng rng_;
};

}  // namespace jsched::sched
