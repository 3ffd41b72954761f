#include "scheduler/tsca/covering_schedule.h"

#include <cmath>
#include <map>

namespace jsched::sched {

namespace {

double uniform01(Rng& rng) {
  return (double(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

// The occurrences a schedule places: each thread's known sequence, numbered consecutively
// (a block a thread runs in a loop occurs several times), and what must run before each.
struct Occurrences {
  std::vector<uint32_t> block;                // occurrence -> block id
  std::vector<std::pair<size_t, size_t>> of;  // thread slot -> [first, end)
  std::vector<int64_t> first;                 // block id -> its first occurrence, or -1
  std::vector<std::vector<size_t>> needs;     // occurrence -> occurrences that precede it

  explicit Occurrences(const BlockKnowledge& k) : first(k.size(), -1) {
    for (const auto& [thread, seq] : k.sequences()) {
      size_t begin = block.size();
      for (uint32_t b : seq) {
        if (first[b] < 0) first[b] = int64_t(block.size());
        block.push_back(b);
      }
      of.emplace_back(begin, block.size());
    }
    needs.resize(block.size());
    // An edge a -> b (thread start, join) holds from a's first occurrence to b's.
    for (auto [a, b] : k.edges()) {
      if (first[a] >= 0 && first[b] >= 0) needs[size_t(first[b])].push_back(size_t(first[a]));
    }
  }
};

// Reachability among occurrences (program order, needs, and orders added), kept closed.
class Orders {
 public:
  explicit Orders(const Occurrences& o)
      : n_(o.block.size()), words_((n_ + 63) / 64), reach_(n_, std::vector<uint64_t>(words_, 0)) {
    for (auto [begin, end] : o.of) {
      for (size_t i = begin + 1; i < end; ++i) link(i - 1, i);
    }
    for (size_t b = 0; b < n_; ++b) {
      for (size_t a : o.needs[b]) {
        if (!reaches(b, a)) link(a, b);
      }
    }
  }
  bool reaches(size_t a, size_t b) const { return (reach_[a][b / 64] >> (b % 64) & 1) != 0; }
  void link(size_t a, size_t b) {
    if (reaches(a, b)) return;
    std::vector<uint64_t> add = reach_[b];
    add[b / 64] |= uint64_t(1) << (b % 64);
    for (size_t x = 0; x < n_; ++x) {
      if (x == a || reaches(x, a)) {
        for (size_t w = 0; w < words_; ++w) reach_[x][w] |= add[w];
      }
    }
  }

 private:
  size_t n_, words_;
  std::vector<std::vector<uint64_t>> reach_;
};

// Occurrences realizing `seq` in order without contradicting `orders` (the earliest that fit),
// or empty.
std::vector<size_t> realize(const Occurrences& o, const Orders& orders,
                            const std::vector<uint32_t>& seq) {
  std::vector<size_t> chosen;
  for (uint32_t b : seq) {
    if (b >= o.first.size() || o.first[b] < 0) return {};
    bool found = false;
    for (size_t x = size_t(o.first[b]); x < o.block.size() && !found; ++x) {
      if (o.block[x] != b) continue;
      bool ok = true;
      for (size_t y : chosen) ok = ok && y != x && !orders.reaches(x, y);
      if (ok) {
        chosen.push_back(x);
        found = true;
      }
    }
    if (!found) return {};
  }
  return chosen;
}

void require(Occurrences& o, Orders& orders, const std::vector<size_t>& chain) {
  for (size_t i = 1; i < chain.size(); ++i) {
    if (orders.reaches(chain[i - 1], chain[i])) continue;
    orders.link(chain[i - 1], chain[i]);
    o.needs[chain[i]].push_back(chain[i - 1]);
  }
}

// Pack: uncovered sequences in random order, each kept when it fits the ones kept before.
void pack(Occurrences& o, Orders& orders, const SequenceCoverage& c, Rng& rng) {
  std::vector<size_t> open;
  for (size_t i = 0; i < c.known(); ++i) {
    if (!c.is_covered(i)) open.push_back(i);
  }
  rng.shuffle(open);
  for (size_t i : open) {
    std::vector<size_t> chain = realize(o, orders, c.sequence(i));
    if (!chain.empty()) require(o, orders, chain);
  }
}

}  // namespace

CoveringSchedule build_schedule(const BlockKnowledge& k, const SequenceCoverage& c, Rng& rng,
                                Construction how, const std::vector<uint32_t>* target) {
  const size_t n = k.size();
  Occurrences occ(k);
  if (how == Construction::Pack || target) {
    Orders orders(occ);
    if (target) require(occ, orders, realize(occ, orders, *target));
    if (how == Construction::Pack) pack(occ, orders, c, rng);
  }
  const bool greedy = how == Construction::Greedy;
  std::vector<std::vector<size_t>> by_last(n);  // uncovered sequences by their last block
  if (greedy) {
    for (size_t i = 0; i < c.known(); ++i) {
      if (!c.is_covered(i)) by_last[c.last_block(i)].push_back(i);
    }
  }
  std::vector<bool> done(c.known(), false), placed(occ.block.size(), false);
  std::vector<std::vector<uint32_t>> pos(n);
  std::vector<size_t> next;                       // thread slot -> its next occurrence
  std::vector<double> when(occ.block.size(), 0);  // Rates: each occurrence's time
  for (auto [begin, end] : occ.of) {
    next.push_back(begin);
    if (how != Construction::Rates) continue;
    double rate = std::exp(6.0 * uniform01(rng) - 3.0), at = uniform01(rng) * double(end - begin);
    for (size_t i = begin; i < end; ++i) when[i] = at += -std::log(uniform01(rng)) / rate;
  }

  CoveringSchedule out;
  for (;;) {
    std::vector<size_t> avail;  // thread slots whose next occurrence may run
    bool left = false;
    for (size_t th = 0; th < occ.of.size(); ++th) {
      if (next[th] >= occ.of[th].second) continue;
      left = true;
      bool ready = true;
      for (size_t a : occ.needs[next[th]]) ready = ready && placed[a];
      if (ready) avail.push_back(th);
    }
    if (avail.empty()) {
      if (!left) break;
      // Knowledge contradicts itself: run what is left in thread order rather than give up.
      for (size_t th = 0; th < occ.of.size(); ++th) {
        for (; next[th] < occ.of[th].second; ++next[th]) out.blocks.push_back(occ.block[next[th]]);
      }
      break;
    }
    size_t best = 0, best_score = 0, ties = 0;
    for (size_t a = 0; a < avail.size(); ++a) {
      const size_t x = next[avail[a]];
      size_t score = 0;
      if (how == Construction::Rates) {
        if (when[x] < when[next[avail[best]]]) best = a;
        continue;
      }
      for (size_t i : by_last[occ.block[x]]) score += !done[i] && c.contains(pos, i, true);
      if (a == 0 || score > best_score) {
        best = a;
        best_score = score;
        ties = 1;
      } else if (score == best_score && rng.below(++ties) == 0) {
        best = a;
      }
    }
    const size_t x = next[avail[best]]++;
    const uint32_t b = occ.block[x];
    for (size_t i : by_last[b]) {
      if (!done[i] && c.contains(pos, i, true)) {
        done[i] = true;
        ++out.gain;
      }
    }
    placed[x] = true;
    pos[b].push_back(uint32_t(out.blocks.size()));
    out.blocks.push_back(b);
  }
  if (!greedy) out.gain = c.count(out.blocks, true);
  return out;
}

std::vector<ThreadId> schedule_threads(const BlockKnowledge& k,
                                       const std::vector<uint32_t>& blocks) {
  std::vector<ThreadId> out;
  for (uint32_t b : blocks) out.push_back(k.block(b).thread);
  return out;
}

}  // namespace jsched::sched
