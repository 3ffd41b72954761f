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

void log_line(const std::string& s) {
  std::string line = "jsched: " + s + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace jsched::agent
