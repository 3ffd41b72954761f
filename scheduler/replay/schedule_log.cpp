#include "scheduler/replay/schedule_log.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace jsched::sched {

void ScheduleLog::write(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write schedule file " + path);
  out << "jsched-schedule 2\noptions " << options << "\n"
      << (anchor_sites ? "anchor sites\n" : "") << "decisions " << decisions.size() << "\n";
  std::string buf;
  buf.reserve(decisions.size() * 16);
  for (const Decision& d : decisions) {
    buf += char(d.kind);
    buf += ' ';
    buf += std::to_string(d.value);
    if (d.kind == Decision::Thread && d.op != OpKind::Count) {
      buf += ' ';
      buf += op_name(d.op);
      buf += ' ';
      buf += std::to_string(d.site);
      if (d.preempt) {
        buf += " p";
        if (d.from != kNoThread)
          buf += " " + std::to_string(d.from) + " " + std::to_string(d.from_steps);
        if (d.from != kNoThread && d.from_at_site)
          buf += " " + std::to_string(d.from_site) + " " + std::to_string(d.from_nth);
      }
    }
    buf += '\n';
  }
  if (hang_steps) buf += (livelock ? "livelock " : "hang ") + std::to_string(hang_steps) + "\n";
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
  int version = 0;
  if (next_line() && line == "jsched-schedule 1") version = 1;
  if (line == "jsched-schedule 2") version = 2;
  if (version == 0) fail("not a jsched schedule file (expected 'jsched-schedule 2')");
  if (!next_line() || line.rfind("options ", 0) != 0) fail("expected 'options ...'");
  log.options = line.substr(8);
  if (next_line() && line == "anchor sites") {
    log.anchor_sites = true;
    next_line();
  }
  if (line.rfind("decisions ", 0) != 0) fail("expected 'decisions N'");
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
      fail("bad decision '" + line.substr(0, 60) + "'");
    }
    const char* end = line.data() + line.size();
    uint32_t v = 0;
    // `t -`: no thread named, the one before goes on (a guide for follow=; FollowStrategy).
    auto [p, ec] = line[2] == '-' && line[0] == 't'
                       ? std::from_chars_result{line.data() + 3, std::errc()}
                       : std::from_chars(line.data() + 2, end, v);
    if (line[2] == '-') v = kNoThread;
    if (ec != std::errc()) fail("bad decision '" + line.substr(0, 60) + "'");
    Decision d{Decision::Kind(line[0]), v};
    if (version >= 2 && d.kind == Decision::Thread) {
      // " <operation> <site>"
      if (p == end || *p != ' ') fail("bad decision '" + line.substr(0, 60) + "' (no operation)");
      const char* op = p + 1;
      const char* sp = std::find(op, end, ' ');
      if (!op_from_name(std::string_view(op, size_t(sp - op)), d.op) || sp == end)
        fail("bad decision '" + line.substr(0, 60) + "' (unknown operation)");
      auto [q, ec2] = std::from_chars(sp + 1, end, d.site);
      if (ec2 != std::errc()) fail("bad decision '" + line.substr(0, 60) + "'");
      p = q;
      if (end - p >= 2 && p[0] == ' ' && p[1] == 'p' && (end - p == 2 || p[2] == ' ')) {
        d.preempt = true;
        p += 2;
        if (p != end) {  // " <from> <steps>"
          auto [q1, e1] = std::from_chars(p + 1, end, d.from);
          if (e1 != std::errc() || q1 == end || *q1 != ' ')
            fail("bad decision '" + line.substr(0, 60) + "' (pre-emption)");
          auto [q2, e2] = std::from_chars(q1 + 1, end, d.from_steps);
          if (e2 != std::errc()) fail("bad decision '" + line.substr(0, 60) + "' (pre-emption)");
          p = q2;
          if (p != end && *p == ' ') {  // " <from site> <nth>"
            auto [q3, e3] = std::from_chars(p + 1, end, d.from_site);
            if (e3 != std::errc() || q3 == end || *q3 != ' ')
              fail("bad decision '" + line.substr(0, 60) + "' (pre-emption site)");
            auto [q4, e4] = std::from_chars(q3 + 1, end, d.from_nth);
            if (e4 != std::errc())
              fail("bad decision '" + line.substr(0, 60) + "' (pre-emption site)");
            d.from_at_site = true;
            p = q4;
          }
        }
      }
    }
    if (p != end) fail("bad decision '" + line.substr(0, 60) + "'");
    log.decisions.push_back(d);
  }
  if (!next_line()) fail("expected 'end' after the decisions");
  log.livelock = line.rfind("livelock ", 0) == 0;
  if (line.rfind("hang ", 0) == 0 || log.livelock) {
    const size_t at = line.find(' ') + 1;
    auto [p, ec] = std::from_chars(line.data() + at, line.data() + line.size(), log.hang_steps);
    if (ec != std::errc() || p != line.data() + line.size() || log.hang_steps == 0)
      fail("bad line '" + line.substr(0, 60) + "'");
    if (!next_line()) fail("expected 'end' after the decisions");
  }
  if (line != "end") fail("expected 'end' after the decisions");
  return log;
}

// Whether choosing `chosen` pre-empts `last`: it could have gone on (it is enabled).
size_t RecordingStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  size_t i = inner_.choose(enabled, step);
  const Candidate& c = enabled.at(i);
  Decision d{Decision::Thread, c.thread, c.op.kind, c.op.site};
  d.preempt = preempts(enabled, last_, c.thread);
  if (d.preempt) {
    d.from = last_;
    d.from_steps = steps_.of(last_);
    for (const Candidate& e : enabled) {
      if (e.thread != last_) continue;
      d.from_at_site = true;
      d.from_site = e.op.site;
      d.from_nth = sites_.of(last_, e.op.site);
    }
  }
  log_.decisions.push_back(d);
  last_ = c.thread;
  steps_.add(c.thread);
  sites_.add(c.thread, c.op.site);
  return i;
}

size_t RecordingStrategy::choose_aux(AuxChoice kind, size_t n) {
  size_t i = inner_.choose_aux(kind, n);
  log_.decisions.push_back(Decision{Decision::Aux, uint32_t(i)});
  return i;
}

const Decision& ReplayStrategy::next(Decision::Kind kind) {
  if (pos_ >= log_.decisions.size()) {
    throw ReplayDivergence("at decision " + std::to_string(pos_ + 1) +
                           ": the run needs more decisions than the schedule holds (" +
                           std::to_string(log_.decisions.size()) + ")");
  }
  const Decision& d = log_.decisions[pos_];
  if (d.kind != kind) {
    throw ReplayDivergence("at decision " + std::to_string(pos_ + 1) + ": the schedule has a " +
                           (d.kind == Decision::Thread ? "thread choice" : "notify choice") +
                           " where the run makes a " +
                           (kind == Decision::Thread ? "thread choice" : "notify choice"));
  }
  ++pos_;
  return d;
}

namespace {
std::string describe(ThreadId t, OpKind op, int32_t site) {
  std::string s = "thread " + std::to_string(t);
  if (op == OpKind::Count) return s;
  return s + " " + op_name(op) + (site ? " at site " + std::to_string(site) : std::string());
}
}  // namespace

size_t ReplayStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  const Decision& d = next(Decision::Thread);
  for (size_t i = 0; i < enabled.size(); ++i) {
    const Candidate& c = enabled[i];
    if (c.thread != d.value) continue;
    if (d.op == OpKind::Count || (c.op.kind == d.op && c.op.site == d.site)) return i;
    throw ReplayDivergence("at step " + std::to_string(step + 1) + ": expected " +
                           describe(d.value, d.op, d.site) + ", got " +
                           describe(c.thread, c.op.kind, c.op.site) + " (decision " +
                           std::to_string(pos_) + ")");
  }
  std::ostringstream msg;
  msg << "at step " << step + 1 << ": expected " << describe(d.value, d.op, d.site)
      << ", which is not enabled (enabled:";
  for (const Candidate& c : enabled) msg << ' ' << c.thread;
  msg << "; decision " << pos_ << ")";
  throw ReplayDivergence(msg.str());
}

std::string ReplayStrategy::unfinished() const {
  if (finished()) return "";
  return "at the end: the run ended after " + std::to_string(pos_) + " of the schedule's " +
         std::to_string(log_.decisions.size()) + " decisions";
}

size_t ReplayStrategy::choose_aux(AuxChoice, size_t n) {
  const Decision& d = next(Decision::Aux);
  if (d.value >= n) {
    throw ReplayDivergence("at decision " + std::to_string(pos_) + ": the schedule wakes waiter " +
                           std::to_string(d.value) + " of " + std::to_string(n));
  }
  return d.value;
}

}  // namespace jsched::sched
