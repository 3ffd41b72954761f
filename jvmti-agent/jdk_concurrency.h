// The JDK classes jsched rewrites even when the JDK itself is not instrumented, so that
// java.util.concurrent blocks, times out and starts threads where the scheduler sees it:
// LockSupport's park/unpark go to the scheduler (every j.u.c. primitive blocks through them),
// Thread.start/interrupt/... calls made by JDK code (executor workers, timers) are hooked like
// the application's, and their clock reads are the scheduler's. java.util.Timer's classes wait
// on monitors, so they get the full instrumentation.
#pragma once

#include <optional>
#include <string_view>

#include "rewriter/config.h"

namespace jsched::agent {

// How to rewrite JDK class `internal_name`, given the application's configuration; nothing
// for classes outside these packages.
std::optional<rw::RewriteConfig> jdk_concurrency_config(std::string_view internal_name,
                                                        const rw::RewriteConfig& app);

// The class loaded before jsched can see it that must be retransformed.
inline constexpr const char* kLockSupport = "java/util/concurrent/locks/LockSupport";

}  // namespace jsched::agent
