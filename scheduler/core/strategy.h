// Search strategies choose, at each scheduling point, which enabled thread runs next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scheduler/core/op.h"

namespace jsched::sched {

// An enabled transition: `thread` may perform `op` (for a waiting thread, `op` is its Wait and
// the transition wakes it by timeout, interrupt or spuriously).
struct Candidate {
  ThreadId thread;
  Op op;
};

// Choices other than the next thread, also drawn by the strategy so that replay reproduces
// them: which waiter a notify wakes.
enum class AuxChoice : uint8_t { NotifyTarget };

class Strategy {
 public:
  virtual ~Strategy() = default;
  // Index into `enabled` (non-empty, ordered by thread id). `step` counts executed steps.
  virtual size_t choose(const std::vector<Candidate>& enabled, uint64_t step) = 0;
  // Index in [0, n), n >= 2.
  virtual size_t choose_aux(AuxChoice kind, size_t n) = 0;
  // The step when `only` is the one enabled transition: no choice is made, drawn or logged,
  // so how many such steps a run takes (JDK code run by a lone thread varies with the JVM's
  // other threads) does not shift the choices that follow.
  virtual void forced(const Candidate& /*only*/, uint64_t /*step*/) {}
  virtual void on_thread_created(ThreadId /*t*/, ThreadId /*parent*/) {}
  // `t` reached a scheduling point wanting to perform `op` (before any decision on it).
  virtual void on_arrive(ThreadId /*t*/, const Op& /*op*/) {}
  virtual void on_executed(ThreadId /*t*/, const Op& /*op*/) {}
};

// Whether running `chosen` pre-empts `last`: `last` is enabled, so it could have gone on.
bool preempts(const std::vector<Candidate>& enabled, ThreadId last, ThreadId chosen);

}  // namespace jsched::sched
