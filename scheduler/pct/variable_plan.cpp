#include "scheduler/pct/variable_plan.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "scheduler/core/fingerprint.h"

namespace jsched::sched {

namespace {

std::string dotted(std::string s) {
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

void write_flags(std::ostream& out, const PlanVariable& v) {
  if (v.shared) out << "shared\n";
  if (v.checked) out << "checked\n";
  if (v.raced) out << "raced\n";
}

}  // namespace

std::string PlanVariable::name() const {
  if (kind == Static) return "static " + dotted(cls) + "." + member;
  return "new " + dotted(cls) + "." + member + method_desc + "@" + std::to_string(bci) + " " +
         dotted(type);
}

uint64_t PlanVariable::id() const {
  return hash_string(name()) | 1;
}

void VariablePlan::merge(const VariablePlan& other) {
  sharing = runs == 0 ? other.sharing : sharing && other.sharing;
  runs += other.runs;
  steps = std::max(steps, other.steps);
  threads = std::max(threads, other.threads);
  if (thread_events.size() < other.thread_events.size())
    thread_events.resize(other.thread_events.size(), 0);
  for (size_t i = 0; i < other.thread_events.size(); ++i)
    thread_events[i] = std::max(thread_events[i], other.thread_events[i]);
  std::map<uint64_t, size_t> at;
  for (size_t i = 0; i < variables.size(); ++i) at[variables[i].id()] = i;
  for (const PlanVariable& v : other.variables) {
    auto it = at.find(v.id());
    if (it == at.end()) {
      at[v.id()] = variables.size();
      variables.push_back(v);
    } else {
      PlanVariable& mine = variables[it->second];
      mine.max_accesses = std::max(mine.max_accesses, v.max_accesses);
      mine.shared = mine.shared || v.shared;
      mine.checked = mine.checked || v.checked;
      mine.raced = mine.raced || v.raced;
      if (mine.supers.empty()) mine.supers = v.supers;
      std::vector<std::string> all;
      std::set_union(mine.sites.begin(), mine.sites.end(), v.sites.begin(), v.sites.end(),
                     std::back_inserter(all));
      mine.sites = std::move(all);
    }
  }
}

bool VariablePlan::exclusive_type(size_t i) const {
  const PlanVariable& v = variables.at(i);
  if (v.kind != PlanVariable::New) return false;
  for (size_t j = 0; j < variables.size(); ++j) {
    if (j != i && variables[j].kind == PlanVariable::New && variables[j].type == v.type)
      return false;
  }
  return true;
}

long VariablePlan::find(uint64_t id) const {
  for (size_t i = 0; i < variables.size(); ++i) {
    if (variables[i].id() == id) return long(i);
  }
  return -1;
}

void VariablePlan::write(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw PlanError("cannot write plan " + path);
  out << "jsched-plan 1\nruns " << runs << "\nsteps " << steps << "\nthreads " << threads << "\n";
  if (!thread_events.empty()) {
    out << "thread-events " << thread_events.size();
    for (uint64_t e : thread_events) out << " " << e;
    out << "\n";
  }
  if (sharing) out << "sharing\n";
  for (const PlanVariable& v : variables) {
    if (v.kind == PlanVariable::Static) {
      out << "static " << v.max_accesses << " " << v.cls << " " << v.member << "\n";
      write_flags(out, v);
      continue;
    }
    std::string supers;
    for (const std::string& s : v.supers) supers += (supers.empty() ? "" : ",") + s;
    out << "new " << v.max_accesses << " " << v.cls << " " << v.member << " " << v.method_desc
        << " " << v.bci << " " << v.type << " " << (supers.empty() ? "-" : supers) << "\n";
    for (const std::string& s : v.sites) out << "at " << s << "\n";
    write_flags(out, v);
  }
  out << "end\n";
  if (!out) throw PlanError("error writing plan " + path);
}

VariablePlan VariablePlan::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PlanError("cannot read plan " + path);
  VariablePlan plan;
  std::string line;
  size_t n = 0;
  auto fail = [&](const std::string& why) {
    throw PlanError(path + ":" + std::to_string(n) + ": " + why);
  };
  auto number = [&](const std::string& tok, const char* what) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (tok.empty() || ec != std::errc() || p != tok.data() + tok.size()) {
      fail(std::string("bad ") + what + " '" + tok + "'");
    }
    return v;
  };
  if (!std::getline(in, line) || (++n, line != "jsched-plan 1"))
    fail("not a jsched plan (expected 'jsched-plan 1')");
  bool ended = false;
  while (std::getline(in, line)) {
    ++n;
    std::vector<std::string> t = tokens(line);
    if (t.empty()) continue;
    if (ended) fail("text after 'end'");
    const std::string& key = t[0];
    if (key == "end" && t.size() == 1) {
      ended = true;
    } else if ((key == "runs" || key == "steps" || key == "threads") && t.size() == 2) {
      uint64_t v = number(t[1], key.c_str());
      if (key == "runs") plan.runs = uint32_t(v);
      if (key == "steps") plan.steps = v;
      if (key == "threads") plan.threads = uint32_t(v);
    } else if (key == "thread-events" && t.size() >= 2) {
      uint64_t count = number(t[1], "thread count");
      if (t.size() != count + 2)
        fail("thread-events: " + t[1] + " counts, " + std::to_string(t.size() - 2) + " given");
      for (size_t i = 2; i < t.size(); ++i)
        plan.thread_events.push_back(number(t[i], "event count"));
    } else if (key == "sharing" && t.size() == 1) {
      plan.sharing = true;
    } else if ((key == "shared" || key == "checked" || key == "raced") && t.size() == 1) {
      if (plan.variables.empty()) fail("'" + key + "' line before any 'static' or 'new' line");
      PlanVariable& v = plan.variables.back();
      (key == "shared" ? v.shared : key == "checked" ? v.checked : v.raced) = true;
    } else if (key == "static" && t.size() == 4) {
      PlanVariable v;
      v.kind = PlanVariable::Static;
      v.max_accesses = number(t[1], "access count");
      v.cls = t[2];
      v.member = t[3];
      plan.variables.push_back(v);
    } else if (key == "new" && t.size() == 8) {
      PlanVariable v;
      v.kind = PlanVariable::New;
      v.max_accesses = number(t[1], "access count");
      v.cls = t[2];
      v.member = t[3];
      v.method_desc = t[4];
      v.bci = uint32_t(number(t[5], "bytecode index"));
      v.type = t[6];
      if (v.method_desc.empty() || v.method_desc[0] != '(')
        fail("bad method descriptor '" + v.method_desc + "'");
      if (t[7] != "-") {
        std::istringstream s(t[7]);
        for (std::string c; std::getline(s, c, ',');) {
          if (c.empty()) fail("empty superclass name");
          v.supers.push_back(c);
        }
      }
      plan.variables.push_back(v);
    } else if (key == "at" && t.size() == 5) {
      if (plan.variables.empty() || plan.variables.back().kind != PlanVariable::New)
        fail("'at' line not after a 'new' line");
      number(t[4], "bytecode index");
      std::vector<std::string>& sites = plan.variables.back().sites;
      std::string site = t[1] + " " + t[2] + " " + t[3] + " " + t[4];
      sites.insert(std::upper_bound(sites.begin(), sites.end(), site), site);
    } else if (key == "static" || key == "new" || key == "at") {
      fail("'" + key + "' line with " + std::to_string(t.size() - 1) + " fields, expected " +
           (key == "static" ? "3"
            : key == "at"   ? "4"
                            : "7"));
    } else {
      fail("unknown line '" + line + "'");
    }
  }
  if (!ended) fail("the plan ends without 'end' (truncated?)");
  return plan;
}

}  // namespace jsched::sched
