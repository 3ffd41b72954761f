#include "runner/reports/aggregate.h"

#include <algorithm>
#include <cmath>

#include "protocol/outcome.h"
#include "runner/batch/hapset_pairs.h"

namespace jsched::runner {

uint64_t CellStats::found_runs() const {
  uint64_t n = 0;
  for (std::string_view k : kFindingOutcomes) {
    auto it = outcomes.find(std::string(k));
    if (it != outcomes.end()) n += it->second;
  }
  return n;
}

uint64_t CellStats::profile_found() const {
  uint64_t n = 0;
  for (const auto& [outcome, k] : profile_findings) n += k;
  return n;
}

uint64_t CellStats::with_outcome(const std::string& outcome) const {
  auto a = outcomes.find(outcome), b = profile_findings.find(outcome);
  return (a == outcomes.end() ? 0 : a->second) + (b == profile_findings.end() ? 0 : b->second);
}

uint64_t CellStats::error_runs() const {
  uint64_t n = 0;
  for (const char* k : {"error", "exit", "timeout"}) {
    auto it = outcomes.find(k);
    if (it != outcomes.end()) n += it->second;
  }
  return n;
}

std::optional<double> CellStats::mean_first() const {
  double sum = 0;
  int n = 0;
  for (const auto& f : first_finding) {
    if (f) sum += *f, ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

std::optional<double> CellStats::stddev_first() const {
  auto mean = mean_first();
  if (!mean) return std::nullopt;
  double ss = 0;
  int n = 0;
  for (const auto& f : first_finding) {
    if (f) ss += (*f - *mean) * (*f - *mean), ++n;
  }
  return n > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
}

std::vector<uint64_t> CellStats::order_frequencies() const {
  std::vector<uint64_t> v;
  for (const auto& [fp, n] : partial_orders) v.push_back(n);
  std::sort(v.rbegin(), v.rend());
  return v;
}

std::vector<CellStats> aggregate(const std::vector<RunRecord>& records) {
  std::vector<const RunRecord*> sorted;
  for (const RunRecord& r : records) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->index < b->index; });
  std::vector<CellStats> cells;
  std::map<std::pair<std::string, std::string>, size_t> at;
  std::vector<std::vector<const RunRecord*>> by_cell;
  for (const RunRecord* r : sorted) {
    auto key = std::make_pair(r->program, r->strategy);
    auto it = at.find(key);
    if (it == at.end()) {
      it = at.emplace(key, cells.size()).first;
      CellStats fresh;
      fresh.program = r->program;
      fresh.strategy = r->strategy;
      cells.push_back(std::move(fresh));
      by_cell.emplace_back();
    }
    CellStats& c = cells[it->second];
    if (r->profile_run) {
      // Only profile runs that found something are recorded.
      if (r->found()) {
        ++c.profile_findings[r->outcome];
        c.findings.emplace(finding_key(*r), r);
      }
      c.profile_hits += r->hit();
      continue;
    }
    by_cell[it->second].push_back(r);
    ++c.runs;
    ++c.outcomes[r->outcome];
    c.total_ms += r->elapsed_ms;
    if (!r->fingerprint.empty()) ++c.partial_orders[r->fingerprint];
    if (c.first_finding.size() <= r->repetition) c.first_finding.resize(r->repetition + 1);
    if (!r->target.empty()) c.targeted = true;
    if (r->found()) c.findings.emplace(finding_key(*r), r);
    if (r->hit()) {
      ++c.hits;
      auto& f = c.first_finding[r->repetition];
      if (!f || r->run + 1 < *f) f = r->run + 1;
    }
  }
  for (size_t i = 0; i < cells.size(); ++i) cells[i].hapset_curve = saturation(by_cell[i]);
  return cells;
}

}  // namespace jsched::runner
