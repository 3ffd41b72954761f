#include "jvmti-agent/executions/race_report.h"

#include <algorithm>

namespace jsched::agent {

namespace {

std::string dotted(std::string s) {
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

// "pkg.C.m@12": where in the program (stable across JVMs for the same class files).
std::string place(const Site& s) {
  return dotted(*s.cls) + "." + *s.method + "@" + std::to_string(s.bci);
}

std::string what(const Site& s) {
  switch (s.kind) {
    case rw::SiteKind::GetField:
    case rw::SiteKind::PutField:
      return "field " + dotted(*s.owner) + "." + *s.name;
    case rw::SiteKind::GetStatic:
    case rw::SiteKind::PutStatic:
      return "static field " + dotted(*s.owner) + "." + *s.name;
    default:
      return "an array element";
  }
}

}  // namespace

std::vector<RaceText> describe_races(
    const sched::RaceDetector& d, const SiteRegistry& sites,
    const std::function<std::string(sched::ThreadId)>& thread_name) {
  std::vector<RaceText> out;
  for (const sched::Race& r : d.races()) {
    const Site* a = sites.get(r.first.site);
    const Site* b = sites.get(r.second.site);
    if (a == nullptr || b == nullptr) continue;
    const auto access = [&](const sched::RaceAccess& x, const Site& s) {
      return std::string(x.write ? "written" : "read") + " by thread " + thread_name(x.thread) +
             " at " + place(s);
    };
    std::string ka = place(*a) + (r.first.write ? " W" : " R");
    std::string kb = place(*b) + (r.second.write ? " W" : " R");
    if (kb < ka) std::swap(ka, kb);
    out.push_back(RaceText{ka + " / " + kb, what(*b) + ": " + access(r.first, *a) + ", then " +
                                                access(r.second, *b) + ", nothing ordering them"});
  }
  return out;
}

}  // namespace jsched::agent
