#include "scheduler/hapset/hapset_plan.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "scheduler/core/fingerprint.h"

namespace jsched::sched {

namespace {
constexpr const char* kHeader = "jsched-hapset 1";
}

std::string pair_hex(uint64_t id) {
  return hex64(id);
}

bool parse_pair_hex(const std::string& s, uint64_t& id) {
  if (s.size() != 16) return false;
  id = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    id = id << 4 | uint64_t(d);
  }
  return true;
}

void HapsetPlan::write(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw PlanError("cannot write plan " + path);
  out << kHeader << "\nframes " << frames << "\n";
  for (uint64_t id : pairs) out << "pair " << pair_hex(id) << "\n";
  out << "end\n";
  out.flush();
  if (!out) throw PlanError("error writing plan " + path);
}

bool HapsetPlan::is_one(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  return in && std::getline(in, line) && line == kHeader;
}

HapsetPlan HapsetPlan::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PlanError("cannot read plan " + path);
  HapsetPlan p;
  size_t n = 0;
  auto fail = [&](const std::string& why) {
    throw PlanError(path + ":" + std::to_string(n) + ": " + why);
  };
  std::string line;
  if (!std::getline(in, line) || (++n, line != kHeader))
    fail(std::string("not a HaPSet plan (first line must be '") + kHeader + "')");
  bool frames = false, ended = false;
  while (std::getline(in, line)) {
    ++n;
    if (ended) fail("text after 'end'");
    std::istringstream s(line);
    std::string key, value, extra;
    s >> key >> value;
    if (key == "end" && value.empty()) {
      ended = true;
      continue;
    }
    if (value.empty() || (s >> extra)) fail("expected '<key> <value>', got '" + line + "'");
    if (key == "frames") {
      if (value.find_first_not_of("0123456789") != std::string::npos || value.size() > 3)
        fail("frames must be a number from 0 to 100, got '" + value + "'");
      p.frames = uint32_t(std::stoul(value));
      if (p.frames > 100) fail("frames must be a number from 0 to 100, got '" + value + "'");
      frames = true;
    } else if (key == "pair") {
      uint64_t id;
      if (!parse_pair_hex(value, id))
        fail("a pair is 16 lowercase hex digits, got '" + value + "'");
      p.pairs.push_back(id);
    } else {
      fail("unknown line '" + key + "' (frames, pair, end)");
    }
  }
  if (!frames) fail("no 'frames' line");
  if (!ended) fail("truncated: no 'end' line");
  return p;
}

}  // namespace jsched::sched
