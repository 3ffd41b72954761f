#include "scheduler/covering_schedule.h"

#include <cmath>
#include <map>

namespace jsched::sched {

namespace {
double uniform01(Rng& rng) {
  return (double(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}
// Pack: orders between blocks that the kept sequences demand, on top of program order and
// edges. False when a thread repeats a block (block ids then do not order occurrences).
bool pack_orders(const BlockKnowledge& k, const SequenceCoverage& c, Rng& rng,
                 std::vector<std::vector<uint32_t>>& needs) {
  const size_t n = k.size(), words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> reach(n, std::vector<uint64_t>(words, 0));
  auto reaches = [&](uint32_t a, uint32_t b) { return (reach[a][b / 64] >> (b % 64) & 1) != 0; };
  auto link = [&](uint32_t a, uint32_t b) {  // a before b, closure kept
    if (reaches(a, b)) return;
    std::vector<uint64_t> add = reach[b];
    add[b / 64] |= uint64_t(1) << (b % 64);
    for (size_t x = 0; x < n; ++x) {
      if (x == a || reaches(uint32_t(x), a)) {
        for (size_t w = 0; w < words; ++w) reach[x][w] |= add[w];
      }
    }
  };
  std::vector<bool> seen(n, false);
  for (const auto& [thread, seq] : k.sequences()) {
    for (size_t i = 0; i < seq.size(); ++i) {
      if (seen[seq[i]]) return false;
      seen[seq[i]] = true;
      if (i > 0) link(seq[i - 1], seq[i]);
    }
  }
  for (auto [a, b] : k.edges()) {
    if (seen[a] && seen[b] && !reaches(b, a)) link(a, b);
  }
  std::vector<size_t> open;
  for (size_t i = 0; i < c.known(); ++i) {
    if (!c.is_covered(i)) open.push_back(i);
  }
  for (size_t i = open.size(); i > 1; --i) std::swap(open[i - 1], open[rng.below(i)]);
  for (size_t i : open) {
    std::vector<uint32_t> s = c.sequence(i);
    bool ok = true;
    for (size_t x = 0; x < s.size() && ok; ++x) {
      ok = seen[s[x]];
      for (size_t y = x + 1; y < s.size() && ok; ++y) ok = !reaches(s[y], s[x]);
    }
    if (!ok) continue;
    for (size_t x = 1; x < s.size(); ++x) {
      if (!reaches(s[x - 1], s[x])) {
        link(s[x - 1], s[x]);
        needs[s[x]].push_back(s[x - 1]);
      }
    }
  }
  return true;
}

}  // namespace

CoveringSchedule build_schedule(const BlockKnowledge& k, const SequenceCoverage& c, Rng& rng,
                                Construction how, const std::vector<uint32_t>* target) {
  const bool greedy = how == Construction::Greedy;
  const size_t n = k.size();
  std::vector<std::vector<uint32_t>> needs(n);  // blocks that must have run before
  std::vector<bool> scheduled_somewhere(n, false);
  for (const auto& [thread, seq] : k.sequences()) {
    for (uint32_t b : seq) scheduled_somewhere[b] = true;
  }
  for (auto [a, b] : k.edges()) {
    if (scheduled_somewhere[a]) needs[b].push_back(a);
  }
  if (how == Construction::Pack && !pack_orders(k, c, rng, needs)) how = Construction::Uniform;
  if (target) {
    for (size_t i = 1; i < target->size(); ++i) needs[(*target)[i]].push_back((*target)[i - 1]);
  }
  std::vector<std::vector<size_t>> by_last(n);  // uncovered sequences by their last block
  if (greedy) {
    for (size_t i = 0; i < c.known(); ++i) {
      if (!c.is_covered(i)) by_last[c.last_block(i)].push_back(i);
    }
  }
  std::vector<bool> done(c.known(), false);
  std::vector<std::vector<uint32_t>> pos(n);
  std::vector<std::pair<const std::vector<uint32_t>*, size_t>> threads;  // sequence, next
  std::vector<std::vector<double>> when;  // Rates: each block's time
  for (const auto& [thread, seq] : k.sequences()) {
    threads.push_back({&seq, 0});
    if (how != Construction::Rates) continue;
    double rate = std::exp(6.0 * uniform01(rng) - 3.0), at = uniform01(rng) * double(seq.size());
    std::vector<double> w;
    for (size_t i = 0; i < seq.size(); ++i) {
      at += -std::log(uniform01(rng)) / rate;
      w.push_back(at);
    }
    when.push_back(std::move(w));
  }

  CoveringSchedule out;
  for (;;) {
    std::vector<size_t> avail;
    bool left = false;
    for (size_t th = 0; th < threads.size(); ++th) {
      auto [seq, next] = threads[th];
      if (next >= seq->size()) continue;
      left = true;
      bool ready = true;
      for (uint32_t a : needs[(*seq)[next]]) ready = ready && !pos[a].empty();
      if (ready) avail.push_back(th);
    }
    if (avail.empty()) {
      if (!left) break;
      // Knowledge contradicts itself (or the target is infeasible): run what is left in
      // thread order rather than give up on the schedule.
      for (auto& [seq, next] : threads) {
        while (next < seq->size()) out.blocks.push_back((*seq)[next++]);
      }
      break;
    }
    size_t best = 0, best_score = 0, ties = 0;
    if (how == Construction::Rates) {
      for (size_t a = 1; a < avail.size(); ++a) {
        auto [seq, next] = threads[avail[a]];
        if (when[avail[a]][next] < when[avail[best]][threads[avail[best]].second]) best = a;
      }
    }
    for (size_t a = 0; a < avail.size() && how != Construction::Rates; ++a) {
      auto [seq, next] = threads[avail[a]];
      size_t score = 0;
      for (size_t i : by_last[(*seq)[next]]) score += !done[i] && c.contains(pos, i, true);
      if (a == 0 || score > best_score) {
        best = a;
        best_score = score;
        ties = 1;
      } else if (score == best_score && rng.below(++ties) == 0) {
        best = a;
      }
    }
    auto& [seq, next] = threads[avail[best]];
    uint32_t b = (*seq)[next++];
    for (size_t i : by_last[b]) {
      if (!done[i] && c.contains(pos, i, true)) {
        done[i] = true;
        ++out.gain;
      }
    }
    pos[b].push_back(uint32_t(out.blocks.size()));
    out.blocks.push_back(b);
  }
  if (!greedy) {
    auto p = SequenceCoverage::positions(out.blocks, n);
    for (size_t i = 0; i < c.known(); ++i) out.gain += !c.is_covered(i) && c.contains(p, i);
  }
  return out;
}

std::vector<ThreadId> schedule_threads(const BlockKnowledge& k,
                                       const std::vector<uint32_t>& blocks) {
  std::vector<ThreadId> out;
  for (uint32_t b : blocks) out.push_back(k.block(b).thread);
  return out;
}

}  // namespace jsched::sched
