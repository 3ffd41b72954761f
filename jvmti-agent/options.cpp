#include "jvmti-agent/options.h"

#include <charconv>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "scheduler/strategy_registry.h"

namespace jsched::agent {

namespace {
// The strategies the agent serves in ways of its own (options.h, Strategy).
constexpr std::pair<std::string_view, Strategy> kWired[] = {
    {"pct", Strategy::Pct},       {"pctvb", Strategy::Pctvb},   {"tsca", Strategy::Tsca},
    {"hapset", Strategy::Hapset}, {"replay", Strategy::Replay}, {"follow", Strategy::Follow},
    {"none", Strategy::None}};
}  // namespace

const char* strategy_name(Strategy s) {
  for (const auto& [name, wired] : kWired) {
    if (wired == s) return name.data();  // literals: NUL-terminated
  }
  return "registered";
}

std::string strategy_name(const Options& o) {
  return o.strategy == Strategy::Registered ? o.registered : strategy_name(o.strategy);
}

bool Options::is(std::string_view name) const {
  return strategy_name(*this) == name;
}

bool Options::runs_several_per_jvm() const {
  return sched::runs_several_per_jvm(strategy_name(*this));
}

double Options::option(const std::string& key, double dflt) const {
  auto it = strategy_options.find(key);
  return it == strategy_options.end() ? dflt : it->second;
}

bool Options::controls() const {
  const sched::StrategyEntry* e = sched::find_strategy(strategy_name(*this));
  return !e || e->controls;
}

rw::Accesses Options::effective_accesses() const {
  if (accesses) return *accesses;
  const sched::StrategyEntry* e = sched::find_strategy(strategy_name(*this));
  if (e && e->all_accesses) return rw::Accesses::All;
  return e && e->shared_accesses ? rw::Accesses::Shared : rw::Accesses::Volatile;
}

namespace {

[[noreturn]] void bad(const std::string& msg) {
  throw std::invalid_argument(msg);
}

// A value quoted in an error line, cut so that the line stays short and one line.
std::string clip(const std::string& v) {
  std::string out = v.size() > 60 ? v.substr(0, 60) + "..." : v;
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

uint64_t parse_u64(const std::string& key, const std::string& v, uint64_t min, uint64_t max) {
  uint64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size()) {
    bad(key + ": '" + clip(v) + "' is not a non-negative integer");
  }
  if (out < min || out > max) {
    bad(key + ": " + clip(v) + " is out of range (" + std::to_string(min) + " to " +
        std::to_string(max) + ")");
  }
  return out;
}

// A number from `min` to `max`; otherwise "KEY: 'V' is not WHAT".
double parse_real(const std::string& key, const std::string& v, double min, double max,
                  const std::string& what) {
  double out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size() || !(out >= min && out <= max))
    bad(key + ": '" + clip(v) + "' is not " + what);
  return out;
}

double parse_probability(const std::string& key, const std::string& v) {
  return parse_real(key, v, 0, 1, "a probability (a number from 0 to 1)");
}

bool parse_on_off(const std::string& key, const std::string& v) {
  if (v != "on" && v != "off") bad(key + ": '" + clip(v) + "' is not on or off");
  return v == "on";
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

std::vector<std::string> prefixes(const std::string& key, const std::string& v) {
  std::vector<std::string> out;
  for (const std::string& p : split(v, ':')) {
    if (p.empty()) bad(key + ": empty class-name prefix in '" + clip(v) + "'");
    for (char c : p) {
      if (c == '/' || c == ' ' || c == ';' || c == '[') {
        bad(key + ": '" + clip(p) + "' is not a class-name prefix (use dots, e.g. com.example.)");
      }
    }
    out.push_back(p);
  }
  return out;
}

// The rows whose options a run of `o` takes: its strategy's, and hapset's base's.
std::vector<const sched::StrategyEntry*> option_rows(const Options& o) {
  std::vector<const sched::StrategyEntry*> rows;
  if (const sched::StrategyEntry* e = sched::find_strategy(strategy_name(o))) rows.push_back(e);
  if (o.strategy == Strategy::Hapset) rows.push_back(sched::find_strategy(o.base));
  return rows;
}

// The shortest text that reads back the same: "0.8", "1" (std::to_string says "1.000000").
std::string number_text(double v) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, v);
  return ec == std::errc() ? std::string(text, end) : std::to_string(v);
}

// Whether some registered strategy has an option named `key`.
bool registered_option(const std::string& key) {
  for (const sched::StrategyEntry& e : sched::registered_strategies()) {
    for (const sched::StrategyOption& opt : e.options) {
      if (opt.key == key) return true;
    }
  }
  return false;
}

// The agent's own options, whatever the strategy.
constexpr std::string_view kAgentOptions[] = {
    "strategy", "seed",     "iterations", "explore", "statics",     "tests",          "minimize",
    "plan",     "profile",  "record",     "replay",  "follow",      "trace",          "report",
    "include",  "exclude",  "accesses",   "timeout", "verbose",     "hapset",         "frames",
    "base",     "spurious", "timeouts",   "budget",  "test-budget", "on-unsupported", "bug-output"};

bool known_option(const std::string& key) {
  for (std::string_view k : kAgentOptions)
    if (k == key) return true;
  return registered_option(key);
}

// "unknown option 'KEY' (known: ...)": every option of the agent and of a registered strategy.
std::string unknown_option(const std::string& key) {
  std::string known;
  for (std::string_view k : kAgentOptions) known += (known.empty() ? "" : ", ") + std::string(k);
  std::set<std::string_view> listed;
  for (const sched::StrategyEntry& e : sched::registered_strategies()) {
    for (const sched::StrategyOption& opt : e.options) {
      if (listed.insert(opt.key).second) known += ", " + std::string(opt.key);
    }
  }
  return "unknown option '" + clip(key) + "' (known: " + known + ")";
}

}  // namespace

std::string escape_commas(const std::string& value) {
  std::string out;
  for (char c : value) out += c == ',' ? "%2C" : c == '%' ? "%25" : std::string(1, c);
  return out;
}

std::string unescape_commas(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "%2C") == 0 || text.compare(i, 3, "%2c") == 0) {
      out += ',';
      i += 2;
    } else if (text.compare(i, 3, "%25") == 0) {
      out += '%';
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

namespace {

// No strategy named: random over every field and array access. A user who names none has not
// chosen speed over what plain-field races only show (the runner names its strategy, and its
// default's profile runs find the shared fields: accesses=shared).
Options without_strategy(Options o) {
  if (!o.accesses) o.accesses = rw::Accesses::All;
  return o;
}

}  // namespace

Options parse_options(const std::string& text) {
  Options o;
  if (text.empty()) return without_strategy(o);
  bool strategy_given = false;
  std::set<std::string> seen;
  std::map<std::string, std::string> strategy_values;  // keys a strategy's row may declare
  bool base_given = false;
  for (const std::string& item : split(text, ',')) {
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    if (key.empty()) bad("empty option in '" + clip(text) + "'");
    // A key given twice is a mistake (which one would win?), not something to resolve silently.
    if (!seen.insert(key).second) bad("option '" + clip(key) + "' given twice");
    if ((key == "verbose" || key == "explore") && eq == std::string::npos) {
      (key == "verbose" ? o.verbose : o.explore) = true;
      continue;
    }
    if (eq == std::string::npos)
      bad(known_option(key) ? "option '" + clip(key) + "' needs a value (" + clip(key) + "=...)"
                            : unknown_option(key));
    std::string v = item.substr(eq + 1);
    if (key == "strategy") {
      strategy_given = true;
      const sched::StrategyEntry* e = sched::find_strategy(v);
      if (!e)
        bad("strategy: unknown strategy '" + clip(v) + "' (" + sched::strategy_name_list() + ")");
      o.strategy = Strategy::Registered;
      for (const auto& [name, wired] : kWired) {
        if (name == v) o.strategy = wired;
      }
      if (o.strategy == Strategy::Registered) o.registered = v;
    } else if (key == "seed") {
      o.seed = parse_u64(key, v, 0, UINT64_MAX);
      o.seed_given = true;
    } else if (key == "iterations") {
      o.iterations = parse_u64(key, v, 1, UINT64_MAX);
    } else if (key == "plan" || key == "record" || key == "replay" || key == "report" ||
               key == "profile" || key == "follow" || key == "trace") {
      if (v.empty()) bad(key + ": needs a file name");
      (key == "plan"     ? o.plan
       : key == "record" ? o.record
       : key == "replay" ? o.replay
       : key == "report" ? o.report
       : key == "follow" ? o.follow
       : key == "trace"  ? o.trace
                         : o.profile) = v;
      if (key == "replay") o.strategy = Strategy::Replay;
      if (key == "follow") o.strategy = Strategy::Follow;
      strategy_given = strategy_given || key == "replay" || key == "follow";
    } else if (key == "bug-output") {
      o.bug_output = unescape_commas(v);
      if (o.bug_output.empty()) bad("bug-output: needs a regular expression");
      try {
        std::regex check(o.bug_output, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        bad("bug-output: '" + clip(o.bug_output) + "' is not a regular expression (" + e.what() +
            ")");
      }
    } else if (key == "include") {
      o.include = prefixes(key, v);
    } else if (key == "exclude") {
      o.exclude = prefixes(key, v);
    } else if (key == "accesses") {
      if (v == "none")
        o.accesses = rw::Accesses::None;
      else if (v == "volatile")
        o.accesses = rw::Accesses::Volatile;
      else if (v == "shared")
        o.accesses = rw::Accesses::Shared;
      else if (v == "all")
        o.accesses = rw::Accesses::All;
      else
        bad("accesses: '" + clip(v) + "' is not none, volatile, shared or all");
    } else if (key == "timeout") {
      o.timeout_ms = parse_u64(key, v, 1, UINT64_MAX / 100000000);
    } else if (key == "budget") {
      o.budget_ms = parse_u64(key, v, 1, UINT64_MAX / 1000000);
    } else if (key == "test-budget") {
      o.test_budget_ms = parse_u64(key, v, 1, UINT64_MAX / 1000000);
    } else if (key == "verbose") {
      o.verbose = parse_u64(key, v, 0, 1) == 1;
    } else if (key == "explore") {
      o.explore = parse_u64(key, v, 0, 1) == 1;
    } else if (key == "statics") {
      if (v != "reset" && v != "reload") bad("statics: '" + clip(v) + "' is not reset or reload");
      o.reload_classes = v == "reload";
    } else if (key == "timeouts") {
      if (v != "real" && v != "early") bad("timeouts: '" + clip(v) + "' is not real or early");
      o.early_timeouts = v == "early";
    } else if (key == "on-unsupported") {
      if (v != "error" && v != "warn")
        bad("on-unsupported: '" + clip(v) + "' is not error or warn");
      o.unsupported_warns = v == "warn";
    } else if (key == "minimize") {
      o.minimize = parse_on_off(key, v);
    } else if (key == "hapset") {
      o.hapset = parse_on_off(key, v);
      o.hapset_given = true;
    } else if (key == "frames") {
      o.frames = uint32_t(parse_u64(key, v, 0, 100));
    } else if (key == "spurious") {
      o.spurious = parse_probability(key, v);
    } else if (key == "base") {
      if (v != "random" && v != "rapos") bad("base: '" + clip(v) + "' is not random or rapos");
      o.base = v;
      base_given = true;
    } else if (key == "tests") {
      if (v == "auto")
        o.tests = TestsMode::Auto;
      else if (v == "on")
        o.tests = TestsMode::On;
      else if (v == "off")
        o.tests = TestsMode::Off;
      else
        bad("tests: '" + clip(v) + "' is not auto, on or off");
    } else if (registered_option(key)) {
      strategy_values[key] = v;  // checked once the strategy is known
    } else {
      bad(unknown_option(key));
    }
  }
  for (const sched::StrategyEntry* e : option_rows(o)) {
    for (const sched::StrategyOption& opt : e->options) {
      const std::string key(opt.key);
      auto it = strategy_values.find(key);
      // A default may lie outside the range a user can give (steps: 0, none given).
      double value = std::strtod(std::string(opt.default_value).c_str(), nullptr);
      if (it != strategy_values.end()) {
        const std::string& v = it->second;
        const std::string range =
            "a number from " + number_text(opt.min) + " to " + number_text(opt.max);
        value = opt.whole ? double(parse_u64(key, v, uint64_t(opt.min), uint64_t(opt.max)))
                : opt.min == 0 && opt.max == 1 ? parse_probability(key, v)
                                               : parse_real(key, v, opt.min, opt.max, range);
      }
      if (key == "steps")
        o.steps = uint64_t(value);
      else
        o.strategy_options[key] = value;
      if (it != strategy_values.end()) strategy_values.erase(it);
    }
  }
  if (!strategy_values.empty()) {
    const std::string key = strategy_values.begin()->first;
    std::string owners;
    for (const sched::StrategyEntry& e : sched::registered_strategies()) {
      for (const sched::StrategyOption& opt : e.options) {
        if (opt.key == key) owners += (owners.empty() ? "" : ", ") + std::string(e.name);
      }
    }
    bad("option '" + key + "' is not strategy " + strategy_name(o) + "'s (it is " + owners + "'s)");
  }
  if (base_given && o.strategy != Strategy::Hapset)
    bad("option 'base' is not strategy " + strategy_name(o) + "'s (it is hapset's)");
  if (o.strategy == Strategy::Replay && o.replay.empty()) bad("strategy=replay needs replay=FILE");
  if (o.strategy == Strategy::Follow && o.follow.empty()) bad("strategy=follow needs follow=FILE");
  if (!o.profile.empty() && !o.controls())
    bad("profile= needs a strategy that runs the program (not none)");
  if (o.iterations > 1) {
    if (!o.runs_several_per_jvm()) {
      bad("iterations: not with strategy=" + strategy_name(o) + " (" +
          sched::several_per_jvm_names() + " run several executions in one JVM)");
    }
    if (!o.record.empty() || !o.profile.empty())
      bad("iterations: record= and profile= write one execution; replay its seed alone");
  }
  if (o.strategy == Strategy::Hapset && !o.hapset)
    bad("strategy=hapset needs its coverage: drop hapset=off");
  if (o.strategy == Strategy::Pctvb && o.plan.empty()) {
    bad("strategy=pctvb needs plan=FILE from profile runs (jsched run --strategy pctvb makes one)");
  }
  return strategy_given ? o : without_strategy(o);
}

std::string format_options(const Options& o) {
  std::string s = std::string("strategy=") + strategy_name(o);
  if (o.strategy == Strategy::Replay) s = "replay=" + o.replay;
  if (o.strategy == Strategy::Follow) s = "follow=" + o.follow;
  s += ",seed=" + std::to_string(o.seed);
  if (!o.plan.empty()) s += ",plan=" + o.plan;
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& p : v) out += (out.empty() ? "" : ":") + p;
    return out;
  };
  if (!o.include.empty()) s += ",include=" + join(o.include);
  if (!o.exclude.empty()) s += ",exclude=" + join(o.exclude);
  if (o.accesses) {
    s += std::string(",accesses=") + (*o.accesses == rw::Accesses::None       ? "none"
                                      : *o.accesses == rw::Accesses::Volatile ? "volatile"
                                      : *o.accesses == rw::Accesses::Shared   ? "shared"
                                                                              : "all");
  }
  if (o.timeout_ms != 10000) s += ",timeout=" + std::to_string(o.timeout_ms);
  if (o.budget_ms != 0) s += ",budget=" + std::to_string(o.budget_ms);
  if (o.test_budget_ms != 0) s += ",test-budget=" + std::to_string(o.test_budget_ms);
  if (!o.hapset) s += ",hapset=off";
  if (!o.minimize) s += ",minimize=off";
  if (o.reload_classes) s += ",statics=reload";
  if (o.unsupported_warns) s += ",on-unsupported=warn";
  if (o.early_timeouts) s += ",timeouts=early";
  if (o.frames != 5) s += ",frames=" + std::to_string(o.frames);
  if (o.strategy == Strategy::Hapset && o.base != "random") s += ",base=" + o.base;
  if (o.spurious != Options::kDefaultSpurious) s += ",spurious=" + number_text(o.spurious);
  if (!o.bug_output.empty()) s += ",bug-output=" + escape_commas(o.bug_output);
  for (const sched::StrategyEntry* e : option_rows(o)) {
    for (const sched::StrategyOption& opt : e->options) {
      const std::string key(opt.key);
      std::string v;
      if (key == "steps") {
        v = std::to_string(o.steps);
      } else {
        auto it = o.strategy_options.find(key);
        if (it == o.strategy_options.end()) continue;
        v = number_text(it->second);
      }
      if (v != opt.default_value) s += "," + key + "=" + v;
    }
  }
  return s;
}

}  // namespace jsched::agent
