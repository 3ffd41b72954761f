// The agent's options (docs/agent.md): `key=value` pairs separated by commas.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewriter/config.h"
#include "scheduler/strategy_registry.h"

namespace jsched::agent {

// Every strategy is a row of scheduler/strategy_registry.h, whose factory makes it. Registered:
// one the agent needs to know no more of (random, rapos, pos, ...), named by
// Options::registered; the others the agent serves in ways of their own (plans, variable
// tracking, learning, schedule files, no control).
// Follow: a schedule followed leniently (follow=FILE; jsched minimize's guides).
enum class Strategy { Pct, Pctvb, Tsca, Hapset, Replay, Follow, None, Registered };

// Test methods as executions (docs/agent.md, "Tests"): auto = when the JVM runs a test runner.
enum class TestsMode { Auto, On, Off };

const char* strategy_name(Strategy s);

struct Options {
  Strategy strategy = Strategy::Registered;
  std::string registered = "random";  // with Strategy::Registered: its name
  // Its options as its registry row declares them (hapset: and its base's), every key, defaults
  // filled in; steps aside (below).
  std::map<std::string, double> strategy_options;
  uint64_t seed = 0;
  bool seed_given = false;
  uint64_t iterations = 1;
  bool explore = false;  // several executions: go on after a finding
  // Iterations of main: statics start clean by running static initializers again in the
  // classes loaded once (reset) or by loading the classes afresh for each execution (reload).
  bool reload_classes = false;
  // Test methods: a finding's schedule with the fewest pre-emptions, searched in the test's JVM.
  bool minimize = true;
  TestsMode tests = TestsMode::Auto;
  // PCT: the step bound k (0: from the plan, or a default). Its registry row declares it; it is
  // kept here, not in strategy_options, because the agent changes it as executions go (pct
  // without a plan learns it).
  uint64_t steps = 0;
  std::string plan, record, replay, report;
  std::string follow;   // strategy=follow's guide
  std::string trace;    // write every step of the execution here (jsched minimize's timeline)
  std::string profile;  // write this execution's variable profile here
  // The output oracle: a line the program prints that this regular expression (ECMAScript
  // syntax) finds makes the execution a bug. In the option text, %2C stands for a comma and %25
  // for a percent sign (commas separate options).
  std::string bug_output;
  std::vector<std::string> include;  // class-name prefixes, dotted form as given ("*" = all)
  std::vector<std::string> exclude;
  std::optional<rw::Accesses> accesses;  // unset: the strategy's default
  // The hang window: no program thread made a step for this long (a hang).
  uint64_t timeout_ms = 10000;
  // The wall-clock budget of one execution: one still making steps then ends as `timeout` (slow,
  // not hung; no finding). 0: ten times the hang window.
  uint64_t budget_ms = 0;
  uint64_t budget() const { return budget_ms ? budget_ms : timeout_ms * 10; }
  // The wall-clock budget of one test method's executions (tests): once spent, no further
  // execution starts, and the test's line says how many ran. 0: none.
  uint64_t test_budget_ms = 0;
  // timeouts=early: a timed wait, join, park or I/O wait may time out at any step, time jumping
  // to its deadline, as if every other thread were descheduled that long (a loaded machine, a
  // long GC pause); by default a timeout comes only once virtual time reaches it.
  bool early_timeouts = false;
  // A class jsched was asked to instrument and could not (a class file it cannot read): the run
  // ends with an error, unless `warn` (on-unsupported=warn) lets it go on with a warning.
  bool unsupported_warns = false;
  bool verbose = false;
  // HaPSet coverage: allowed unless hapset=off, computed where hapset_wanted; statements carry
  // `frames` calling frames. strategy=hapset prefers a new pair with probability `prefer` and
  // otherwise follows `base` (random or rapos), whose options (rapos's wake) it takes.
  bool hapset = true;
  bool hapset_given = false;
  // Whether a run of these options computes the coverage: each statement is a stack walk at a
  // scheduling point (on a heavy program, most of an execution's time), so only where the
  // strategy reads it (strategy=hapset, a HaPSet plan) or hapset=on asks for it; a report
  // alone does not.
  bool hapset_wanted(bool hapset_plan) const {
    return hapset && (hapset_given || strategy == Strategy::Hapset || hapset_plan);
  }
  uint32_t frames = 5;
  std::string base = "random";
  // Probability, at a step where a thread waits (wait, await, untimed park) and another could
  // run, that the waiting threads may wake spuriously (docs/agent.md, "Spurious wake-ups").
  double spurious = kDefaultSpurious;
  static constexpr double kDefaultSpurious = 0.1;

  // Field/array accesses as scheduling points under the chosen strategy.
  rw::Accesses effective_accesses() const;
  // Whether the strategy is `name` (as reports name it).
  bool is(std::string_view name) const;
  bool runs_several_per_jvm() const;  // sched::runs_several_per_jvm of its name
  bool controls() const;              // its registry row's `controls` (false: none)
  // strategy_options[key], or `dflt` if the strategy has no such option.
  double option(const std::string& key, double dflt = 0) const;
};

// The strategy as reports and replay commands name it (a registered one by its name).
std::string strategy_name(const Options& o);

// Parses the option string given after `=` in -agentpath. Throws std::invalid_argument with a
// one-line message naming the offending key or value.
// A value with commas, as an option's text: "," as %2C, "%" as %25 (and back).
std::string escape_commas(const std::string& value);
std::string unescape_commas(const std::string& text);

Options parse_options(const std::string& text);

// The option string that reproduces `o` (used in replay commands).
std::string format_options(const Options& o);

}  // namespace jsched::agent
