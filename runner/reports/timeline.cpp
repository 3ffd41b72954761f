#include "runner/reports/timeline.h"

#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "classfile/class_file.h"
#include "runner/batch/class_path.h"
#include "runner/reports/xml_text.h"

namespace jsched::runner {

namespace {

// "Class.method:line" for a bytecode index, from the class's line table (or "@bci").
class LineFinder {
 public:
  explicit LineFinder(std::string classpath) : classpath_(std::move(classpath)) {}
  std::string where(const std::string& cls, const std::string& method, const std::string& desc,
                    uint32_t bci) {
    std::string simple = cls.substr(cls.find_last_of('/') + 1);
    std::string name = simple + "." + method;
    auto it = classes_.find(cls);
    if (it == classes_.end()) it = classes_.emplace(cls, line_tables(cls)).first;
    int line = -1;
    auto m = it->second.find(method + desc);
    if (m != it->second.end()) {
      uint32_t best = 0;
      for (const cf::LineEntry& e : m->second) {
        if (e.start <= bci && e.start >= best) {
          best = e.start;
          line = e.line;
        }
      }
    }
    return name + (line >= 0 ? ":" + std::to_string(line) : "@" + std::to_string(bci));
  }

 private:
  using LineTables = std::map<std::string, std::vector<cf::LineEntry>>;  // by name + descriptor

  // Each method's line table, read once per class (none when the class cannot be read).
  LineTables line_tables(const std::string& cls) const {
    LineTables out;
    try {
      std::optional<std::vector<uint8_t>> bytes = read_from_class_path(classpath_, cls + ".class");
      if (!bytes) return out;
      cf::ClassFile c = cf::ClassFile::parse(cf::Bytes(bytes->data(), bytes->size()));
      for (cf::Member& m : c.methods) {
        if (m.code_attr < 0) continue;
        if (cf::CodeAttr* lines = c.decode_code(m).find(cf::CodeAttr::LineNumbers))
          out[std::string(c.member_name(m)).append(c.member_desc(m))].assign(lines->lines.begin(),
                                                                             lines->lines.end());
      }
    } catch (const std::exception&) {
    }
    return out;
  }

  std::string classpath_;
  std::map<std::string, LineTables> classes_;
};

// Steps that can race: accesses, lock acquisitions, java.util.concurrent calls, waits and
// notifies (not the releases and bare continues around them).
bool racing_op(const std::string& op) {
  return op == "read" || op == "write" || op == "enter" || op == "reacquire" || op == "notify" ||
         op == "notifyAll" || op == "wait" || op == "sync" || op == "park";
}

bool touches_for_write(const std::string& op) {
  return racing_op(op) && op != "read";
}

bool is_virtual(const Trace& t, size_t thread) {
  return thread < t.virtual_threads.size() && t.virtual_threads[thread];
}

// A deadlock on monitors: "thread X waits for monitor M held by thread Y" in its detail gives
// an arrow from the step where Y took M to X's last step.
void add_cycle(Trace& t) {
  if (t.outcome != "deadlock") return;
  auto id_of = [&](const std::string& name) {
    for (size_t i = 0; i < t.threads.size(); ++i)
      if (t.threads[i] == name) return long(i);
    return -1L;
  };
  static const std::regex edge(
      R"(^\s*thread (\S+) waits for monitor ([0-9a-f]+) held by thread (\S+):)");
  for (const std::string& d : t.detail) {
    std::smatch m;
    if (!std::regex_search(d, m, edge)) continue;
    const long waiter = id_of(m[1]), owner = id_of(m[3]);
    const std::string monitor = m[2];
    if (waiter < 0 || owner < 0) continue;
    long took = -1, last = -1;
    for (size_t i = 0; i < t.steps.size(); ++i) {
      const TraceStep& st = t.steps[i];
      if (long(st.thread) == owner && (st.op == "enter" || st.op == "reacquire") &&
          st.object == monitor)
        took = long(i);
      if (long(st.thread) == waiter) last = long(i);
    }
    if (took >= 0 && last >= 0 && took != last)
      t.arrows.push_back({took, last, "thread " + m[1].str() + " then waits for this monitor",
                          "then waits for the monitor taken at step " + std::to_string(took)});
  }
}

}  // namespace

Trace read_trace(const std::string& path, const std::string& classpath) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read trace " + path);
  Trace t;
  LineFinder lines(classpath);
  std::map<int32_t, std::string> sites;
  std::string line;
  size_t n = 0;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(n) + ": " + why);
  };
  if (!std::getline(in, line) || (++n, line != "jsched-trace 1")) fail("not a jsched trace");
  while (std::getline(in, line)) {
    ++n;
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "outcome") {
      s >> t.outcome;
      std::getline(s, t.summary);
      if (!t.summary.empty() && t.summary[0] == ' ') t.summary.erase(0, 1);
    } else if (key == "thread") {
      size_t id;
      std::string name;
      std::string kind;
      if (!(s >> id >> name)) fail("bad thread line");
      if (t.threads.size() <= id) t.threads.resize(id + 1);
      if (t.virtual_threads.size() <= id) t.virtual_threads.resize(id + 1);
      t.threads[id] = name;
      t.virtual_threads[id] = (s >> kind) && kind == "virtual";
    } else if (key == "site") {
      int32_t id;
      uint32_t bci;
      std::string kind, cls, method, desc;
      if (!(s >> id >> kind >> cls >> method >> desc >> bci)) fail("bad site line");
      sites[id] = lines.where(cls, method, desc, bci);
    } else if (key == "step") {
      TraceStep st;
      int32_t site;
      std::string p;
      if (!(s >> st.index >> st.thread >> st.op >> site >> st.object >> p)) fail("bad step line");
      st.preempt = p == "p";
      if (auto it = sites.find(site); it != sites.end()) st.where = it->second;
      t.steps.push_back(st);
    } else if (key == "detail") {
      std::string rest;
      std::getline(s, rest);
      t.detail.push_back(rest.empty() ? rest : rest.substr(1));
    } else if (key == "end") {
      break;
    } else {
      fail("unknown line '" + line.substr(0, 40) + "'");
    }
  }
  for (long j = long(t.steps.size()) - 1; j >= 0 && t.conflict_a < 0; --j) {
    const TraceStep& b = t.steps[size_t(j)];
    if (b.object.find_first_not_of('0') == std::string::npos || !racing_op(b.op)) continue;
    for (long i = j - 1; i >= 0; --i) {
      const TraceStep& a = t.steps[size_t(i)];
      if (a.object != b.object || a.thread == b.thread || !racing_op(a.op)) continue;
      if (!touches_for_write(a.op) && !touches_for_write(b.op)) continue;
      t.conflict_a = i;
      t.conflict_b = j;
      break;
    }
  }
  if (t.conflict_a >= 0)
    t.arrows.push_back({t.conflict_a, t.conflict_b,
                        "conflicts with step " + std::to_string(t.conflict_b),
                        "conflicts with step " + std::to_string(t.conflict_a)});
  add_cycle(t);
  return t;
}

std::string timeline_html(const Trace& t, const std::string& title) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>jsched timeline: "
    << xml_text(title)
    << "</title>\n<style>\n"
       "body{font-family:sans-serif;margin:1.5em;color:#222}"
       "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;"
       "vertical-align:top;font-size:13px}th{background:#eee;position:sticky;top:0}"
       "td.step{color:#888;text-align:right}tr.preempt td.lane.on{border-left:4px solid #d62728;"
       "background:#fde8e8}td.lane.on{background:#eef4fb}.conflict{outline:2px solid #ff7f0e}"
       "details summary{cursor:pointer}pre{white-space:pre-wrap;margin:0}"
       ".legend span{margin-right:1.5em}.badge{color:#d62728;font-weight:bold}"
       "h1{font-size:18px}#arrow{position:absolute;left:0;top:0;pointer-events:none}"
       "</style></head><body>\n";
  o << "<h1>" << xml_text(t.outcome) << ": " << xml_text(t.summary) << "</h1>\n";
  size_t preemptions = 0;
  for (const TraceStep& s : t.steps) preemptions += s.preempt;
  o << "<p class=legend><span>" << t.steps.size() << " steps, " << t.threads.size()
    << " threads</span><span class=badge>" << preemptions
    << " pre-emptions (red: a switch away from a thread that could have gone on)</span>";
  if (!t.arrows.empty())
    o << "<span>orange arrows: " << (t.conflict_a >= 0 ? "the last conflicting pair" : "")
      << (t.conflict_a >= 0 && t.arrows.size() > 1 ? "; " : "")
      << (t.arrows.size() > (t.conflict_a >= 0 ? 1u : 0u)
              ? "the lock cycle (where each monitor was taken -> who waits for it)"
              : "")
      << "</span>";
  o << "</p>\n<table><tr><th>step</th>";
  for (size_t i = 0; i < t.threads.size(); ++i)
    o << "<th class=lane>thread " << xml_text(t.threads[i])
      << (is_virtual(t, i) ? " (virtual)" : "") << "</th>";
  o << "</tr>\n";
  // Runs of one thread's steps without a pre-emption fold into one row (kept whole around the
  // conflicting pair).
  size_t i = 0;
  while (i < t.steps.size()) {
    size_t j = i + 1;
    auto special = [&](size_t k) {
      for (const Trace::Arrow& a : t.arrows)
        if (a.from == long(k) || a.to == long(k)) return true;
      return false;
    };
    while (j < t.steps.size() && t.steps[j].thread == t.steps[i].thread && !t.steps[j].preempt &&
           !special(j) && !special(i))
      ++j;
    const TraceStep& first = t.steps[i];
    o << "<tr id=\"s" << first.index << "\"" << (first.preempt ? " class=preempt" : "")
      << "><td class=step>" << first.index
      << (j - i > 1 ? "&ndash;" + std::to_string(t.steps[j - 1].index) : "") << "</td>";
    for (size_t lane = 0; lane < t.threads.size(); ++lane) {
      if (lane != first.thread) {
        o << "<td class=lane></td>";
        continue;
      }
      o << "<td class=\"lane on" << (special(i) ? " conflict" : "") << "\""
        << (special(i) ? " id=c" + std::to_string(i) : "") << ">";
      if (first.preempt) o << "<span class=badge>pre-empts</span> ";
      auto text = [](const TraceStep& s) {
        return xml_text(s.op + (s.where.empty() ? "" : " " + s.where));
      };
      if (j - i == 1) {
        o << text(first);
        for (const Trace::Arrow& a : t.arrows) {
          if (a.from == long(i))
            o << " <a href=\"#s" << a.to << "\">&rarr; " << xml_text(a.from_label) << "</a>";
          if (a.to == long(i))
            o << " <a href=\"#s" << a.from << "\">&larr; " << xml_text(a.to_label) << "</a>";
        }
      } else {
        o << "<details><summary>" << text(first) << " &hellip; " << text(t.steps[j - 1]) << " ("
          << j - i << " steps)</summary>";
        for (size_t k = i; k < j; ++k)
          o << "<div>" << t.steps[k].index << ": " << text(t.steps[k]) << "</div>";
        o << "</details>";
      }
      o << "</td>";
    }
    o << "</tr>\n";
    i = j;
  }
  o << "</table>\n<h2>" << xml_text(t.outcome) << "</h2>\n<pre>";
  for (const std::string& l : t.detail) o << xml_text(l) << "\n";
  // The arrows drawn over the table, from cell to cell.
  o << "</pre>\n<script>\nvar arrows = [";
  for (size_t k = 0; k < t.arrows.size(); ++k)
    o << (k ? "," : "") << "[" << t.arrows[k].from << "," << t.arrows[k].to << "]";
  o << "];\n"
       "(function () {\n"
       "  var w = document.documentElement.scrollWidth, h = "
       "document.documentElement.scrollHeight;\n"
       "  var lines = '', sx = window.scrollX, sy = window.scrollY;\n"
       "  arrows.forEach(function (p) {\n"
       "    var a = document.getElementById('c' + p[0]), b = document.getElementById('c' + p[1]);\n"
       "    if (!a || !b) return;\n"
       "    var ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();\n"
       "    var down = rb.top >= ra.top;\n"
       "    var x1 = ra.left + ra.width / 2 + sx, y1 = (down ? ra.bottom : ra.top) + sy;\n"
       "    var x2 = rb.left + rb.width / 2 + sx, y2 = (down ? rb.top : rb.bottom) + sy;\n"
       "    lines += '<line x1=\"' + x1 + '\" y1=\"' + y1 + '\" x2=\"' + x2 + '\" y2=\"' + y2 +\n"
       "      '\" stroke=\"#ff7f0e\" stroke-width=\"2\" marker-end=\"url(#head)\"/>';\n"
       "  });\n"
       "  if (lines) {\n"
       "    var box = document.createElement('div');\n"
       "    box.innerHTML = '<svg id=\"arrow\" width=\"' + w + '\" height=\"' + h + '\"><defs>' +\n"
       "      '<marker id=\"head\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" ' +\n"
       "      'orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#ff7f0e\"/></marker></defs>' +\n"
       "      lines + '</svg>';\n"
       "    document.body.appendChild(box.firstChild);\n"
       "  }\n"
       "  document.body.dataset.rendered = 'yes';\n"
       "})();\n"
       "</script>\n</body></html>\n";
  return o.str();
}

std::string timeline_text(const Trace& t) {
  std::ostringstream o;
  o << t.outcome << ": " << t.summary << "\n";
  uint32_t last = UINT32_MAX;
  for (const TraceStep& s : t.steps) {
    // Only where the running thread changes, and the conflicting pair.
    const bool pair = long(s.index) == t.conflict_a || long(s.index) == t.conflict_b;
    if (s.thread == last && !s.preempt && !pair) continue;
    last = s.thread;
    o << "  #" << s.index << "  " << (s.thread < t.threads.size() ? t.threads[s.thread] : "?")
      << (is_virtual(t, s.thread) ? " (virtual)" : "") << "  " << s.op
      << (s.where.empty() ? "" : " " + s.where) << (s.preempt ? "  <- PRE-EMPTION" : "")
      << (pair ? "  <- CONFLICT" : "") << "\n";
  }
  return o.str();
}

}  // namespace jsched::runner
