// Plan files (scheduler/pct/variable_plan.h): what profile runs write, the runner merges and
// PCTVB runs read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "scheduler/pct/variable_plan.h"

using namespace jsched::sched;

namespace {

class PlanFile : public ::testing::Test {
 protected:
  std::string path = "/tmp/jsched-plan-test-" + std::to_string(getpid()) + ".txt";
  void TearDown() override { std::remove(path.c_str()); }
  void write(const std::string& text) { std::ofstream(path, std::ios::trunc) << text; }
  // The error message reading `text` gives ("" when it reads).
  std::string error_of(const std::string& text) {
    write(text);
    try {
      VariablePlan::read(path);
    } catch (const PlanError& e) {
      return e.what();
    }
    return "";
  }
};

VariablePlan sample() {
  VariablePlan p;
  p.runs = 1;
  p.steps = 40;
  p.threads = 3;
  PlanVariable s;
  s.kind = PlanVariable::Static;
  s.max_accesses = 6;
  s.cls = "pkg/Main";
  s.member = "events";
  PlanVariable n;
  n.kind = PlanVariable::New;
  n.max_accesses = 1210;
  n.cls = "pkg/Main";
  n.member = "main";
  n.method_desc = "([Ljava/lang/String;)V";
  n.bci = 44;
  n.type = "pkg/Main$Worker";
  n.supers = {"java/lang/Thread"};
  n.sites = {"pkg/Main$Worker run ()V 12", "pkg/Main$Worker run ()V 7"};
  p.variables = {s, n};
  return p;
}

}  // namespace

TEST_F(PlanFile, WritesAndReadsBackEveryField) {
  VariablePlan p = sample();
  p.write(path);
  VariablePlan q = VariablePlan::read(path);
  EXPECT_EQ(q.runs, 1u);
  EXPECT_EQ(q.steps, 40u);
  EXPECT_EQ(q.threads, 3u);
  ASSERT_EQ(q.variables.size(), 2u);
  EXPECT_EQ(q.variables[0].name(), "static pkg.Main.events");
  EXPECT_EQ(q.variables[1].name(), "new pkg.Main.main([Ljava/lang/String;)V@44 pkg.Main$Worker");
  EXPECT_EQ(q.variables[1].supers, p.variables[1].supers);
  EXPECT_EQ(q.variables[1].sites, p.variables[1].sites);
  EXPECT_EQ(q.variables[1].id(), p.variables[1].id());
  EXPECT_NE(q.variables[0].id(), q.variables[1].id());
}

TEST_F(PlanFile, MergeKeepsMaximaAndTheUnionOfSites) {
  VariablePlan a = sample(), b = sample();
  b.steps = 55;
  b.threads = 2;
  b.variables[0].max_accesses = 4;
  b.variables[1].max_accesses = 2000;
  b.variables[1].sites = {"pkg/Main$Worker run ()V 12", "pkg/Main$Worker run ()V 30"};
  PlanVariable extra = a.variables[0];
  extra.member = "samples";
  b.variables.push_back(extra);
  a.merge(b);
  EXPECT_EQ(a.runs, 2u);
  EXPECT_EQ(a.steps, 55u);
  EXPECT_EQ(a.threads, 3u);
  ASSERT_EQ(a.variables.size(), 3u);
  EXPECT_EQ(a.variables[0].max_accesses, 6u);
  EXPECT_EQ(a.variables[1].max_accesses, 2000u);
  EXPECT_EQ(a.variables[1].sites.size(), 3u);
  EXPECT_EQ(a.find(extra.id()), 2);
  EXPECT_EQ(a.find(12345), -1);
}

TEST_F(PlanFile, MalformedPlansNameFileLineAndReason) {
  const std::string head = "jsched-plan 1\nruns 1\n";
  EXPECT_EQ(error_of(head + "end\n"), "");
  EXPECT_EQ(error_of("jsched-plan 2\n"), path + ":1: not a jsched plan (expected 'jsched-plan 1')");
  EXPECT_EQ(error_of(head + "steps x\nend\n"), path + ":3: bad steps 'x'");
  EXPECT_EQ(error_of(head + "static 3 pkg/C\nend\n"),
            path + ":3: 'static' line with 2 fields, expected 3");
  EXPECT_EQ(error_of(head + "at pkg/C m ()V 3\nend\n"),
            path + ":3: 'at' line not after a 'new' line");
  EXPECT_EQ(error_of(head + "new 1 pkg/C m ()V 3 [I -\nat pkg/C m ()V x\nend\n"),
            path + ":4: bad bytecode index 'x'");
  EXPECT_EQ(error_of(head + "new 1 pkg/C m V 3 [I -\nend\n"),
            path + ":3: bad method descriptor 'V'");
  EXPECT_EQ(error_of(head + "bogus\nend\n"), path + ":3: unknown line 'bogus'");
  EXPECT_EQ(error_of(head + "static 1 pkg/C f\n"),
            path + ":3: the plan ends without 'end' (truncated?)");
  EXPECT_EQ(error_of(head + "end\nruns 2\n"), path + ":4: text after 'end'");
}

// accesses=shared reads which variables more than one thread touched: the flags survive the
// file, a merge keeps a variable shared if any profile run saw it shared, and a plan is only
// said to record sharing if every run it merges did.
TEST_F(PlanFile, SharedFlagsSurviveTheFileAndMerges) {
  VariablePlan p = sample();
  p.sharing = true;
  p.variables[1].shared = true;
  p.write(path);
  VariablePlan q = VariablePlan::read(path);
  EXPECT_TRUE(q.sharing);
  EXPECT_FALSE(q.variables[0].shared);
  EXPECT_TRUE(q.variables[1].shared);
  EXPECT_EQ(q.variables[1].sites, p.variables[1].sites);  // `shared` follows the `at` lines

  VariablePlan other = sample();
  other.sharing = true;
  other.variables[0].shared = true;
  VariablePlan merged;
  merged.merge(q);
  merged.merge(other);
  EXPECT_TRUE(merged.sharing);
  EXPECT_TRUE(merged.variables[0].shared);
  EXPECT_TRUE(merged.variables[1].shared);
  VariablePlan older = sample();  // from runs that did not record sharing
  merged.merge(older);
  EXPECT_FALSE(merged.sharing);
}

// Race-check runs mark the shared variables they followed `checked`, and those whose accesses
// raced `raced`; a merge keeps either if any run said so, and a variable is only handed over
// (no points under accesses=shared) when checked and never raced.
TEST_F(PlanFile, RaceChecksSurviveTheFileAndMerges) {
  VariablePlan p = sample();
  p.sharing = true;
  for (PlanVariable& v : p.variables) v.shared = v.checked = true;
  p.variables[1].raced = true;
  p.write(path);
  VariablePlan q = VariablePlan::read(path);
  EXPECT_TRUE(q.variables[0].checked && !q.variables[0].raced);
  EXPECT_TRUE(q.variables[0].handed_over());
  EXPECT_TRUE(q.variables[1].checked && q.variables[1].raced);
  EXPECT_FALSE(q.variables[1].handed_over());

  VariablePlan counted = sample();  // a counting run: nothing checked
  counted.sharing = true;
  for (PlanVariable& v : counted.variables) v.shared = true;
  EXPECT_FALSE(counted.variables[0].handed_over()) << "shared and never checked: points";
  VariablePlan raced = counted;  // a check that saw the first race
  raced.variables[0].checked = raced.variables[0].raced = true;
  VariablePlan merged;
  merged.merge(counted);
  merged.merge(q);
  EXPECT_TRUE(merged.variables[0].handed_over());
  merged.merge(raced);
  EXPECT_FALSE(merged.variables[0].handed_over()) << "one run's race is enough";
  EXPECT_FALSE(merged.variables[1].handed_over());
  EXPECT_EQ(error_of("jsched-plan 1\nruns 1\nraced\nend\n"),
            path + ":3: 'raced' line before any 'static' or 'new' line");
}

TEST_F(PlanFile, ASharedLineNeedsAVariable) {
  const std::string head = "jsched-plan 1\nruns 1\nsharing\n";
  EXPECT_EQ(error_of(head + "static 1 pkg/C f\nshared\nend\n"), "");
  EXPECT_EQ(error_of(head + "shared\nend\n"),
            path + ":4: 'shared' line before any 'static' or 'new' line");
  EXPECT_EQ(error_of(head + "static 1 pkg/C f\nshared x\nend\n"),
            path + ":5: unknown line 'shared x'");
}
