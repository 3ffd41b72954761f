// Race-check profile runs (jvmti-agent/executions/race_checks.h): which of the plan's shared
// variables a run's races mark raced, and when a run checks nothing.
#include <gtest/gtest.h>

#include "jvmti-agent/executions/race_checks.h"

using namespace jsched;
using rw::SiteKind;

namespace {

sched::PlanVariable buffer(uint32_t bci, std::vector<std::string> sites) {
  sched::PlanVariable v;
  v.kind = sched::PlanVariable::New;
  v.cls = "app/Main";
  v.member = "main";
  v.method_desc = "()V";
  v.bci = bci;
  v.type = "[I";
  v.sites = std::move(sites);
  v.shared = true;
  return v;
}

// Two allocation sites and a static field, all shared, and one variable no second thread
// touched.
sched::VariablePlan plan() {
  sched::VariablePlan p;
  p.sharing = true;
  sched::PlanVariable total;
  total.kind = sched::PlanVariable::Static;
  total.cls = "app/Main";
  total.member = "total";
  total.shared = true;
  sched::PlanVariable alone = buffer(30, {"app/Main fill ()V 9"});
  alone.shared = false;
  p.variables = {buffer(10, {"app/Main fill ()V 4", "app/Main sum ()I 6"}),
                 buffer(20, {"app/Main sum ()I 6", "app/Main peek ()I 2"}), total, alone};
  return p;
}

int32_t add(agent::SiteRegistry& sites, SiteKind k, const char* method, uint32_t bci,
            const char* name = "") {
  return sites.add(rw::SiteInfo{k, "app/Main", method, "()V", bci, "app/Main", name, "I"});
}

// Thread 1 (started by main) writes at site `a`, main then reads at site `b`, nothing between.
sched::RaceDetector raced(int32_t a, int32_t b) {
  sched::RaceDetector d;
  d.event(0, sched::Op::thread(sched::OpKind::Start, 1));
  d.event(1, sched::Op::variable(true, 7, 1, a));
  d.event(0, sched::Op::variable(false, 7, 1, b));
  return d;
}

}  // namespace

TEST(RaceChecks, ARaceMarksEveryVariableItsAccessesNameAndTheRestAreHandedOver) {
  agent::SiteRegistry sites;
  // Sites are keyed by "<class> <method> <desc> <bci>": each method's descriptor is ()V here,
  // so the plan's sites above with ()I name none of these; use ()V ones.
  sched::VariablePlan p = plan();
  p.variables[0].sites = {"app/Main fill ()V 4", "app/Main sum ()V 6"};
  p.variables[1].sites = {"app/Main sum ()V 6", "app/Main peek ()V 2"};
  const int32_t fill = add(sites, SiteKind::ArrayStore, "fill", 4);
  const int32_t peek = add(sites, SiteKind::ArrayLoad, "peek", 2);
  sched::VariablePlan profile;
  profile.variables = {p.variables[3]};  // the run counted only this one
  mark_race_checks(p, raced(fill, peek), sites, profile);
  ASSERT_EQ(profile.variables.size(), 4u);  // the shared ones added
  for (const sched::PlanVariable& v : profile.variables) {
    if (v.name() == p.variables[3].name()) {
      EXPECT_FALSE(v.checked) << "not shared: nothing to check";
      continue;
    }
    EXPECT_TRUE(v.shared && v.checked) << v.name();
  }
  sched::VariablePlan merged = p;
  merged.merge(profile);
  EXPECT_TRUE(merged.variables[0].raced) << "its fill raced";
  EXPECT_TRUE(merged.variables[1].raced) << "its peek raced";
  EXPECT_TRUE(merged.variables[2].handed_over()) << "the static field raced nowhere";
}

TEST(RaceChecks, AStaticFieldsRaceMarksThatField) {
  agent::SiteRegistry sites;
  const int32_t put = add(sites, SiteKind::PutStatic, "fill", 40, "total");
  const int32_t get = add(sites, SiteKind::GetStatic, "sum", 41, "total");
  sched::VariablePlan p = plan();
  sched::VariablePlan profile;
  mark_race_checks(p, raced(put, get), sites, profile);
  p.merge(profile);
  EXPECT_TRUE(p.variables[2].raced);
  EXPECT_TRUE(p.variables[0].handed_over());
  EXPECT_TRUE(p.variables[1].handed_over());
}

TEST(RaceChecks, ARaceNoSharedVariableNamesChecksNothing) {
  agent::SiteRegistry sites;
  const int32_t a = add(sites, SiteKind::ArrayStore, "other", 4);
  const int32_t b = add(sites, SiteKind::ArrayLoad, "other", 5);
  sched::VariablePlan profile;
  mark_race_checks(plan(), raced(a, b), sites, profile);
  EXPECT_TRUE(profile.variables.empty()) << "what it missed could be any variable's race";
  mark_race_checks(plan(), raced(a, 999), sites, profile);
  EXPECT_TRUE(profile.variables.empty()) << "an unknown site";
}
