// The exit statuses of jsched's batch commands (run, bench, merge), documented in
// docs/runner.md and each command's --help.
#pragma once

namespace jsched::runner {

inline constexpr int kExitClean = 0;          // nothing found (bench: every expectation met)
inline constexpr int kExitFound = 1;          // something found (bench: an expectation not met)
inline constexpr int kExitUsage = 2;          // bad options, a program that cannot start, ...
inline constexpr int kExitErrors = 3;         // nothing found, but some runs did not run to the end
inline constexpr int kExitWriteFailed = 4;    // results could not be written (disk full, ...)
inline constexpr int kExitInterrupted = 130;  // Ctrl-C or SIGTERM: what ran is recorded

}  // namespace jsched::runner
