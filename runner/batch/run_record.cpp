#include "runner/batch/run_record.h"

#include <sstream>

#include "scheduler/core/fingerprint.h"

namespace jsched::runner {

uint64_t approx_bytes(const RunSpec& s) {
  // A string beyond the small-string buffer has a heap block of its capacity (and some).
  auto heap = [](const std::string& t) -> uint64_t {
    return t.size() > 15 ? t.capacity() + 16 : 0;
  };
  uint64_t n = sizeof(RunSpec);
  for (const std::string* t : {&s.program, &s.strategy, &s.agent_strategy, &s.params, &s.target})
    n += heap(*t);
  for (const auto* v : {&s.command, &s.jvm_args}) {
    n += v->capacity() * sizeof(std::string) + (v->empty() ? 0 : 16);
    for (const std::string& t : *v) n += heap(t);
  }
  return n;
}

json::Value RunRecord::to_json() const {
  json::Value v = json::Value::object();
  v.set("index", json::Value::number(double(index)));
  v.set("program", json::Value::string(program));
  v.set("strategy", json::Value::string(strategy));
  v.set("repetition", json::Value::number(repetition));
  v.set("run", json::Value::number(run));
  v.set("seed", json::Value::string(std::to_string(seed)));  // 64-bit: kept exact as a string
  v.set("exit_status", json::Value::number(exit_status));
  v.set("outcome", json::Value::string(outcome));
  v.set("detail", json::Value::string(detail));
  v.set("fingerprint", json::Value::string(fingerprint));
  v.set("points", json::Value::number(double(points)));
  v.set("elapsed_ms", json::Value::number(elapsed_ms));
  v.set("replay", json::Value::string(replay));
  if (!target.empty()) v.set("target", json::Value::string(target));
  if (profile_run) v.set("profile_run", json::Value::boolean(true));
  if (!log.empty()) v.set("log", json::Value::string(log));
  if (extra.is(json::Value::Object)) v.set("extra", extra);
  return v;
}

RunRecord RunRecord::from_json(const json::Value& v) {
  RunRecord r;
  r.index = uint64_t(v.num("index"));
  r.program = v.str("program");
  r.strategy = v.str("strategy");
  r.repetition = uint32_t(v.num("repetition"));
  r.run = uint32_t(v.num("run"));
  r.seed = std::stoull(v.str("seed", "0"));
  r.exit_status = int(v.num("exit_status"));
  r.outcome = v.str("outcome");
  r.detail = v.str("detail");
  r.fingerprint = v.str("fingerprint");
  r.points = uint64_t(v.num("points"));
  r.elapsed_ms = v.num("elapsed_ms");
  r.replay = v.str("replay");
  r.target = v.str("target");
  // Records of earlier versions named a profile run's strategy "profile".
  r.profile_run = v["profile_run"].as_bool() || r.strategy == "profile";
  r.log = v.str("log");
  r.extra = v["extra"];
  return r;
}

std::vector<std::pair<std::string, std::string>> split_params(const std::string& params) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(params);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    size_t eq = item.find('=');
    out.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
  }
  return out;
}

uint64_t derive_seed(uint64_t master, const std::string& program, const std::string& strategy,
                     uint32_t repetition, uint32_t run) {
  uint64_t h = sched::mix64(master ^ sched::hash_string(program));
  h = sched::mix64(h ^ sched::hash_string(strategy));
  h = sched::mix64(h ^ (uint64_t(repetition) << 32 | run));
  return h & 0x7fffffffffffffffULL;
}

uint64_t consecutive_seed(uint64_t master, const std::string& program, const std::string& strategy,
                          uint32_t repetition, uint32_t run) {
  return (derive_seed(master, program, strategy, repetition, 0) + run) & 0x7fffffffffffffffULL;
}

std::string finding_key(const RunRecord& r) {
  std::string first = r.detail.substr(0, r.detail.find('\n'));
  // Numbers in messages (counts, hashes) vary between runs of the same bug.
  std::string norm;
  for (char c : first) {
    if (c >= '0' && c <= '9') {
      if (norm.empty() || norm.back() != '#') norm += '#';
    } else {
      norm += c;
    }
  }
  return r.program + "|" + r.outcome + "|" + norm;
}

}  // namespace jsched::runner
