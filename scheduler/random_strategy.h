// CalFuzzer's simple randomized algorithm (Sen's RAPOS paper, Fig. 3; docs/references.md): a
// uniformly random enabled thread at every scheduling point; notify targets and (optionally)
// spurious wake-ups uniform too.
#pragma once

#include "scheduler/rng.h"
#include "scheduler/strategy.h"

namespace jsched::sched {

class RandomStrategy : public Strategy {
 public:
  explicit RandomStrategy(uint64_t seed, bool spurious = false) : rng_(seed), spurious_(spurious) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t) override {
    return size_t(rng_.below(enabled.size()));
  }
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }
  bool allow_spurious() const override { return spurious_; }

 private:
  Rng rng_;
  bool spurious_;
};

}  // namespace jsched::sched
