// Running the jsched runner and reading its results directory, for integration tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "protocol/json.h"
#include "tests/support/process.h"

namespace jsched::test {

std::string slurp(const std::string& path);
// The records of runs.jsonl in results directory `dir`.
std::vector<json::Value> records(const std::string& dir);
// What must not depend on how the batch was split or interrupted: timings and file locations
// aside, every field of every execution.
std::map<uint64_t, std::string> canonical(const std::vector<json::Value>& recs);
// Empty when equal, else the first difference (whole maps are too long to print).
std::string first_difference(const std::map<uint64_t, std::string>& a,
                             const std::map<uint64_t, std::string>& b);
// The built jsched with these arguments.
ProcessResult run_jsched(std::vector<std::string> args);
// The built jsched with `args` in the background, its stdout discarded and its stderr in
// `err_file`; returns its pid.
int start_jsched(const std::vector<std::string>& args, const std::string& err_file);
// `argv` (argv[0] a path) in the background, its stdout in `out_file` (empty: discarded) and its
// stderr in `err_file`; returns its pid.
int start_process(std::vector<std::string> argv, const std::string& out_file,
                  const std::string& err_file);
// Waits for process `pid`: its exit status, or 128 + the signal that ended it.
int wait_status(int pid);

}  // namespace jsched::test
