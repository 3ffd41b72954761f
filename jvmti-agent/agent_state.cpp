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

sched::StrategyArgs registered_args(const AgentState& s) {
  sched::StrategyArgs a;
  a.seed = s.options.seed;
  a.options = s.options.strategy_options;
  a.steps = s.options.steps ? s.options.steps : s.plan.steps;
  a.thread_events = s.plan.thread_events;
  return a;
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
