#include "scheduler/schedule_log.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace jsched::sched {

void ScheduleLog::write(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write schedule file " + path);
  out << "jsched-schedule 1\noptions " << options << "\ndecisions " << decisions.size() << "\n";
  std::string buf;
  buf.reserve(decisions.size() * 6);
  for (const Decision& d : decisions) {
    buf += char(d.kind);
    buf += ' ';
    buf += std::to_string(d.value);
    buf += '\n';
  }
  out << buf << "end\n";
  if (!out) throw std::runtime_error("error writing schedule file " + path);
}

ScheduleLog ScheduleLog::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read schedule file " + path);
  ScheduleLog log;
  std::string line;
  size_t n = 0;
  auto fail = [&](const std::string& why) -> void {
    throw std::runtime_error(path + ":" + std::to_string(n) + ": " + why);
  };
  auto next_line = [&]() -> bool {
    if (!std::getline(in, line)) return false;
    ++n;
    return true;
  };
  if (!next_line() || line != "jsched-schedule 1") {
    fail("not a jsched schedule file (expected 'jsched-schedule 1')");
  }
  if (!next_line() || line.rfind("options ", 0) != 0) fail("expected 'options ...'");
  log.options = line.substr(8);
  if (!next_line() || line.rfind("decisions ", 0) != 0) fail("expected 'decisions N'");
  uint64_t count = 0;
  {
    const char* b = line.data() + 10;
    auto [p, ec] = std::from_chars(b, line.data() + line.size(), count);
    if (ec != std::errc() || p != line.data() + line.size()) fail("bad decision count");
  }
  log.decisions.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (!next_line())
      fail("file ends after " + std::to_string(i) + " of " + std::to_string(count) + " decisions");
    if (line.size() < 3 || (line[0] != 't' && line[0] != 'a') || line[1] != ' ') {
      fail("bad decision '" + line + "'");
    }
    uint32_t v = 0;
    auto [p, ec] = std::from_chars(line.data() + 2, line.data() + line.size(), v);
    if (ec != std::errc() || p != line.data() + line.size()) fail("bad decision '" + line + "'");
    log.decisions.push_back(Decision{Decision::Kind(line[0]), v});
  }
  if (!next_line() || line != "end") fail("expected 'end' after the decisions");
  return log;
}

size_t RecordingStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  size_t i = inner_.choose(enabled, step);
  log_.decisions.push_back(Decision{Decision::Thread, enabled.at(i).thread});
  return i;
}

size_t RecordingStrategy::choose_aux(AuxChoice kind, size_t n) {
  size_t i = inner_.choose_aux(kind, n);
  log_.decisions.push_back(Decision{Decision::Aux, uint32_t(i)});
  return i;
}

const Decision& ReplayStrategy::next(Decision::Kind kind) {
  if (pos_ >= log_.decisions.size()) {
    throw ReplayDivergence("decision " + std::to_string(pos_ + 1) +
                           ": the run needs more decisions than the schedule holds (" +
                           std::to_string(log_.decisions.size()) + ")");
  }
  const Decision& d = log_.decisions[pos_];
  if (d.kind != kind) {
    throw ReplayDivergence("decision " + std::to_string(pos_ + 1) + ": the schedule has a " +
                           (d.kind == Decision::Thread ? "thread choice" : "notify choice") +
                           " where the run makes a " +
                           (kind == Decision::Thread ? "thread choice" : "notify choice"));
  }
  ++pos_;
  return d;
}

size_t ReplayStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  const Decision& d = next(Decision::Thread);
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (enabled[i].thread == d.value) return i;
  }
  std::ostringstream msg;
  msg << "decision " << pos_ << ": the schedule runs thread " << d.value
      << ", which is not enabled (enabled:";
  for (const Candidate& c : enabled) msg << ' ' << c.thread;
  msg << ")";
  throw ReplayDivergence(msg.str());
}

size_t ReplayStrategy::choose_aux(AuxChoice, size_t n) {
  const Decision& d = next(Decision::Aux);
  if (d.value >= n) {
    throw ReplayDivergence("decision " + std::to_string(pos_) + ": the schedule wakes waiter " +
                           std::to_string(d.value) + " of " + std::to_string(n));
  }
  return d.value;
}

}  // namespace jsched::sched
