#include "runner/minimize/minimize_findings.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "jvmti-agent/shell_words.h"
#include "protocol/json.h"
#include "runner/batch/batch.h"
#include "runner/batch/results_dir.h"
#include "runner/minimize/finding_minimizer.h"
#include "scheduler/replay/preemption_search.h"

namespace jsched::runner {

namespace {

namespace fs = std::filesystem;

json::Value to_json(const MinimizedFinding& m) {
  json::Value v = json::Value::object();
  v.set("program", json::Value::string(m.program));
  v.set("identity", json::Value::string(m.identity));
  v.set("replay", json::Value::string(m.replay));
  v.set("kind", json::Value::string(m.kind));
  v.set("before", json::Value::number(double(m.before)));
  v.set("after", json::Value::number(double(m.after)));
  v.set("cut_off", json::Value::string(m.cut_off));
  v.set("executions", json::Value::number(double(m.executions)));
  v.set("seconds", json::Value::number(m.seconds));
  v.set("minimal_replay", json::Value::string(m.minimal_replay));
  v.set("timeline", json::Value::string(m.timeline));
  v.set("error", json::Value::string(m.error));
  return v;
}

MinimizedFinding from_json(const json::Value& v) {
  MinimizedFinding m;
  m.program = v.str("program");
  m.identity = v.str("identity");
  m.replay = v.str("replay");
  m.kind = v.str("kind");
  m.before = size_t(v.num("before"));
  m.after = size_t(v.num("after"));
  m.cut_off = v.str("cut_off");
  m.executions = uint64_t(v.num("executions"));
  m.seconds = v.num("seconds");
  m.minimal_replay = v.str("minimal_replay");
  m.timeline = v.str("timeline");
  m.error = v.str("error");
  return m;
}

// Per finding: enough for the samples' bugs (tens of executions), and a budget that leaves
// room for the others.
constexpr double kSecondsEach = 60;
constexpr uint64_t kRunsEach = 200;

std::string minimized_key(const std::string& program, const std::string& identity) {
  return program + "\n" + identity;
}

}  // namespace

std::string minimized_key(const RunRecord& r) {
  return minimized_key(r.program, sched::finding_identity(r.outcome, r.detail));
}

std::map<std::string, MinimizedFinding> read_minimized(const std::string& dir) {
  std::map<std::string, MinimizedFinding> out;
  std::ifstream in(dir + "/minimized.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    try {
      MinimizedFinding m = from_json(json::parse(line));
      out[minimized_key(m.program, m.identity)] = m;
    } catch (const json::ParseError&) {
      // A torn line (killed while writing): that finding is minimized again.
    }
  }
  return out;
}

void minimize_findings(const std::string& dir, const std::vector<RunRecord>& records,
                       double budget_seconds) {
  std::map<std::string, MinimizedFinding> done = read_minimized(dir);
  // One run of each distinct finding of each program, in the order they were found.
  std::vector<const RunRecord*> sorted;
  for (const RunRecord& r : records) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RunRecord* a, const RunRecord* b) { return a->index < b->index; });
  std::set<std::string> seen;
  std::vector<const RunRecord*> todo;
  for (const RunRecord* r : sorted) {
    // Hangs and livelocks are left to `jsched minimize`: each candidate would run to the
    // watchdog.
    if (!r->found() || r->outcome == "hang" || r->outcome == "livelock" || r->replay.empty())
      continue;
    const std::string key = minimized_key(*r);
    if (!done.count(key) && seen.insert(key).second) todo.push_back(r);
  }
  if (todo.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  auto left = [&] {
    return budget_seconds -
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  size_t n = done.size();
  for (size_t i = 0; i < todo.size(); ++i) {
    const RunRecord& r = *todo[i];
    if (left() < 5) {
      std::fprintf(stderr,
                   "jsched: minimize: the budget (--minimize-seconds %.0f) is spent; %zu "
                   "finding(s) not minimized (jsched minimize -- <its replay command>)\n",
                   budget_seconds, todo.size() - i);
      break;
    }
    std::fprintf(stderr, "jsched: minimizing finding %zu/%zu: %s: %s\n", i + 1, todo.size(),
                 r.program.c_str(), r.outcome.c_str());
    MinimizeRequest req;
    req.command = agent::shell_split(r.replay);
    std::string rel;
    do rel = "minimal/" + std::to_string(++n);
    while (fs::exists(dir + "/" + rel));
    req.out = dir + "/" + rel;
    req.max_runs = kRunsEach;
    req.max_seconds = std::min(kSecondsEach, left());
    MinimizeResult res = minimize_finding(req);
    if (res.interrupted) throw Interrupted();
    MinimizedFinding m;
    m.program = r.program;
    m.identity = sched::finding_identity(r.outcome, r.detail);
    m.replay = r.replay;
    m.kind = r.outcome;
    m.before = res.before;
    m.after = res.after;
    m.cut_off = res.cut_off;
    m.executions = res.executions;
    m.seconds = res.seconds;
    m.error = res.error;
    if (!res.minimal.empty()) m.minimal_replay = agent::shell_join(res.replay);
    if (!res.timeline.empty()) m.timeline = rel + "/timeline.html";
    // Appended whole, like runs.jsonl: a full disk loses this line, not the earlier ones.
    const std::string file = dir + "/minimized.jsonl";
    FILE* f = std::fopen(file.c_str(), "a");
    const std::string line = to_json(m).dump() + "\n";
    bool ok = f && std::fwrite(line.data(), 1, line.size(), f) == line.size();
    ok = f && std::fclose(f) == 0 && ok;
    if (!ok) throw WriteError("cannot write " + file);
  }
}

}  // namespace jsched::runner
