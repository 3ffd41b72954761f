#include "jvmti-agent/hooks/observer.h"

namespace jsched::agent {

std::atomic<uint64_t> g_hook_calls[rw::kHookCount];

std::string hook_call_summary() {
  std::string out;
  for (size_t h = 0; h < rw::kHookCount; ++h) {
    uint64_t n = g_hook_calls[h].load(std::memory_order_relaxed);
    if (n == 0) continue;
    if (!out.empty()) out += ' ';
    out += std::string(rw::hook_info(rw::Hook(h)).name) + "=" + std::to_string(n);
  }
  return out;
}

uint64_t total_hook_calls() {
  uint64_t n = 0;
  for (const auto& c : g_hook_calls) n += c.load(std::memory_order_relaxed);
  return n;
}

}  // namespace jsched::agent
