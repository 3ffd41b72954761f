#include "scheduler/tsca/sequence_coverage.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace jsched::sched {

SequenceCoverage::SequenceCoverage(const BlockKnowledge& k, uint32_t t, size_t limit)
    : t_(t), blocks_(k.size()) {
  if (t < 1 || t > kMaxT) throw std::invalid_argument("t must be between 1 and 4");
  if (blocks_ >= 0xffff) throw std::invalid_argument("too many blocks for sequence coverage");
  const size_t n = blocks_;
  std::vector<std::vector<bool>> may(n, std::vector<bool>(n, false));
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = 0; b < n; ++b) may[a][b] = k.may_precede(a, b);
  }
  // Depth-first in lexicographic order, so `tuples_` comes out sorted. Pairwise feasibility
  // is enough: the must-precede relation is a partial order, and a sequence that reverses
  // none of its pairs extends to a full interleaving.
  uint32_t ids[kMaxT];
  auto extend = [&](auto& self, uint32_t depth) -> void {
    if (depth == t) {
      if (tuples_.size() == limit) {
        throw std::length_error("more than " + std::to_string(limit) + " " + std::to_string(t) +
                                "-way sequences over " + std::to_string(n) +
                                " blocks: use a smaller t");
      }
      tuples_.push_back(pack(ids));
      return;
    }
    for (uint32_t b = 0; b < n; ++b) {
      bool ok = true;
      for (uint32_t i = 0; i < depth && ok; ++i) ok = may[ids[i]][b];
      if (!ok) continue;
      ids[depth] = b;
      self(self, depth + 1);
    }
  };
  extend(extend, 0);
  covered_.assign(tuples_.size(), false);
}

uint64_t SequenceCoverage::pack(const uint32_t* ids) const {
  uint64_t v = 0;
  for (uint32_t i = 0; i < t_; ++i) v = v << 16 | ids[i];
  return v;
}

std::vector<uint32_t> SequenceCoverage::sequence(size_t i) const {
  std::vector<uint32_t> out(t_);
  uint64_t v = tuples_.at(i);
  for (uint32_t k = t_; k-- > 0;) {
    out[k] = uint32_t(v & 0xffff);
    v >>= 16;
  }
  return out;
}

int64_t SequenceCoverage::index_of(uint64_t packed) const {
  auto it = std::lower_bound(tuples_.begin(), tuples_.end(), packed);
  return it != tuples_.end() && *it == packed ? int64_t(it - tuples_.begin()) : -1;
}

void SequenceCoverage::mark(size_t i) {
  if (covered_[i]) return;
  covered_[i] = true;
  ++covered_count_;
}

std::vector<std::vector<uint32_t>> SequenceCoverage::positions(const std::vector<uint32_t>& blocks,
                                                               size_t block_count) {
  std::vector<std::vector<uint32_t>> pos(block_count);
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i] < block_count) pos[blocks[i]].push_back(i);
  }
  return pos;
}

bool SequenceCoverage::contains(const std::vector<std::vector<uint32_t>>& pos, size_t i,
                                bool prefix_only) const {
  uint64_t v = tuples_[i];
  int64_t at = -1;
  for (uint32_t k = 0; k < t_ - (prefix_only ? 1 : 0); ++k) {
    const std::vector<uint32_t>& p = pos[(v >> (16 * (t_ - 1 - k))) & 0xffff];
    auto it = std::upper_bound(p.begin(), p.end(), at);
    if (it == p.end()) return false;
    at = *it;
  }
  return true;
}

size_t SequenceCoverage::add(const std::vector<uint32_t>& blocks) {
  auto pos = positions(blocks, blocks_);
  size_t fresh = 0;
  for (size_t i = 0; i < tuples_.size(); ++i) {
    if (!covered_[i] && contains(pos, i)) {
      mark(i);
      ++fresh;
    }
  }
  return fresh;
}

size_t SequenceCoverage::count(const std::vector<uint32_t>& blocks, bool uncovered_only) const {
  auto pos = positions(blocks, blocks_);
  size_t n = 0;
  for (size_t i = 0; i < tuples_.size(); ++i)
    n += !(uncovered_only && covered_[i]) && contains(pos, i) ? 1 : 0;
  return n;
}

void SequenceCoverage::adopt(const SequenceCoverage& old) {
  if (old.t_ != t_) return;
  for (size_t i = 0; i < old.tuples_.size(); ++i) {
    if (!old.covered_[i]) continue;
    int64_t j = index_of(old.tuples_[i]);
    if (j >= 0) mark(size_t(j));
  }
}

std::string SequenceCoverage::covered_hex() const {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < covered_.size(); i += 4) {
    unsigned d = 0;
    for (size_t k = 0; k < 4 && i + k < covered_.size(); ++k) d |= unsigned(covered_[i + k]) << k;
    out += kDigits[d];
  }
  return out;
}

bool SequenceCoverage::load_covered_hex(const std::string& hex) {
  if (hex.size() != (covered_.size() + 3) / 4) return false;
  for (size_t i = 0; i < hex.size(); ++i) {
    char c = hex[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    for (size_t k = 0; k < 4; ++k) {
      if (d >> k & 1) {
        if (i * 4 + k >= covered_.size()) return false;
        mark(i * 4 + k);
      }
    }
  }
  return true;
}

}  // namespace jsched::sched
