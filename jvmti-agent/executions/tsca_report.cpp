#include "jvmti-agent/executions/tsca_report.h"

#include <cstdio>
#include <stdexcept>

#include "protocol/json_object.h"

namespace jsched::agent {

std::string tsca_report(const sched::BlockTrace& trace, sched::TscaPlanner& planner,
                        size_t skipped) {
  std::string blocks = "[";
  for (size_t i = 0; i < trace.blocks.size(); ++i) {
    const sched::BlockOccurrence& b = trace.blocks[i];
    blocks += (i ? ",[" : "[") + std::to_string(b.thread) + "," + json::quote(b.start) + "," +
              json::quote(b.end) + "]";
  }
  blocks += "]";
  std::string edges = "[";
  for (size_t i = 0; i < trace.edges.size(); ++i) {
    edges += (i ? ",[" : "[") + std::to_string(trace.edges[i].first) + "," +
             std::to_string(trace.edges[i].second) + "]";
  }
  edges += "]";
  json::JsonObject j;
  const sched::CoverageProgress p = [&] {
    try {
      return planner.add(trace);
    } catch (const std::length_error& e) {
      // The blocks still go into the report; only the coverage figures are missing.
      j.str("error", e.what());
      return sched::CoverageProgress{};
    }
  }();
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.2f", p.percent());
  j.num("t", planner.coverage().t())
      .num("covered", p.here)
      .num("new", p.fresh)
      .num("cumulative", p.covered)
      .num("known", p.known)
      .raw("percent", pct)
      .num("skipped", skipped)
      .raw("blocks", blocks)
      .raw("edges", edges);
  return j.text();
}

}  // namespace jsched::agent
