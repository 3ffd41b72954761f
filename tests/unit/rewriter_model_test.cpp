// Rewriter pieces checked without running a JVM.
#include <gtest/gtest.h>

#include <map>

#include "classfile/class_file.h"
#include "classfile/class_source.h"
#include "classfile/opcodes.h"
#include "rewriter/frame_state.h"
#include "rewriter/hooks.h"
#include "rewriter/type_simulator.h"
#include "tests/support/code_builder.h"
#include "tests/support/rewrite_helpers.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;

TEST(Hooks, TableMatchesTheCompiledShimClass) {
  std::vector<uint8_t> bytes =
      test::read_file(std::string(JSCHED_SHIM_CLASSES) + "/java/lang/JSchedShim.class");
  ClassFile cf = ClassFile::parse(bytes);
  EXPECT_EQ(cf.name(), "java/lang/JSchedShim");
  size_t hooks = 0, entries = 0;
  for (const Member& m : cf.methods) {
    // Not hooks of the rewriter: what diverted main methods and test runners call.
    bool entry = cf.member_name(m) == "runIterations" || cf.member_name(m) == "runJunit4Test" ||
                 cf.member_name(m) == "runJunit3Test" || cf.member_name(m) == "runJupiterTest" ||
                 cf.member_name(m) == "scheduleTestTimeout";
    entries += entry;
    hooks += (m.access & acc::kPublic) && (m.access & acc::kStatic) && !entry;
    // Natives are private and named so they cannot clash with java.lang.Thread's own.
    if (m.access & acc::kNative) {
      EXPECT_TRUE(m.access & acc::kPrivate);
      EXPECT_EQ(cf.member_name(m).substr(0, 6), "jsched");
    }
  }
  EXPECT_EQ(hooks, rw::kHookCount);
  EXPECT_EQ(entries, 5u);
  for (size_t h = 0; h < rw::kHookCount; ++h) {
    const rw::HookInfo& info = rw::hook_info(rw::Hook(h));
    bool found = false;
    for (const Member& m : cf.methods) {
      if (cf.member_name(m) != info.name || cf.member_desc(m) != info.desc) continue;
      found = true;
      EXPECT_EQ(m.access & (acc::kPublic | acc::kStatic | acc::kNative),
                acc::kPublic | acc::kStatic)
          << info.name;
    }
    EXPECT_TRUE(found) << info.name << info.desc;
  }
}

TEST(Rewrite, ClassesWithNothingToInstrumentAreUnchanged) {
  Buffer b = test::build_class(52, "Plain", "m", "(II)I", acc::kStatic, [](test::CodeBuilder& c) {
    c.limits(2, 2).local(op::iload, 0).local(op::iload, 1).op(op::iadd).op(op::ireturn);
  });
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(b, test::test_config(true), sink);
  EXPECT_EQ(r.status, rw::RewriteResult::Unchanged);
  EXPECT_TRUE(sink.sites.empty());
}

TEST(Rewrite, MalformedInputFailsWithAReason) {
  std::vector<uint8_t> junk = {0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0};
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(junk, test::test_config(true), sink);
  EXPECT_EQ(r.status, rw::RewriteResult::Failed);
  EXPECT_NE(r.error.find("truncated"), std::string::npos) << r.error;
}

TEST(Rewrite, SitesNameTheOriginalInstruction) {
  std::vector<uint8_t> bytes = test::read_file(test::data_dir() + "/rewriter/SyncCases.class");
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(bytes, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed);
  ClassFile original = ClassFile::parse(bytes);
  std::map<std::string, Layout> layouts;
  size_t checked = 0;
  for (const auto& s : sink.sites) {
    EXPECT_EQ(s.cls, "SyncCases");
    if (s.kind != rw::SiteKind::MonitorEnter && s.kind != rw::SiteKind::GetField &&
        s.kind != rw::SiteKind::PutStatic) {
      continue;
    }
    for (Member& m : original.methods) {
      if (original.member_name(m) != s.method || original.member_desc(m) != s.method_desc) continue;
      Code& code = original.decode_code(m);
      Layout lay;
      compute_layout(code, lay);
      bool at_insn = false;
      for (size_t i = 0; i < code.insns.size(); ++i) {
        if (code.insns[i].is_label() || lay.insn_offset[i] != s.bci) continue;
        uint8_t want = s.kind == rw::SiteKind::MonitorEnter ? op::monitorenter
                       : s.kind == rw::SiteKind::GetField   ? op::getfield
                                                            : op::putstatic;
        EXPECT_EQ(code.insns[i].op, want) << s.method << " bci " << s.bci;
        at_insn = true;
      }
      EXPECT_TRUE(at_insn) << s.method << " bci " << s.bci;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
}

// Every method of java.base: the simulation follows all of it, and frames expanded then
// re-encoded expand to the same states.
TEST(TypeSimulation, FollowsEveryMethodOfJavaBaseAndFramesReencode) {
  size_t methods = 0, frames = 0;
  ClassVisitor v;
  v.on_class = [&](const std::string& origin, Bytes b) {
    ClassFile cf = ClassFile::parse(b);
    for (Member& m : cf.methods) {
      if (m.code_attr < 0) continue;
      Code& code = cf.decode_code(m);
      rw::label_news(code);
      rw::TypeSimulator sim(cf, m, code);
      size_t visited = 0;
      try {
        sim.walk([&](size_t, const rw::State&) { ++visited; });
      } catch (const std::exception& e) {
        ADD_FAILURE() << origin << " " << cf.member_name(m) << ": " << e.what();
        return;
      }
      ++methods;
      CodeAttr* smt = code.find(CodeAttr::StackMap);
      if (!smt) continue;
      rw::State entry = rw::entry_state(cf, m);
      std::vector<rw::State> states = rw::expand_frames(*smt, entry);
      std::vector<std::pair<Label, rw::State>> labeled;
      for (size_t k = 0; k < states.size(); ++k) labeled.emplace_back(smt->frames[k].at, states[k]);
      CodeAttr copy(code.resource());
      copy.kind = CodeAttr::StackMap;
      rw::encode_frames(copy, labeled, entry);
      std::vector<rw::State> again = rw::expand_frames(copy, entry);
      ASSERT_EQ(again.size(), states.size());
      for (size_t k = 0; k < states.size(); ++k) {
        // Trailing Tops are not significant.
        EXPECT_EQ(rw::frame_locals(again[k].locals), rw::frame_locals(states[k].locals)) << origin;
        EXPECT_EQ(again[k].stack, states[k].stack) << origin;
      }
      frames += states.size();
    }
  };
  v.on_error = [](const std::string& o, const std::string& m) { ADD_FAILURE() << o << ": " << m; };
  visit_classes(test::jdk_home() + "/jmods/java.base.jmod", v);
  EXPECT_GT(methods, 50000u);
  EXPECT_GT(frames, 50000u);
}

// An array a method allocated and still keeps to itself is touched by no other thread: its
// loads and stores are no points. Each way it stops being the method's own (a field, a call, an
// alias that leaves, a merge with another array, a handler after the call) keeps the accesses
// after it points.
TEST(Rewrite, AccessesToAnArrayTheMethodKeepsToItselfAreNoPoints) {
  std::vector<uint8_t> bytes = test::read_file(test::data_dir() + "/rewriter/FreshArrays.class");
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(bytes, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  std::map<std::string, int> stores, loads;
  for (const auto& s : sink.sites) {
    if (s.kind == rw::SiteKind::ArrayStore) ++stores[s.method];
    if (s.kind == rw::SiteKind::ArrayLoad) ++loads[s.method];
  }
  const std::map<std::string, int> expected = {
      {"fill", 0},        {"published", 1}, {"passed", 1},
      {"aliasLeaves", 1}, {"merged", 1},    {"mergedAlias", 1},
      {"castLeaves", 1},  {"eachRound", 0}, {"leftInTheFirstRound", 1},
      {"handler", 1},     {"nested", 1}};
  for (const auto& [method, n] : expected) EXPECT_EQ(stores[method], n) << method;
  EXPECT_EQ(loads["nested"], 0);
}
