#include "jvmti-agent/agent_state.h"

#include <cstdio>

namespace jsched::agent {

namespace {
std::unique_ptr<AgentState> g_state;
}

AgentState& state() {
  return *g_state;
}
void set_state(std::unique_ptr<AgentState> s) {
  g_state = std::move(s);
}

sched::StrategyArgs strategy_args(const Options& o, const sched::VariablePlan& plan) {
  sched::StrategyArgs a;
  a.seed = o.seed;
  a.options = o.strategy_options;
  a.steps = o.steps ? o.steps : plan.steps;
  a.thread_events = plan.thread_events;
  for (const sched::PlanVariable& v : plan.variables)
    a.variables.emplace_back(v.id(), v.max_accesses);
  a.base = o.base;
  return a;
}

sched::StrategyArgs registered_args(const AgentState& s) {
  return strategy_args(s.options, s.plan);
}

std::string member_options(const AgentState& s) {
  if (s.options.strategy != Strategy::Registered) return "";
  const sched::StrategyEntry* e = sched::find_strategy(s.options.registered);
  return e && e->member ? e->member(registered_args(s)) : "";
}

void log_line(const std::string& s) {
  std::string line = "jsched: " + s + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace jsched::agent
