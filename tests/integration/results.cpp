#include "tests/integration/results.h"

#include <fstream>
#include <sstream>

namespace jsched::test {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<json::Value> records(const std::string& dir) {
  std::vector<json::Value> out;
  std::istringstream in(slurp(dir + "/runs.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

std::map<uint64_t, std::string> canonical(const std::vector<json::Value>& recs) {
  std::map<uint64_t, std::string> out;
  for (json::Value r : recs) {
    r.set("elapsed_ms", json::Value());
    r.set("log", json::Value());
    out[uint64_t(r.num("index"))] = r.dump();
  }
  return out;
}

std::string first_difference(const std::map<uint64_t, std::string>& a,
                             const std::map<uint64_t, std::string>& b) {
  if (a.size() != b.size())
    return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end()) return "execution " + std::to_string(k) + " missing";
    if (it->second != v) return "execution " + std::to_string(k) + ":\n" + v + "\n" + it->second;
  }
  return "";
}

ProcessResult run_jsched(std::vector<std::string> args) {
  args.insert(args.begin(), JSCHED_BIN);
  return run(args);
}

}  // namespace jsched::test
