// The agent's options: every option survives format_options -> parse_options (replay commands
// and the runner depend on it), and bad input is refused with one line naming the problem.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "jvmti-agent/options.h"
#include "scheduler/random/rapos_strategy.h"
#include "scheduler/strategy_registry.h"

using namespace jsched::agent;

namespace {

Options round_trip(const Options& o) {
  return parse_options(format_options(o));
}

}  // namespace

TEST(AgentOptions, FormatParseRoundTripKeepsEveryChoice) {
  for (const char* text :
       {"strategy=random,seed=1", "strategy=pct,seed=7,depth=2,steps=40,bounded=1",
        "strategy=rapos,seed=3,wake=0.25,accesses=all",
        "strategy=hapset,seed=9,prefer=0.5,base=rapos", "strategy=hapset,seed=9,base=rapos,wake=0",
        "strategy=random,seed=2,spurious=0,include=java.util.:com.x.,exclude=com.x.y.",
        "strategy=tsca,seed=4,t=2,timeout=500,hapset=off",
        "strategy=random,seed=5,frames=0,spurious=0.25", "strategy=pct,seed=6,minimize=off",
        "strategy=random,seed=8,bug-output=FAILED|x{1%2C3}%25 done",
        "strategy=random,seed=9,accesses=shared", "seed=10", "seed=11,accesses=volatile"}) {
    Options a = parse_options(text);
    Options b = round_trip(a);
    EXPECT_EQ(format_options(a), format_options(b)) << text;
    EXPECT_EQ(a.strategy, b.strategy) << text;
    EXPECT_EQ(a.seed, b.seed) << text;
    EXPECT_EQ(a.steps, b.steps) << text;
    EXPECT_EQ(a.registered, b.registered) << text;
    EXPECT_EQ(a.base, b.base) << text;
    EXPECT_EQ(a.strategy_options, b.strategy_options) << text;
    EXPECT_EQ(a.spurious, b.spurious) << text;
    EXPECT_EQ(a.include, b.include) << text;
    EXPECT_EQ(a.exclude, b.exclude) << text;
    EXPECT_EQ(a.effective_accesses(), b.effective_accesses()) << text;
    EXPECT_EQ(a.hapset, b.hapset) << text;
    EXPECT_EQ(a.frames, b.frames) << text;
    EXPECT_EQ(a.timeout_ms, b.timeout_ms) << text;
    EXPECT_EQ(a.minimize, b.minimize) << text;
    EXPECT_EQ(a.bug_output, b.bug_output) << text;
  }
}

// bug-output='s regular expression may hold commas, which separate options: %2C stands for one.
TEST(AgentOptions, ABugOutputPatternKeepsItsCommasAndPercents) {
  for (const std::string regex : {"FAILED", "x{1,3}", "a,b,,c", "100% (done|over)", "%2C", ","}) {
    EXPECT_EQ(unescape_commas(escape_commas(regex)), regex);
    EXPECT_EQ(escape_commas(regex).find(','), std::string::npos) << regex;
    EXPECT_EQ(parse_options("seed=1,bug-output=" + escape_commas(regex) + ",timeout=9").bug_output,
              regex);
  }
}

TEST(AgentOptions, BadInputIsRefusedWithOneLine) {
  for (const char* text : {"strategy=nope",
                           "seed=-1",
                           "seed=1,seed=2",
                           "depth=0",
                           "spurious=2",
                           "strategy=rapos,wake=x",
                           "strategy=random,wake=0.5",
                           "strategy=hapset,wake=0.5",
                           "accesses=some",
                           "include=a/b",
                           "bogus=1",
                           "seed",
                           "iterations=2,strategy=tsca",
                           "strategy=pctvb",
                           "minimize=maybe",
                           "strategy=random,depth=2",
                           "strategy=pct,depth=2.5",
                           "strategy=pct,steps=0",
                           "strategy=tsca,t=5",
                           "strategy=pos,base=rapos",
                           "strategy=pct,prefer=0.5",
                           "bug-output=",
                           "bug-output=(unclosed",
                           "bug-output=[z-a]"}) {
    try {
      parse_options(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::invalid_argument& e) {
      std::string msg = e.what();
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_LT(msg.size(), 400u) << msg;
    }
  }
}

// A misspelt flag is an unknown option, not a known one missing its value.
TEST(AgentOptions, AMisspeltFlagIsNamedUnknown) {
  auto message = [](const char* text) {
    try {
      parse_options(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("strategy=random,explr").find("unknown option 'explr' (known: "),
            std::string::npos);
  EXPECT_NE(message("seed").find("option 'seed' needs a value (seed=...)"), std::string::npos);
  EXPECT_NE(message("strategy=pct,depth").find("option 'depth' needs a value"), std::string::npos);
}

TEST(AgentOptions, RegisteredStrategiesTakeTheirOptionsWithDefaults) {
  Options rapos = parse_options("strategy=rapos");
  EXPECT_EQ(rapos.strategy_options.at("wake"), jsched::sched::RaposStrategy::kDefaultWake);
  EXPECT_EQ(rapos.effective_accesses(), jsched::rw::Accesses::All);
  Options over_rapos = parse_options("strategy=hapset,base=rapos,wake=0");
  EXPECT_EQ(over_rapos.strategy_options.at("wake"), 0);
  Options plain = parse_options("");
  EXPECT_TRUE(plain.is("random"));
  EXPECT_EQ(plain.effective_accesses(), jsched::rw::Accesses::All);
  EXPECT_TRUE(plain.runs_several_per_jvm());
  EXPECT_FALSE(parse_options("strategy=tsca").runs_several_per_jvm());
}

// Each registry row is a strategy the agent takes by its name, with the row's capabilities.
TEST(AgentOptions, EveryRegistryRowIsAStrategyTheAgentTakes) {
  std::set<std::string_view> names;
  for (const jsched::sched::StrategyEntry& e : jsched::sched::registered_strategies()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    std::string text = "strategy=" + std::string(e.name);
    if (e.name == "replay" || e.name == "follow" || e.name == "pctvb") text += ",plan=p";
    if (e.name == "replay") text = "replay=r";
    if (e.name == "follow") text = "follow=f";
    Options o = parse_options(text);
    EXPECT_EQ(strategy_name(o), e.name);
    EXPECT_TRUE(o.is(e.name));
    EXPECT_EQ(o.runs_several_per_jvm(), e.several_per_jvm) << e.name;
    EXPECT_EQ(o.controls(), e.controls) << e.name;
    EXPECT_EQ(o.effective_accesses() == jsched::rw::Accesses::All, e.all_accesses) << e.name;
    EXPECT_EQ(o.effective_accesses() == jsched::rw::Accesses::Shared, e.shared_accesses) << e.name;
    EXPECT_EQ(e.make != nullptr, e.controls) << e.name;  // every strategy that controls
    EXPECT_EQ(parse_options(format_options(o)).strategy, o.strategy) << e.name;
  }
  EXPECT_EQ(names.size(), jsched::sched::all_strategy_names().size());
}

// With no strategy named, the agent runs random over every field and array access: a user who
// named none gets plain-field races too. A named strategy keeps its row's default; the
// portfolio (the runner's default) has accesses=shared, which its profile runs' plan narrows.
TEST(AgentOptions, WithoutAStrategyEveryAccessIsAPoint) {
  using jsched::rw::Accesses;
  for (const char* text : {"", "seed=3", "seed=3,iterations=5,explore", "timeout=500"}) {
    Options o = parse_options(text);
    EXPECT_TRUE(o.is("random")) << text;
    EXPECT_EQ(o.effective_accesses(), Accesses::All) << text;
    // A replay command names it, so that the replay instruments the same accesses.
    EXPECT_NE(format_options(o).find("accesses=all"), std::string::npos) << text;
  }
  EXPECT_EQ(parse_options("seed=3,accesses=volatile").effective_accesses(), Accesses::Volatile);
  EXPECT_EQ(parse_options("strategy=random").effective_accesses(), Accesses::Volatile);
  EXPECT_EQ(parse_options("strategy=portfolio").effective_accesses(), Accesses::Shared);
  EXPECT_EQ(parse_options("strategy=pct,accesses=shared").effective_accesses(), Accesses::Shared);
  EXPECT_EQ(parse_options("replay=r").effective_accesses(), Accesses::Volatile);
  try {
    parse_options("accesses=some");
    ADD_FAILURE() << "accesses=some accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "accesses: 'some' is not none, volatile, shared or all");
  }
}

// HaPSet coverage costs a stack walk at every scheduling point: computed where something reads
// it (a report, strategy=hapset, a HaPSet plan) or where hapset=on asks for it, never against
// hapset=off.
TEST(AgentOptions, HapsetCoverageIsComputedWhereSomethingReadsIt) {
  EXPECT_FALSE(parse_options("seed=1").hapset_wanted(false));
  EXPECT_FALSE(parse_options("strategy=pct,iterations=5").hapset_wanted(false));
  EXPECT_FALSE(parse_options("seed=1,report=r.json").hapset_wanted(false));
  EXPECT_TRUE(parse_options("seed=1,report=r.json,hapset=on").hapset_wanted(false));
  EXPECT_TRUE(parse_options("strategy=hapset").hapset_wanted(false));
  EXPECT_TRUE(parse_options("seed=1").hapset_wanted(true));
  EXPECT_TRUE(parse_options("seed=1,hapset=on").hapset_wanted(false));
  EXPECT_FALSE(parse_options("seed=1,hapset=off,report=r.json").hapset_wanted(false));
}
