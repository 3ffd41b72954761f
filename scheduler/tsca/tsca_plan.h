// The TSCA plan file (agent option `plan=` under strategy=tsca, docs/agent.md): what the runner
// knows about the program's blocks, which t-way sequences are covered, and the schedule the next
// execution follows.
//
// File format (text, one item per line, tokens separated by single spaces):
//   jsched-tsca-plan 1
//   t <sequence length>
//   block <thread> <start location> <end location>     (block ids 0, 1, ... in file order)
//   order <a> <b>            (same thread: block a ran before block b in some execution)
//   edge <a> <b>             (a precedes b in every execution: thread start, join)
//   sequence <thread> <block ids...>   (the thread's blocks in its latest execution)
//   covered <known sequences> <hex flags>  (canonical order, 4 sequences a digit)
//   schedule <thread ids...>  (may be empty: a random exploration run)
//   end
// Locations are "begin", "end" or <class>.<method><descriptor>@<bci>; they hold no spaces.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "scheduler/core/op.h"
#include "scheduler/tsca/block_knowledge.h"
#include "scheduler/tsca/sequence_coverage.h"

namespace jsched::sched {

class TscaPlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TscaPlan {
  uint32_t t = 3;
  BlockKnowledge knowledge;
  size_t known = 0;
  std::string covered;  // hex flags
  std::vector<ThreadId> schedule;

  void write(const std::string& path) const;
  // Throws TscaPlanError naming the file, line and problem.
  static TscaPlan read(const std::string& path);
  // The coverage the plan records (enumerated from its blocks; throws if the flags do not
  // fit).
  std::unique_ptr<SequenceCoverage> coverage() const;
};

}  // namespace jsched::sched
