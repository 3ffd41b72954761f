// When a profile run teaches a plan something (scheduler/pct/plan_news.h): the profile phase
// stops once runs keep repeating what is known.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scheduler/pct/plan_news.h"

using namespace jsched::sched;

namespace {

PlanVariable variable(const std::string& member, uint64_t accesses, bool shared) {
  PlanVariable v;
  v.kind = PlanVariable::New;
  v.max_accesses = accesses;
  v.cls = "pkg/Main";
  v.member = member;
  v.method_desc = "()V";
  v.bci = 3;
  v.type = "pkg/Box";
  v.sites = {"pkg/Box get ()I 1", "pkg/Box set (I)V 2"};
  v.shared = shared;
  return v;
}

VariablePlan run() {
  VariablePlan p;
  p.runs = 1;
  p.steps = 1000;
  p.threads = 3;
  p.thread_events = {400, 300, 300};
  p.sharing = true;
  p.variables = {variable("shared", 50, true), variable("alone", 20, false)};
  return p;
}

}  // namespace

TEST(PlanNews, TheSameRunAgainOrWithinTenPercentTeachesNothing) {
  VariablePlan known = run();
  EXPECT_FALSE(teaches(known, run(), true));
  VariablePlan close = run();
  close.steps = 1100;
  close.thread_events[1] = 330;
  close.thread_events[2] = 390;       // 30% more, but a tenth of the steps is 100
  close.thread_events.push_back(50);  // a thread more, of few events
  close.variables[0].max_accesses = 55;
  close.variables[1].max_accesses = 1000;  // a variable one thread touches: its count is not read
  EXPECT_FALSE(teaches(known, close, true));
  VariablePlan fewer = run();
  fewer.steps = 10;
  fewer.variables[0].sites = {"pkg/Box get ()I 1"};
  EXPECT_FALSE(teaches(known, fewer, true));
  EXPECT_TRUE(teaches(VariablePlan{}, run(), false)) << "the first run always teaches";
}

TEST(PlanNews, WhatPlannedRunsReadTeaches) {
  const VariablePlan known = run();
  auto changed = [&](auto change) {
    VariablePlan r = run();
    change(r);
    return teaches(known, r, true);
  };
  EXPECT_TRUE(changed([](VariablePlan& r) { r.steps = 1101; }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.threads = 4; }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.thread_events.push_back(101); }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.thread_events[2] = 401; }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.variables[0].max_accesses = 56; }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.variables[0].sites.push_back("pkg/Box x ()V 9"); }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.variables[1].shared = true; }));
  EXPECT_TRUE(changed([](VariablePlan& r) { r.variables.push_back(variable("new", 1, true)); }));
}

TEST(PlanNews, ANewVariableOneThreadTouchedTeachesOnlyWithoutSharing) {
  const VariablePlan known = run();
  VariablePlan r = run();
  r.variables.push_back(variable("generated", 9, false));
  EXPECT_FALSE(teaches(known, r, true)) << "Derby's generated classes: new names in every run";
  VariablePlan unknown_sharing = known;
  unknown_sharing.sharing = false;
  EXPECT_TRUE(teaches(unknown_sharing, r, false));
}

// Only pctvb reads a variable's count: for the others a rise teaches nothing, while what they
// read (steps, threads, sharing, sites) still does.
TEST(PlanNews, AVariablesCountTeachesOnlyAStrategyThatReadsIt) {
  const VariablePlan known = run();
  VariablePlan more = run();
  more.variables[0].max_accesses = 500;
  EXPECT_TRUE(teaches(known, more, true));
  EXPECT_FALSE(teaches(known, more, false));
  more.variables[0].sites.push_back("pkg/Box x ()V 9");
  EXPECT_TRUE(teaches(known, more, false)) << "a new site of a shared variable";
  VariablePlan longer = run();
  longer.steps = 5000;
  EXPECT_TRUE(teaches(known, longer, false)) << "pct's k";
}

// A big program's rare paths: a handful of new sites among thousands known keeps no phase going.
TEST(PlanNews, NewSitesTeachInProportionToTheSitesKnown) {
  VariablePlan known = run();
  std::vector<std::string>& sites = known.variables[0].sites;
  sites.clear();
  for (int i = 0; i < 2 * int(kSitesPerNewSite); ++i)
    sites.push_back("pkg/Big m ()V " + std::to_string(i));
  std::sort(sites.begin(), sites.end());
  VariablePlan one = known, two = known;
  one.variables[0].sites.push_back("pkg/Rare a ()V 1");
  two.variables[0].sites.push_back("pkg/Rare a ()V 1");
  two.variables[0].sites.push_back("pkg/Rare b ()V 1");
  for (VariablePlan* p : {&one, &two})
    std::sort(p->variables[0].sites.begin(), p->variables[0].sites.end());
  EXPECT_FALSE(teaches(known, one, false)) << "1 new site among 200";
  EXPECT_TRUE(teaches(known, two, false)) << "2 new sites among 200";
  VariablePlan new_variable = one;
  new_variable.variables.push_back(variable("new", 1, true));
  EXPECT_TRUE(teaches(known, new_variable, false))
      << "a variable newly shared teaches whatever the size";
}
