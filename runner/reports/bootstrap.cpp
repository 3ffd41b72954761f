#include "runner/reports/bootstrap.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "scheduler/core/rng.h"

namespace jsched::runner {

std::vector<BootstrapRow> bootstrap(const std::vector<const RunRecord*>& pool, int trials,
                                    uint64_t seed) {
  std::vector<BootstrapRow> rows;
  bool any = std::any_of(pool.begin(), pool.end(), [](const RunRecord* r) { return r->hit(); });
  if (!any) return rows;
  sched::Rng rng(seed);
  // One worker: runs (and their time) until a draw finds something.
  auto worker = [&](uint64_t& runs) {
    double t = 0;
    for (;;) {
      const RunRecord* r = pool[rng.below(pool.size())];
      ++runs;
      t += r->elapsed_ms / 1000;
      if (r->hit()) return t;
    }
  };
  for (int n : {1, 2, 5, 10, 20, 50}) {
    double sum_t = 0, sum_runs = 0;
    for (int k = 0; k < trials; ++k) {
      double best = std::numeric_limits<double>::max();
      uint64_t best_runs = 0;
      for (int w = 0; w < n; ++w) {
        uint64_t runs = 0;
        double t = worker(runs);
        if (t < best) best = t, best_runs = runs;
      }
      sum_t += best;
      sum_runs += double(best_runs);
    }
    rows.push_back(BootstrapRow{n, sum_runs / trials, sum_t / trials, 0});
  }
  for (BootstrapRow& r : rows) r.speedup = rows[0].seconds / r.seconds;
  return rows;
}

std::string bootstrap_text(const std::string& cell, const std::vector<BootstrapRow>& rows) {
  std::string out =
      cell +
      ": expected time to the first finding with N workers (bootstrap, first finding wins)\n";
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %8s %16s %12s %9s\n", "workers", "runs per worker", "seconds",
                "speedup");
  out += buf;
  for (const BootstrapRow& r : rows) {
    std::snprintf(buf, sizeof buf, "  %8d %16.1f %12.3f %9.2f\n", r.workers, r.runs_per_worker,
                  r.seconds, r.speedup);
    out += buf;
  }
  return out;
}

}  // namespace jsched::runner
