#include "jvmti-agent/agent_state.h"

#include <chrono>
#include <cstdio>
#include <mutex>

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

namespace {
std::mutex g_log_mu;
std::string g_held;  // log_line_soon's lines not yet written
std::chrono::steady_clock::time_point g_held_since;

void write_held() {
  if (g_held.empty()) return;
  std::fwrite(g_held.data(), 1, g_held.size(), stderr);
  std::fflush(stderr);
  g_held.clear();
}
}  // namespace

void log_line(const std::string& s) {
  std::string line = "jsched: " + s + "\n";
  std::lock_guard<std::mutex> g(g_log_mu);
  write_held();
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void log_line_soon(const std::string& s) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> g(g_log_mu);
  if (g_held.empty()) g_held_since = now;
  g_held += "jsched: " + s + "\n";
  if (now - g_held_since >= std::chrono::milliseconds(100) || g_held.size() >= 64 * 1024)
    write_held();
}

void flush_log_lines() {
  std::lock_guard<std::mutex> g(g_log_mu);
  write_held();
}

}  // namespace jsched::agent
