// What the executions so far taught about a program's atomic blocks (docs/strategies.md, tsca): the
// blocks, which of a thread's blocks were seen in which order, and the orderings between
// threads that every execution must respect. Decides which t-way sequences are feasible.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/tsca/block_trace.h"

namespace jsched::sched {

class BlockKnowledge {
 public:
  using Pair = std::pair<uint32_t, uint32_t>;

  // Learns from one execution; returns its blocks as ids, in the order they ran. `changed`
  // (optional) tells whether anything new was learned.
  std::vector<uint32_t> add(const BlockTrace& trace, bool* changed = nullptr);

  size_t size() const { return blocks_.size(); }
  const BlockOccurrence& block(uint32_t id) const { return blocks_[id]; }
  // Block id of a (thread, start, end), or -1.
  int64_t find(const BlockOccurrence& b) const;
  // "thread 3: pkg/C.run()V@12 .. end"
  std::string name(uint32_t id) const;

  // Whether a sequence may place `a` before `b` (a != b): same thread and seen in that order,
  // or different threads and `b` is not known to precede `a` always.
  bool may_precede(uint32_t a, uint32_t b) const;

  // Each thread's blocks in the order of an execution that reached the most of them (the
  // latest such); schedules are built by interleaving these.
  const std::map<uint32_t, std::vector<uint32_t>>& sequences() const { return sequences_; }
  const std::set<Pair>& orders() const { return orders_; }
  const std::set<Pair>& edges() const { return edges_; }

  // For reading plans: rebuilds the same knowledge item by item.
  uint32_t add_block(const BlockOccurrence& b);
  void add_order(uint32_t a, uint32_t b);
  void add_edge(uint32_t a, uint32_t b);
  void set_sequence(uint32_t thread, std::vector<uint32_t> ids);

 private:
  void analyse() const;

  std::vector<BlockOccurrence> blocks_;
  std::map<std::string, uint32_t> index_;
  std::set<Pair> orders_;  // same thread: a ran before b in some execution
  std::set<Pair> edges_;   // different threads: a precedes b in every execution
  std::map<uint32_t, std::vector<uint32_t>> sequences_;
  // must_[a] has bit b when a precedes b in every execution (transitively closed).
  mutable std::vector<std::vector<uint64_t>> must_;
  mutable bool stale_ = true;
};

}  // namespace jsched::sched
