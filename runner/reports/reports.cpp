#include "runner/reports/reports.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "runner/batch/results_dir.h"
#include "runner/commands/exit_status.h"
#include "runner/reports/svg_chart.h"
#include "runner/reports/xml_text.h"

namespace jsched::runner {

namespace {

std::string fmt(double v, int digits = 1) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

std::string first_text(const CellStats& c) {
  auto m = c.mean_first();
  if (!m) return "-";
  std::string s = fmt(*m);
  if (c.first_finding.size() > 1) s += " ± " + fmt(*c.stddev_first());
  size_t found = size_t(std::count_if(c.first_finding.begin(), c.first_finding.end(),
                                      [](const auto& f) { return f.has_value(); }));
  // The mean is over the repetitions that found something: say when that is not all.
  if (found < c.first_finding.size()) {
    s += " (" + std::to_string(found) + "/" + std::to_string(c.first_finding.size()) + ")";
  }
  return s;
}

// HaPSet pairs known at the end ("-" when no run reported coverage).
std::string pairs_text(const CellStats& c) {
  return c.hapset_curve.empty() ? "-" : std::to_string(c.hapset_curve.back());
}

// An HTML id for a program's section.
std::string anchor(const std::string& program) {
  std::string id = "p-";
  for (char c : program) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return id;
}

uint64_t count(const CellStats& c, const char* outcome) {
  auto it = c.outcomes.find(outcome);
  return it == c.outcomes.end() ? 0 : it->second;
}

const MinimizedFinding* minimized_of(const ReportInput& in, const RunRecord& r) {
  auto it = in.minimized.find(minimized_key(r));
  return it == in.minimized.end() ? nullptr : &it->second;
}

// "its profile runs found 2 bugs, 1 deadlock"
std::string profile_text(const CellStats& c) {
  std::string s;
  for (const auto& [outcome, n] : c.profile_findings)
    s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + outcome + (n > 1 ? "s" : "");
  return "its profile runs found " + s;
}

std::string minimal_line(const ReportInput& in, const RunRecord& r) {
  const MinimizedFinding* m = minimized_of(in, r);
  return m && m->error.empty() ? "\nminimal replay (" + std::to_string(m->after) +
                                     " pre-emptions): " + m->minimal_replay
                               : "";
}

}  // namespace

bool cell_ok(const CellStats& c, const std::string& e) {
  // Runs that never ran to their end show nothing: they cannot make "nothing found" true.
  if (e == "none" || e.empty()) return !c.found() && c.error_runs() == 0;
  if (c.targeted) return c.hits + c.profile_hits > 0;
  if (e == "bug") return c.with_outcome("bug") > 0;
  if (e == "deadlock") return c.with_outcome("deadlock") > 0;
  return c.found();
}

int batch_status(const std::vector<RunRecord>& records) {
  bool errors = false;
  for (const RunRecord& r : records) {
    if (r.found()) return kExitFound;
    errors = errors || r.errored();
  }
  return errors ? kExitErrors : kExitClean;
}

int bench_status(const std::vector<RunRecord>& records, const Expectations& expect) {
  bool errors = false, not_met = false;
  for (const CellStats& c : aggregate(records)) {
    auto it = expect.find(c.program);
    const std::string e = it == expect.end() ? "" : it->second;
    errors = errors || c.error_runs() > 0;
    // A cell that errored and found nothing is "not met" because of its errors: status 3.
    if (!cell_ok(c, e) && !c.errored_only()) not_met = true;
  }
  return not_met ? kExitFound : errors ? kExitErrors : kExitClean;
}

// "(met)", "(NOT MET)", or why not when runs errored.
std::string verdict(const CellStats& c, const std::string& e) {
  if (e.empty()) return "";
  if (cell_ok(c, e)) return e + " (met)";
  if (c.errored_only())
    return e + " (NOT MET: " + std::to_string(c.error_runs()) +
           (count(c, "timeout") ? " runs errored or ran out of time)" : " runs errored)");
  return e + " (NOT MET)";
}

// Races on plain fields the runs saw (docs/agent.md, "Races"), each once per program: how many
// runs saw it, and whether one of them found something. A race no failing run saw is a warning:
// the program may tolerate it (a benign race, a racy statistic), and no run showed harm.
std::string races_text(const std::vector<RunRecord>& records) {
  struct Seen {
    std::string text;
    uint64_t runs = 0, failed = 0;
    const RunRecord* failing = nullptr;  // the first run that saw it and found something
  };
  std::map<std::pair<std::string, std::string>, Seen> races;  // (program, key)
  for (const RunRecord& r : records) {
    for (const json::Value& race : r.extra["races"].items()) {
      Seen& s = races[{r.program, race.str("key")}];
      if (s.text.empty()) s.text = race.str("text");
      ++s.runs;
      if (r.found()) {
        ++s.failed;
        if (!s.failing || r.index < s.failing->index) s.failing = &r;
      }
    }
  }
  if (races.empty()) return "";
  std::ostringstream o;
  o << "\nraces on plain fields (two threads' accesses, one a write, nothing ordering them):\n";
  size_t shown = 0;
  for (const auto& [key, s] : races) {
    if (++shown > 20) {
      o << "  ... " << races.size() - 20 << " more in runs.jsonl (\"races\")\n";
      break;
    }
    o << "  " << key.first << ": " << s.text << "\n    seen in " << s.runs << " run"
      << (s.runs == 1 ? "" : "s");
    if (s.failed)
      o << ", " << s.failed << " of which found something (seed " << s.failing->seed << ")\n";
    else
      o << ", none of which failed: a warning, not a finding\n";
  }
  return o.str();
}

std::string summary_text(const ReportInput& in, const std::vector<CellStats>& cells) {
  std::ostringstream o;
  size_t w = 7;
  for (const CellStats& c : cells) w = std::max(w, c.program.size());
  char row[512];
  std::snprintf(row, sizeof row, "%-*s %-8s %6s %5s %5s %5s %5s %5s %5s %5s %13s %7s %6s  %s\n",
                int(w), "program", "strategy", "runs", "ok", "bug", "dlock", "hang", "live", "slow",
                "error", "first finding", "orders", "pairs", "expected");
  o << row;
  for (const CellStats& c : cells) {
    auto ex = in.expect.find(c.program);
    std::string e = ex == in.expect.end() ? "" : ex->second;
    std::string v = verdict(c, e);
    std::snprintf(row, sizeof row,
                  "%-*s %-8s %6llu %5llu %5llu %5llu %5llu %5llu %5llu %5llu %13s %7zu %6s  %s\n",
                  int(w), c.program.c_str(), c.strategy.c_str(), (unsigned long long)c.runs,
                  (unsigned long long)count(c, "ok"), (unsigned long long)count(c, "bug"),
                  (unsigned long long)count(c, "deadlock"), (unsigned long long)count(c, "hang"),
                  (unsigned long long)count(c, "livelock"), (unsigned long long)count(c, "timeout"),
                  (unsigned long long)(c.error_runs() - count(c, "timeout")), first_text(c).c_str(),
                  c.partial_orders.size(), pairs_text(c).c_str(), v.c_str());
    o << row;
  }
  for (const CellStats& c : cells) {
    if (c.profile_found() == 0) continue;
    o << c.program << " / " << c.strategy << ": " << profile_text(c)
      << " before its runs (not in its counts above)\n";
  }
  for (const CellStats& c : cells) {
    if (c.partial_orders.empty() || cells.size() > 1) continue;
    o << "\npartial orders (" << c.partial_orders.size()
      << " distinct), runs each, most frequent first:";
    std::vector<uint64_t> f = c.order_frequencies();
    for (size_t i = 0; i < f.size() && i < 30; ++i) o << " " << f[i];
    if (f.size() > 30) o << " ...";
    o << "\n";
  }
  bool any = false;
  for (const CellStats& c : cells) {
    for (const auto& [key, r] : c.findings) {
      if (!any) o << "\nfindings (one run of each, with the command that replays it):\n";
      any = true;
      o << "  " << c.program << " / " << c.strategy << (r->profile_run ? " (in a profile run)" : "")
        << ": " << r->outcome << ": " << first_line(r->detail) << "\n    seed " << r->seed
        << "; replay: " << r->replay << "\n";
      if (const MinimizedFinding* m = minimized_of(in, *r)) {
        if (m->error.empty()) {
          o << "    minimal schedule: " << m->before << " -> " << m->after << " pre-emptions";
          if (!m->cut_off.empty()) o << " (search cut short: " << m->cut_off << ")";
          if (!m->timeline.empty()) o << ", timeline " << in.dir << "/" << m->timeline;
          o << "; replay: " << m->minimal_replay << "\n";
        } else {
          o << "    not minimized: " << m->error << "\n";
        }
      }
    }
  }
  o << races_text(in.records);
  // Runs in which a controlled thread blocked where jsched could not see: their schedules may
  // not repeat (docs/agent.md, "What jsched controls").
  size_t hidden_runs = 0;
  const RunRecord* first_hidden = nullptr;
  for (const RunRecord& r : in.records) {
    if (!r.extra["hidden_blocks"].is(json::Value::Number)) continue;
    ++hidden_runs;
    if (!first_hidden || r.index < first_hidden->index) first_hidden = &r;
  }
  if (first_hidden) {
    o << "\nhidden blocks: in " << hidden_runs << " of " << in.records.size()
      << " runs a thread blocked outside jsched's view (such runs may not replay exactly); the "
         "first, "
      << first_hidden->program << " seed " << first_hidden->seed << ":\n  "
      << first_line(first_hidden->extra.str("hidden_block")) << "\n";
  }
  // Runs that did not run the program to its end, once per distinct reason.
  std::set<std::string> reasons;
  for (const RunRecord& r : in.records) {
    if (!r.errored()) continue;
    if (!reasons.insert(r.program + '\n' + r.strategy + '\n' + first_line(r.detail)).second)
      continue;
    if (reasons.size() == 1)
      o << "\nerrors (runs that did not run the program to its end; the first of each kind):\n";
    if (reasons.size() > 20) {
      o << "  ...\n";
      break;
    }
    o << "  " << r.program << " / " << r.strategy << " (seed " << r.seed
      << "): " << first_line(r.detail) << (r.log.empty() ? "" : "\n    output: " + r.log) << "\n";
  }
  return o.str();
}

std::string summary_csv(const std::vector<CellStats>& cells) {
  std::ostringstream o;
  o << "program,strategy,runs,ok,bug,deadlock,hang,livelock,timeout,error,found,first_finding_mean,"
       "first_finding_sd,"
       "repetitions,repetitions_found,partial_orders,hapset_pairs,profile_findings,mean_run_ms\n";
  for (const CellStats& c : cells) {
    size_t reps_found = size_t(std::count_if(c.first_finding.begin(), c.first_finding.end(),
                                             [](const auto& f) { return f.has_value(); }));
    o << c.program << "," << c.strategy << "," << c.runs << "," << count(c, "ok") << ","
      << count(c, "bug") << "," << count(c, "deadlock") << "," << count(c, "hang") << ","
      << count(c, "livelock") << "," << count(c, "timeout") << ","
      << c.error_runs() - count(c, "timeout") << "," << (c.found() ? "yes" : "no") << ","
      << (c.mean_first() ? fmt(*c.mean_first(), 2) : "") << ","
      << (c.stddev_first() ? fmt(*c.stddev_first(), 2) : "") << "," << c.first_finding.size() << ","
      << reps_found << "," << c.partial_orders.size() << ","
      << (c.hapset_curve.empty() ? "" : std::to_string(c.hapset_curve.back())) << ","
      << c.profile_found() << "," << fmt(c.runs ? c.total_ms / double(c.runs) : 0, 1) << "\n";
  }
  return o.str();
}

std::string junit_xml(const ReportInput& in, const std::vector<CellStats>& cells) {
  std::ostringstream body;
  int failures = 0, errors = 0;
  double total = 0;
  // Each cell's first run that errored: its detail says why.
  std::map<std::pair<std::string, std::string>, const RunRecord*> first_error;
  for (const RunRecord& r : in.records) {
    if (!r.errored()) continue;
    const RunRecord*& first = first_error[{r.program, r.strategy}];
    if (!first || r.index < first->index) first = &r;
  }
  for (const CellStats& c : cells) {
    auto ex = in.expect.find(c.program);
    std::string e = ex == in.expect.end() ? "" : ex->second;
    total += c.total_ms / 1000;
    body << "  <testcase classname=\"jsched." << xml_text(c.program) << "\" name=\""
         << xml_text(c.strategy) << "\" time=\"" << fmt(c.total_ms / 1000, 3) << "\">\n";
    if (c.error_runs() > 0) {
      // The first error says why (a missing class, System.exit, a crash, a signal).
      ++errors;
      auto it = first_error.find({c.program, c.strategy});
      const RunRecord* first = it == first_error.end() ? nullptr : it->second;
      std::string msg = std::to_string(c.error_runs()) + " of " + std::to_string(c.runs) +
                        " runs did not run the program to its end: " +
                        (first ? first_line(first->detail) : std::string());
      body << "    <error message=\"" << xml_text(msg) << "\">"
           << xml_text(first ? first->detail + "\nreplay: " + first->replay : msg) << "</error>\n";
    }
    if (!cell_ok(c, e) && !c.errored_only()) {
      ++failures;
      std::string msg;
      if (e.empty() || e == "none") {
        const RunRecord* r = c.findings.begin()->second;
        msg = r->outcome + " in " + std::to_string(c.found_runs()) + " of " +
              std::to_string(c.runs) + " runs" +
              (c.profile_found() ? " (and " + profile_text(c) + ")" : "") + ": " +
              first_line(r->detail) + " (seed " + std::to_string(r->seed) + ")";
        body << "    <failure message=\"" << xml_text(msg) << "\">"
             << xml_text(r->detail + "\nreplay: " + r->replay + minimal_line(in, *r))
             << "</failure>\n";
      } else {
        msg = "expected " + e + ", none found in " + std::to_string(c.runs) + " runs";
        body << "    <failure message=\"" << xml_text(msg) << "\"/>\n";
      }
    }
    body << "  </testcase>\n";
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" << xml_text(in.title)
    << "\" tests=\"" << cells.size() << "\" failures=\"" << failures << "\" errors=\"" << errors
    << "\" time=\"" << fmt(total, 3) << "\">\n"
    << body.str() << "</testsuite>\n";
  return o.str();
}

std::string html_report(const ReportInput& in, const std::vector<CellStats>& cells) {
  std::vector<std::string> programs, strategies;
  for (const CellStats& c : cells) {
    if (std::find(programs.begin(), programs.end(), c.program) == programs.end())
      programs.push_back(c.program);
    if (std::find(strategies.begin(), strategies.end(), c.strategy) == strategies.end()) {
      strategies.push_back(c.strategy);
    }
  }
  auto cell = [&](const std::string& p, const std::string& s) -> const CellStats* {
    for (const CellStats& c : cells) {
      if (c.program == p && c.strategy == s) return &c;
    }
    return nullptr;
  };
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>jsched: " << xml_text(in.title)
    << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
       "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
       "text-align:right}th{background:#eee}td.l,th.l{text-align:left}\n"
       ".bad{background:#fdd}.good{background:#dfd}.charts{display:flex;flex-wrap:wrap;gap:1em}\n"
       "code{font-size:85%;word-break:break-all}h2{margin-top:1.6em}td{vertical-align:top}\n"
       "pre{white-space:pre-wrap;word-break:break-all;max-width:60em;margin:0}\n</style></"
       "head><body>\n";
  o << "<h1>jsched: " << xml_text(in.title) << "</h1>\n<p>master seed " << in.master_seed << ", "
    << in.records.size() << " executions.</p>\n";
  // Contents: the sections, and for a suite of many programs each program's chart.
  o << "<p>Contents: <a href=\"#summary\">summary</a> · <a href=\"#first\">runs to first "
       "finding</a> · <a href=\"#orders\">partial orders</a> · <a href=\"#findings\">findings</a>";
  if (programs.size() > 8) {
    o << "<br>Programs:";
    for (const std::string& p : programs)
      o << " <a href=\"#" << anchor(p) << "\">" << xml_text(p) << "</a>";
  }
  o << "</p>\n";
  o << "<h2 id=\"summary\">Summary</h2>\n<table><tr><th class=l>program</th><th "
       "class=l>strategy</th><th>runs</th>"
       "<th>bug</th><th>deadlock</th><th>hang</th><th>livelock</th><th>error</th><th>runs to first "
       "finding</th>"
       "<th>partial orders</th><th>HaPSet pairs</th><th class=l>expected</th></tr>\n";
  for (const CellStats& c : cells) {
    auto ex = in.expect.find(c.program);
    std::string e = ex == in.expect.end() ? "" : ex->second;
    o << "<tr class=\""
      << (e.empty()       ? ""
          : cell_ok(c, e) ? "good"
                          : "bad")
      << "\"><td class=l><a href=\"#" << anchor(c.program) << "\">" << xml_text(c.program)
      << "</a></td><td class=l>" << xml_text(c.strategy) << "</td><td>" << c.runs << "</td><td>"
      << count(c, "bug") << "</td><td>" << count(c, "deadlock") << "</td><td>" << count(c, "hang")
      << "</td><td>" << count(c, "livelock") << "</td><td>" << c.error_runs() << "</td><td>"
      << xml_text(first_text(c)) << "</td><td>" << c.partial_orders.size() << "</td><td>"
      << pairs_text(c) << "</td><td class=l>" << xml_text(e) << "</td></tr>\n";
  }
  o << "</table>\n";
  for (const CellStats& c : cells) {
    if (c.profile_found() > 0)
      o << "<p>"
        << xml_text(c.program + " / " + c.strategy + ": " + profile_text(c)) +
               " before its runs (not in its counts above).</p>\n";
  }

  // Runs to first finding, per program, one bar per strategy (mean over repetitions).
  o << "<h2 id=\"first\">Runs to first finding</h2>\n<div class=charts>\n";
  for (const std::string& p : programs) {
    std::vector<Bar> bars;
    for (const std::string& s : strategies) {
      const CellStats* c = cell(p, s);
      if (!c) continue;
      auto ex = in.expect.find(p);
      Bar b{s, 0, 0, false, ex != in.expect.end() && ex->second == "none"};
      if (auto m = c->mean_first()) b = Bar{s, *m, *c->stddev_first(), true};
      bars.push_back(b);
    }
    o << "<div id=\"" << anchor(p) << "\">" << bar_chart(p, "runs to first finding", bars)
      << "</div>";
  }
  o << "</div>\n";

  // The distribution of partial orders (Sen's RAPOS paper, Fig. 6; docs/references.md): how often
  // each distinct partial order was sampled, most frequent first, one line per strategy.
  o << "<h2 id=\"orders\">Distribution of partial orders</h2>\n<p>Each point is one distinct "
       "partial order; its "
       "height is how many runs sampled it (most frequent first). A flatter, longer line means "
       "more uniform sampling.</p>\n<div class=charts>\n";
  for (const std::string& p : programs) {
    std::vector<Series> series;
    for (const std::string& s : strategies) {
      const CellStats* c = cell(p, s);
      if (!c || c->partial_orders.empty()) continue;
      Series se{s, {}};
      std::vector<uint64_t> f = c->order_frequencies();
      for (size_t i = 0; i < f.size(); ++i) se.points.push_back({double(i + 1), double(f[i])});
      series.push_back(se);
    }
    if (!series.empty()) o << line_chart(p, "partial order (by frequency)", "runs", series, true);
  }
  o << "</div>\n";

  // Coverage curves, for strategies whose runs report cumulative coverage.
  std::ostringstream cov;
  for (const std::string& p : programs) {
    std::vector<Series> series;
    for (const std::string& s : strategies) {
      std::vector<const RunRecord*> rs;
      for (const RunRecord& r : in.records) {
        if (r.program == p && r.strategy == s && r.extra["coverage"].is(json::Value::Number))
          rs.push_back(&r);
      }
      if (rs.empty()) continue;
      std::sort(rs.begin(), rs.end(), [](auto* a, auto* b) { return a->index < b->index; });
      Series se{s, {}};
      for (size_t i = 0; i < rs.size(); ++i)
        se.points.push_back({double(i + 1), rs[i]->extra["coverage"].as_number()});
      series.push_back(se);
    }
    if (!series.empty())
      cov << line_chart(p, "executions", "coverage (%)", series, false, /*counts=*/false);
  }
  if (!cov.str().empty()) o << "<h2>Coverage</h2>\n<div class=charts>\n" << cov.str() << "</div>\n";

  // HaPSet saturation (Wang et al.'s HaPSet paper, docs/references.md): ordering pairs known after
  // each execution (those of passing executions, as learning counts them), one line per strategy.
  std::ostringstream sat;
  for (const std::string& p : programs) {
    std::vector<Series> series;
    for (const std::string& s : strategies) {
      const CellStats* c = cell(p, s);
      if (!c || c->hapset_curve.empty()) continue;
      Series se{s, {}};
      // At most ~200 points per line: every execution on short curves, a sample on long ones
      // (always with the last).
      size_t n = c->hapset_curve.size(), step = std::max<size_t>(1, n / 200);
      for (size_t i = 0; i < n; i += step)
        se.points.push_back({double(i + 1), double(c->hapset_curve[i])});
      if ((n - 1) % step) se.points.push_back({double(n), double(c->hapset_curve.back())});
      series.push_back(se);
    }
    if (!series.empty()) sat << line_chart(p, "executions", "HaPSet pairs known", series, false);
  }
  if (!sat.str().empty()) {
    o << "<h2>HaPSet coverage</h2>\n<p>Ordering pairs of conflicting statements (Wang et al.) "
         "known after each execution, from the executions without a finding. A curve that "
         "flattens has saturated: more executions of that kind show little new.</p>\n"
         "<div class=charts>\n"
      << sat.str() << "</div>\n";
  }

  o << "<h2 id=\"findings\">Findings</h2>\n";
  bool any = false;
  for (const CellStats& c : cells) {
    for (const auto& [key, r] : c.findings) {
      if (!any)
        o << "<table><tr><th class=l>program</th><th class=l>strategy</th><th class=l>outcome</th>"
             "<th class=l>detail</th><th class=l>replay</th><th class=l>minimal schedule</th>"
             "</tr>\n";
      any = true;
      o << "<tr><td class=l>" << xml_text(c.program) << "</td><td class=l>" << xml_text(c.strategy)
        << (r->profile_run ? " (in a profile run)" : "") << "</td><td class=l>"
        << xml_text(r->outcome) << "</td><td class=l><pre>" << xml_text(r->detail.substr(0, 1500))
        << "</pre>" << (r->log.empty() ? "" : "<a href=\"" + xml_text(r->log) + "\">output</a>")
        << "</td><td class=l><code>" << xml_text(r->replay) << "</code></td><td class=l>";
      if (const MinimizedFinding* m = minimized_of(in, *r); m && m->error.empty()) {
        o << m->before << " &rarr; " << m->after << " pre-emptions";
        if (!m->cut_off.empty()) o << " (search cut short: " << xml_text(m->cut_off) << ")";
        if (!m->timeline.empty())
          o << " (<a href=\"" << xml_text(m->timeline) << "\">timeline</a>)";
        o << "<br><code>" << xml_text(m->minimal_replay) << "</code>";
      } else if (m) {
        o << "not minimized: " << xml_text(m->error);
      }
      o << "</td></tr>\n";
    }
  }
  o << (any ? "</table>\n" : "<p>None.</p>\n") << "</body></html>\n";
  return o.str();
}

std::string write_reports(const std::string& dir, const ReportInput& in) {
  std::vector<CellStats> cells = aggregate(in.records);
  write_file(dir + "/summary.csv", summary_csv(cells));
  write_file(dir + "/junit.xml", junit_xml(in, cells));
  write_file(dir + "/report.html", html_report(in, cells));
  return summary_text(in, cells);
}

}  // namespace jsched::runner
