// accesses=shared (jvmti-agent/instrumentation/shared_accesses.h): which accesses a plan's
// shared variables make scheduling points, and what is left to the volatile filter.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "jvmti-agent/instrumentation/shared_accesses.h"

using namespace jsched;
using rw::AccessDecision;
using rw::SiteKind;

namespace {

// Stands in for the volatile filter: remembers what it was asked, answers Skip.
class Volatile : public rw::AccessFilter {
 public:
  AccessDecision decide(const rw::SiteInfo& s) const override {
    asked.insert(std::string(s.name));
    return AccessDecision{AccessDecision::Skip, 0};
  }
  mutable std::set<std::string> asked;
};

sched::VariablePlan plan() {
  sched::VariablePlan p;
  p.sharing = true;
  sched::PlanVariable counter;  // a static field two threads touched
  counter.kind = sched::PlanVariable::Static;
  counter.cls = "app/Stats";
  counter.member = "served";
  counter.shared = true;
  sched::PlanVariable local = counter;  // one only main touched
  local.member = "started";
  local.shared = false;
  sched::PlanVariable registry;  // an allocation site whose objects two threads touched
  registry.kind = sched::PlanVariable::New;
  registry.cls = "app/Main";
  registry.member = "main";
  registry.method_desc = "([Ljava/lang/String;)V";
  registry.bci = 4;
  registry.type = "app/Registry";
  registry.sites = {"app/Registry pool (Ljava/lang/String;)Lapp/Pool; 1",
                    "app/Registry pool (Ljava/lang/String;)Lapp/Pool; 9"};
  registry.shared = true;
  sched::PlanVariable table = registry;  // shared, its accesses not listed: any that may touch it
  table.bci = 20;
  table.type = "[Lapp/Appender;";
  table.sites.clear();
  p.variables = {counter, local, registry, table};
  return p;
}

rw::SiteInfo at(SiteKind k, const char* method, uint32_t bci, const char* owner, const char* name,
                const char* desc) {
  return rw::SiteInfo{k,   "app/Registry", method, "(Ljava/lang/String;)Lapp/Pool;",
                      bci, owner,          name,   desc};
}

}  // namespace

TEST(SharedAccesses, ThePlansSharedVariablesAreThePoints) {
  Volatile other;
  const std::set<std::string> finals = {"pools", "capacity"};
  agent::SharedAccesses f(plan(), other, [&](const std::string&, const std::string& name) {
    return finals.count(name) > 0;
  });
  EXPECT_EQ(f.shared_variables(), 3u);
  const auto point = [&](const rw::SiteInfo& s) {
    return f.decide(s).kind == AccessDecision::Point;
  };
  // A shared static field, read or written, anywhere.
  EXPECT_TRUE(point(at(SiteKind::GetStatic, "run", 3, "app/Stats", "served", "J")));
  EXPECT_TRUE(point(at(SiteKind::PutStatic, "run", 7, "app/Stats", "served", "J")));
  // One no second thread touched goes to the volatile filter.
  EXPECT_FALSE(point(at(SiteKind::PutStatic, "run", 7, "app/Stats", "started", "Z")));
  EXPECT_TRUE(other.asked.count("started"));
  // The instructions that touched a shared allocation site's objects, final references too: the
  // map behind a final field is where a get and a put of two threads interleave.
  EXPECT_TRUE(point(at(SiteKind::GetField, "pool", 1, "app/Registry", "pools", "Ljava/util/Map;")));
  EXPECT_TRUE(point(at(SiteKind::PutField, "pool", 9, "app/Registry", "size", "I")));
  // ... but a final number is a value: no point.
  EXPECT_FALSE(point(at(SiteKind::GetField, "pool", 9, "app/Registry", "capacity", "I")));
  // Another instruction of the same class touched no shared object in the profile runs.
  EXPECT_FALSE(point(at(SiteKind::PutField, "pool", 30, "app/Registry", "size", "I")));
  // A shared variable without `at` lines: every array access that could touch its arrays.
  EXPECT_TRUE(point(at(SiteKind::ArrayLoad, "log", 5, "", "", "L")));
  EXPECT_FALSE(point(at(SiteKind::ArrayLoad, "log", 5, "", "", "I")));
}

// A shared variable the race-check runs saw only handed over through synchronization makes no
// points; one that raced there, or one never checked, does.
TEST(SharedAccesses, AVariableOnlyHandedOverMakesNoPoints) {
  Volatile other;
  sched::VariablePlan p = plan();
  p.variables[0].checked = true;  // app/Stats.served: handed over
  p.variables[2].checked = true;  // the registry: raced
  p.variables[2].raced = true;
  p.variables[3].checked = true;  // the appenders' table: handed over
  agent::SharedAccesses f(p, other, [](const std::string&, const std::string&) { return false; });
  EXPECT_EQ(f.shared_variables(), 1u);
  const auto point = [&](const rw::SiteInfo& s) {
    return f.decide(s).kind == AccessDecision::Point;
  };
  EXPECT_FALSE(point(at(SiteKind::GetStatic, "run", 3, "app/Stats", "served", "J")));
  EXPECT_TRUE(point(at(SiteKind::PutField, "pool", 9, "app/Registry", "size", "I")));
  EXPECT_FALSE(point(at(SiteKind::ArrayStore, "log", 5, "", "", "L")));
  // A read that loads an object from it stays one, as the way into what it reaches (a map
  // whose code has no points), until that is found instrumented whole.
  const rw::SiteInfo appender = at(SiteKind::ArrayLoad, "log", 6, "", "", "L");
  EXPECT_TRUE(point(appender));
  EXPECT_TRUE(f.reaches_only(appender));
  EXPECT_FALSE(
      f.reaches_only(at(SiteKind::GetField, "pool", 1, "app/Registry", "pools", "Ljava/util/Map;")))
      << "the registry raced: its reads are points for themselves";
}
