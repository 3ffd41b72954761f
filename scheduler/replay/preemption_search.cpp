#include "scheduler/replay/preemption_search.h"

#include <algorithm>
#include <vector>

namespace jsched::sched {

size_t count_preemptions(const ScheduleLog& log) {
  return size_t(std::count_if(log.decisions.begin(), log.decisions.end(),
                              [](const Decision& d) { return d.preempt; }));
}

namespace {

// One round of the search from `original`'s pre-emptions; `best` and `best_count` keep the
// recording with the fewest pre-emptions met. Its own work per candidate is linear in the
// schedule's length (a recorded run can have millions of pre-emptions): the sets of
// pre-emptions tried are sorted index vectors, cut and joined, never searched.
void search_round(const ScheduleLog& original, const PreemptionSearch& search, ScheduleLog& best,
                  size_t& best_count) {
  std::vector<size_t> preempts;
  for (size_t i = 0; i < original.decisions.size(); ++i)
    if (original.decisions[i].preempt) preempts.push_back(i);
  if (preempts.empty()) return;
  const bool sites_known = std::any_of(preempts.begin(), preempts.end(), [&](size_t i) {
    return original.decisions[i].from_at_site;
  });
  // One guide for every candidate, its pre-emptions set anew each time.
  ScheduleLog guide = original;
  // Whether the finding stays with only `keep` of the original's pre-emptions. The others
  // anchored where the original made them, by each thread's step count; failing that, by the
  // operation each pre-empted thread was about to perform (taking a pre-emption out can change
  // how many steps another thread runs before the same operation: a loop turns more often).
  auto attempt = [&](const std::vector<size_t>& keep) {
    for (size_t i : preempts) guide.decisions[i].preempt = false;
    for (size_t k : keep) guide.decisions[k].preempt = true;
    guide.anchor_sites = false;
    std::optional<ScheduleLog> rec = search.follow(guide);
    if (!rec && sites_known && !search.out_of_budget()) {
      guide.anchor_sites = true;
      rec = search.follow(guide);
    }
    if (!rec) return false;
    // A run that follows a guide may pre-empt where the guide did not (a thread it waited for
    // could not go on): its own recording is what counts.
    if (size_t c = count_preemptions(*rec); c < best_count) {
      best_count = c;
      best = std::move(*rec);
    }
    return true;
  };
  // 1. Delta debugging (ddmin) over the pre-emptions to keep: halves first, then ever smaller
  // parts, so a schedule of millions shrinks by halves before anything goes one by one.
  std::vector<size_t> keep = preempts;
  size_t n = 2;
  while (keep.size() >= 2 && !search.out_of_budget()) {
    bool reduced = false;
    const size_t chunk = (keep.size() + n - 1) / n;
    for (size_t start = 0; start < keep.size() && !search.out_of_budget(); start += chunk) {
      const auto from = keep.begin() + long(start);
      const auto to = keep.begin() + long(std::min(keep.size(), start + chunk));
      std::vector<size_t> subset(from, to);
      std::vector<size_t> complement(keep.begin(), from);
      complement.insert(complement.end(), to, keep.end());
      for (int which = 0; which < 2 && !reduced; ++which) {
        std::vector<size_t>& cand = which == 0 ? subset : complement;
        if (cand.empty() || cand.size() == keep.size()) continue;
        if (attempt(cand)) {
          keep = std::move(cand);
          n = which == 0 ? 2 : std::max<size_t>(n - 1, 2);
          reduced = true;
        }
      }
      if (reduced) break;
    }
    if (!reduced) {
      if (n >= keep.size()) break;
      n = std::min(keep.size(), n * 2);
    }
  }
  // 2. Each pre-emption left, taken out if the finding stays.
  for (size_t i = 0; i < keep.size() && !search.out_of_budget();) {
    std::vector<size_t> fewer = keep;
    fewer.erase(fewer.begin() + long(i));
    if (attempt(fewer)) {
      keep = std::move(fewer);
    } else {
      ++i;
    }
  }
}

}  // namespace

ScheduleLog fewest_preemptions(const ScheduleLog& original, const PreemptionSearch& search) {
  ScheduleLog best = original;
  size_t best_count = count_preemptions(original);
  // Each round starts from the best recording so far: its pre-emptions anchor where that run
  // made them, which the round before could not express.
  size_t before = best_count;
  search_round(original, search, best, best_count);
  while (best_count < before && best_count > 0 && !search.out_of_budget()) {
    before = best_count;
    const ScheduleLog start = best;  // the round may replace `best`
    search_round(start, search, best, best_count);
  }
  return best;
}

std::string finding_identity(const std::string& kind, const std::string& detail) {
  std::string first = detail.substr(0, detail.find('\n'));
  if (kind == "bug") {
    std::string cls = first.substr(0, first.find_first_of(": "));
    if (first.rfind("uncaught ", 0) == 0) {
      std::string rest = first.substr(9);
      cls = rest.substr(0, rest.find_first_of(": "));
    }
    size_t at = detail.find("\n    at ");
    std::string frame =
        at == std::string::npos ? "" : detail.substr(at + 8, detail.find('\n', at + 1) - at - 8);
    return kind + " " + cls + " " + frame;
  }
  if (kind == "deadlock") {
    std::vector<std::string> frames;
    size_t pos = 0;
    while ((pos = first.find(" at ", pos)) != std::string::npos) {
      pos += 4;
      frames.push_back(first.substr(pos, first.find(", ", pos) - pos));
    }
    std::sort(frames.begin(), frames.end());
    std::string k = kind;
    for (const std::string& f : frames) k += " " + f;
    return k;
  }
  return kind;
}

}  // namespace jsched::sched
