// t-way sequence coverage (docs/strategies.md, tsca): the feasible sequences over the known blocks,
// and which of them executions have covered (their blocks ran in that order, not necessarily
// adjacent).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/tsca/block_knowledge.h"

namespace jsched::sched {

class SequenceCoverage {
 public:
  static constexpr uint32_t kMaxT = 4;
  // Beyond this the sequences are not enumerated (memory: 8 bytes each).
  static constexpr size_t kMaxSequences = 20'000'000;

  // Enumerates the feasible t-way sequences of `k` (1 <= t <= kMaxT). Throws
  // std::length_error when there are more than `limit`.
  SequenceCoverage(const BlockKnowledge& k, uint32_t t, size_t limit = kMaxSequences);

  uint32_t t() const { return t_; }
  size_t known() const { return tuples_.size(); }
  size_t covered() const { return covered_count_; }
  double percent() const { return known() ? 100.0 * double(covered()) / double(known()) : 100.0; }

  // Marks what an execution with these blocks (ids, in order) covers; returns how many
  // sequences were not covered before.
  size_t add(const std::vector<uint32_t>& blocks);
  // How many sequences these blocks cover (`uncovered_only`: of those not covered yet).
  size_t count(const std::vector<uint32_t>& blocks, bool uncovered_only = false) const;
  // Carries over what `old` had covered (sequences it knew that are still feasible).
  void adopt(const SequenceCoverage& old);

  // The i-th sequence in the canonical (lexicographic) order and whether it is covered.
  std::vector<uint32_t> sequence(size_t i) const;
  bool is_covered(size_t i) const { return covered_[i]; }
  void mark(size_t i);
  // Whether the blocks (in order) contain sequence i; `prefix_only`: its first t-1 blocks.
  bool contains(const std::vector<std::vector<uint32_t>>& positions, size_t i,
                bool prefix_only = false) const;
  uint32_t last_block(size_t i) const { return uint32_t(tuples_[i] & 0xffff); }

  // Covered flags as hex (4 sequences a digit, canonical order), for plan files.
  std::string covered_hex() const;
  // Returns false when `hex` does not fit this enumeration.
  bool load_covered_hex(const std::string& hex);

  // Positions at which each block id occurs in `blocks`.
  static std::vector<std::vector<uint32_t>> positions(const std::vector<uint32_t>& blocks,
                                                      size_t block_count);

 private:
  uint64_t pack(const uint32_t* ids) const;
  int64_t index_of(uint64_t packed) const;

  uint32_t t_;
  size_t blocks_;
  std::vector<uint64_t> tuples_;  // packed, 16 bits a block, first block highest; sorted
  std::vector<bool> covered_;
  size_t covered_count_ = 0;
};

}  // namespace jsched::sched
