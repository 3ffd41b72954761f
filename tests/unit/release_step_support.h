// What the release-step tests share: a program whose first thread has a step after a release
// (it touches nothing the model sees), and a strategy wrapper that records every step taken.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "scheduler/core/abstract_program.h"
#include "scheduler/core/strategy.h"

namespace jsched::sched::test {

// Records every step the strategy takes, in order.
class Recording : public Strategy {
 public:
  explicit Recording(std::unique_ptr<Strategy> inner) : inner_(std::move(inner)) {}
  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override {
    const size_t i = inner_->choose(enabled, step);
    steps.push_back(enabled[i]);
    return i;
  }
  void forced(const Candidate& only, uint64_t step) override {
    inner_->forced(only, step);
    steps.push_back(only);
  }
  size_t choose_aux(AuxChoice a, size_t n) override { return inner_->choose_aux(a, n); }
  void on_thread_created(ThreadId t, ThreadId parent) override {
    inner_->on_thread_created(t, parent);
  }
  void on_arrive(ThreadId t, const Op& op) override { inner_->on_arrive(t, op); }
  void on_executed(ThreadId t, const Op& op) override { inner_->on_executed(t, op); }
  std::unique_ptr<Strategy> inner_;
  std::vector<Candidate> steps;
};

// Thread 1 (the first program thread) locks and unlocks, then writes; thread 2 writes another
// variable three times.
inline AbstractProgram release_then_write() {
  AbstractProgram p;
  p.release_points = true;
  p.threads.push_back({AbstractOp::lock(1), AbstractOp::unlock(1), AbstractOp::write(0, 1)});
  p.threads.push_back({AbstractOp::write(2, 1), AbstractOp::write(2, 2), AbstractOp::write(2, 3)});
  return p;
}

}  // namespace jsched::sched::test
