#include "jvmti-agent/tsca_report.h"

#include <cstdio>

#include "jvmti-agent/json.h"
#include "scheduler/tsca_planner.h"

namespace jsched::agent {

std::string tsca_report(const sched::BlockTrace& trace, const sched::TscaPlan* plan, uint32_t t,
                        size_t skipped) {
  sched::TscaPlanner planner(t);
  if (plan) planner.restore(plan->knowledge, plan->coverage());
  sched::CoverageProgress p = planner.add(trace);
  std::string blocks = "[";
  for (size_t i = 0; i < trace.blocks.size(); ++i) {
    const sched::BlockOccurrence& b = trace.blocks[i];
    blocks += (i ? ",[" : "[") + std::to_string(b.thread) + "," + json_escape(b.start) + "," +
              json_escape(b.end) + "]";
  }
  blocks += "]";
  std::string edges = "[";
  for (size_t i = 0; i < trace.edges.size(); ++i) {
    edges += (i ? ",[" : "[") + std::to_string(trace.edges[i].first) + "," +
             std::to_string(trace.edges[i].second) + "]";
  }
  edges += "]";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.2f", p.percent());
  JsonObject j;
  j.num("t", t)
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
