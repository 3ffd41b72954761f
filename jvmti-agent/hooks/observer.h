// Counts of hook calls: what strategy=none reports, and a cheap health signal for the others.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "rewriter/hooks.h"

namespace jsched::agent {

extern std::atomic<uint64_t> g_hook_calls[rw::kHookCount];

inline void observe(rw::Hook h) {
  g_hook_calls[size_t(h)].fetch_add(1, std::memory_order_relaxed);
}

// "monitorEnter=12 monitorExit=12 ..." for the hooks that were called.
std::string hook_call_summary();
uint64_t total_hook_calls();

}  // namespace jsched::agent
