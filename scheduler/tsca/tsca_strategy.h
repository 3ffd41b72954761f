// TSCA (Çalpur's thesis, docs/references.md; docs/strategies.md, tsca): scheduling decisions only
// at atomic-block boundaries, following a planned order of blocks when one is given (a covering
// schedule), uniformly at random otherwise (an exploration run). Records the blocks that actually
// ran.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scheduler/core/rng.h"
#include "scheduler/core/strategy.h"
#include "scheduler/tsca/block_trace.h"

namespace jsched::sched {

class TscaStrategy : public Strategy {
 public:
  // Names a scheduling-point site stably across runs (class, method, bytecode index).
  using Namer = std::function<std::string(int32_t site)>;

  // `schedule`: the threads whose blocks should run, in order (may be empty).
  TscaStrategy(uint64_t seed, std::vector<ThreadId> schedule, Namer namer);

  size_t choose(const std::vector<Candidate>& enabled, uint64_t step) override;
  size_t choose_aux(AuxChoice, size_t n) override { return size_t(rng_.below(n)); }
  void forced(const Candidate& only, uint64_t step) override;
  void on_thread_created(ThreadId t, ThreadId parent) override;
  void on_arrive(ThreadId t, const Op& op) override;
  void on_executed(ThreadId t, const Op& op) override;

  // The blocks so far; blocks still open (their thread has not reached a boundary) are left
  // out.
  BlockTrace trace() const;
  // Schedule entries that could not be followed (their thread was never enabled when due).
  size_t skipped() const;

 private:
  struct PerThread {
    int64_t open = -1;             // occurrence index of the block in progress
    bool ending = false;           // released a monitor: the block ends at the next decision
    std::string resume = "begin";  // where the next block starts
    int64_t last = -1;             // the thread's most recent block
    int64_t after_start = -1;      // first block must follow this occurrence (the parent's)
  };
  PerThread& per(ThreadId t);
  void close(ThreadId t, const std::string& end);
  void open(ThreadId t);
  // Index of the candidate to run at a block boundary.
  size_t pick(const std::vector<Candidate>& enabled);

  Rng rng_;
  std::vector<ThreadId> schedule_;
  std::vector<bool> used_;
  size_t next_ = 0;  // first entry not used
  Namer namer_;
  std::vector<PerThread> threads_;
  ThreadId current_ = kNoThread;
  std::vector<BlockOccurrence> blocks_;
  std::vector<bool> closed_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
};

}  // namespace jsched::sched
