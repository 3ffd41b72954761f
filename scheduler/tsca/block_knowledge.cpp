#include "scheduler/tsca/block_knowledge.h"

namespace jsched::sched {

namespace {
std::string key(const BlockOccurrence& b) {
  return std::to_string(b.thread) + " " + b.start + " " + b.end;
}
}  // namespace

int64_t BlockKnowledge::find(const BlockOccurrence& b) const {
  auto it = index_.find(key(b));
  return it == index_.end() ? -1 : int64_t(it->second);
}

std::string BlockKnowledge::name(uint32_t id) const {
  const BlockOccurrence& b = blocks_.at(id);
  return "thread " + std::to_string(b.thread) + ": " + b.start + " .. " + b.end;
}

uint32_t BlockKnowledge::add_block(const BlockOccurrence& b) {
  auto [it, fresh] = index_.emplace(key(b), uint32_t(blocks_.size()));
  if (fresh) {
    blocks_.push_back(b);
    stale_ = true;
  }
  return it->second;
}

void BlockKnowledge::add_order(uint32_t a, uint32_t b) {
  if (orders_.emplace(a, b).second) stale_ = true;
}

void BlockKnowledge::add_edge(uint32_t a, uint32_t b) {
  if (edges_.emplace(a, b).second) stale_ = true;
}

void BlockKnowledge::set_sequence(uint32_t thread, std::vector<uint32_t> ids) {
  sequences_[thread] = std::move(ids);
}

std::vector<uint32_t> BlockKnowledge::add(const BlockTrace& trace, bool* changed) {
  const size_t blocks = blocks_.size(), orders = orders_.size(), edges = edges_.size();
  std::vector<uint32_t> ids;
  std::map<uint32_t, std::vector<uint32_t>> per_thread;
  for (const BlockOccurrence& b : trace.blocks) {
    ids.push_back(add_block(b));
    per_thread[b.thread].push_back(ids.back());
  }
  // a before b in a thread when a's first run precedes b's last.
  for (auto& [thread, seq] : per_thread) {
    std::map<uint32_t, size_t> first, last;
    for (size_t i = 0; i < seq.size(); ++i) {
      first.emplace(seq[i], i);
      last[seq[i]] = i;
    }
    for (auto [a, fa] : first) {
      for (auto [b, lb] : last) {
        if (a != b && fa < lb) add_order(a, b);
      }
    }
    // Schedules interleave the sequence that reached the most blocks (a run cut short by a
    // bug or deadlock does not replace a complete one); the latest among equals.
    auto distinct = [](const std::vector<uint32_t>& v) {
      return std::set<uint32_t>(v.begin(), v.end()).size();
    };
    auto old = sequences_.find(thread);
    if (old == sequences_.end() || distinct(seq) >= distinct(old->second))
      sequences_[thread] = std::move(seq);
  }
  for (auto [i, j] : trace.edges) {
    if (i < ids.size() && j < ids.size() && ids[i] != ids[j]) add_edge(ids[i], ids[j]);
  }
  if (changed)
    *changed = blocks != blocks_.size() || orders != orders_.size() || edges != edges_.size();
  return ids;
}

void BlockKnowledge::analyse() const {
  if (!stale_) return;
  const size_t n = blocks_.size(), words = (n + 63) / 64;
  must_.assign(n, std::vector<uint64_t>(words, 0));
  auto set = [&](uint32_t a, uint32_t b) { must_[a][b / 64] |= uint64_t(1) << (b % 64); };
  for (auto [a, b] : orders_) {
    if (!orders_.count({b, a})) set(a, b);  // a thread that always runs a before b
  }
  for (auto [a, b] : edges_) set(a, b);
  for (size_t k = 0; k < n; ++k) {  // transitive closure
    for (size_t i = 0; i < n; ++i) {
      if (!(must_[i][k / 64] >> (k % 64) & 1)) continue;
      for (size_t w = 0; w < words; ++w) must_[i][w] |= must_[k][w];
    }
  }
  stale_ = false;
}

bool BlockKnowledge::may_precede(uint32_t a, uint32_t b) const {
  if (a == b) return false;
  analyse();
  if (blocks_[a].thread == blocks_[b].thread) return orders_.count({a, b}) > 0;
  return !(must_[b][a / 64] >> (a % 64) & 1);
}

}  // namespace jsched::sched
