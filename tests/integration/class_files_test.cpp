// Real-world class files under the agent: versions javac no longer writes, interfaces from
// before Java 8, frames that name uninitialized objects; and the verdicts when jsched itself is
// at fault (a class it broke, a class it could not read): an error, never the program's bug.
// Each case is one distinct cause a sweep over Debian's jars found (tests/corpus/jar_sweep.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "protocol/json.h"
#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/code_builder.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// What must never appear in a run of a valid class: jsched refusing or breaking it.
void expect_clean(const test::ProcessResult& r, const std::string& what) {
  for (const char* bad : {"VerifyError", "ClassFormatError", "left as it was",
                          "cannot be instrumented", "not instrumented", "left uninstrumented"})
    EXPECT_FALSE(has(r.err, bad)) << what << ": " << r.err;
}

// The instrumentation modes a user can pick, besides the default.
const std::vector<std::string> kModes = {"strategy=random", "strategy=random,accesses=all",
                                         "strategy=pct,steps=200", "strategy=portfolio"};

// A class of version `major` (45: Java 1.1 ... 50: Java 6) whose main takes a monitor, starts
// and joins a thread, calls an interface method and leaves the monitor through a jsr/ret
// subroutine (as javac before 1.6 compiled `finally`; jsr is refused from version 51 on).
Buffer old_class(uint16_t major) {
  const std::string name = "Old" + std::to_string(major);
  ClassFile cf = ClassFile::create(major, name, "java/lang/Object");
  Member& m = cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
  test::CodeBuilder b(cf, m);
  Label sub = b.label(), after = b.label(), loop = b.label(), done = b.label();
  b.limits(4, 5);
  // Object lock = new Object(); Thread t = new Thread(); t.start();
  b.type(op::new_, "java/lang/Object").op(op::dup);
  b.invoke(op::invokespecial, "java/lang/Object", "<init>", "()V").local(op::astore, 1);
  b.type(op::new_, "java/lang/Thread").op(op::dup);
  b.invoke(op::invokespecial, "java/lang/Thread", "<init>", "()V").local(op::astore, 2);
  b.local(op::aload, 2).invoke(op::invokevirtual, "java/lang/Thread", "start", "()V");
  // synchronized (lock) { List l = new ArrayList(); for (i = 0; i < 3; i++) l.add("x"); }
  // with the monitor left through the subroutine.
  b.local(op::aload, 1).op(op::monitorenter);
  b.type(op::new_, "java/util/ArrayList").op(op::dup);
  b.invoke(op::invokespecial, "java/util/ArrayList", "<init>", "()V").local(op::astore, 3);
  b.iconst(0).local(op::istore, 4);
  b.place(loop).local(op::iload, 4).iconst(3).branch(op::if_icmpge, done);
  b.local(op::aload, 3).ldc_string("x");
  b.invoke(op::invokeinterface, "java/util/List", "add", "(Ljava/lang/Object;)Z").op(op::pop);
  b.iinc(4, 1).branch(op::goto_, loop);
  b.place(done).branch(op::jsr, sub).branch(op::goto_, after);
  b.place(sub).local(op::astore, 0).local(op::aload, 1).op(op::monitorexit).local(op::ret, 0);
  // t.join(); System.out.println("old ok")
  b.place(after).local(op::aload, 2).invoke(op::invokevirtual, "java/lang/Thread", "join", "()V");
  b.field(op::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  b.ldc_string("old ok");
  b.invoke(op::invokevirtual, "java/io/PrintStream", "println", "(Ljava/lang/String;)V");
  b.op(op::return_);
  return cf.write();
}

}  // namespace

// Versions 45 to 50 (no StackMapTable; the old verifier's rules): each loads, verifies and runs
// under every mode, on the plain JVM first (the control).
TEST(ClassFiles, VersionsBeforeJava7RunUnderEveryMode) {
  test::TempDir d;
  for (uint16_t major = 45; major <= 50; ++major) {
    const std::string name = "Old" + std::to_string(major);
    Buffer bytes = old_class(major);
    test::write_file(d.path() + "/" + name + ".class", bytes.data(), bytes.size());
    test::ProcessResult plain = test::run({test::java_bin(), "-cp", d.path(), name});
    ASSERT_EQ(plain.status, 0) << name << ": " << plain.err;
    ASSERT_EQ(plain.out, "old ok\n");
    for (const std::string& mode : kModes) {
      for (int seed = 1; seed <= 3; ++seed) {
        test::ProcessResult r =
            test::run_agent(mode + ",seed=" + std::to_string(seed), d.path(), name);
        EXPECT_EQ(r.status, 0) << name << " " << mode << ": " << r.err;
        EXPECT_EQ(r.out, "old ok\n") << name << " " << mode;
        expect_clean(r, name + " " + mode);
      }
    }
    test::ProcessResult it = test::run_agent("strategy=random,seed=1,iterations=5", d.path(), name);
    EXPECT_EQ(it.status, 0) << name << ": " << it.err;
    expect_clean(it, name + " iterations");
  }
}

// hamcrest's Description, guice, mockito 1.9's NoOp: an interface compiled for Java 7 or
// earlier whose constant is an instance of its own nested class. Statics reset put a static
// call into its <clinit> through an InterfaceMethodref, which such a class may not hold: every
// run died with VerifyError and was reported as the program's bug.
TEST(ClassFiles, AnInterfaceBeforeJava8WithAConstantOfItsNestedClass) {
  const std::string cp = test::data_dir() + "/legacy";
  test::ProcessResult plain = test::run({test::java_bin(), "-cp", cp, "LegacyMain"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  std::vector<std::string> modes = kModes;
  modes.push_back("strategy=random,iterations=20");
  modes.push_back("strategy=random,iterations=5,statics=reload");
  for (const std::string& mode : modes) {
    for (int seed = 1; seed <= 5; ++seed) {
      test::ProcessResult r = test::run_agent(mode + ",seed=" + std::to_string(seed), cp,
                                              "LegacyMain", {"-Xverify:all"});
      EXPECT_EQ(r.status, 0) << mode << ": " << r.err;
      EXPECT_TRUE(has(r.out, "legacy ok")) << mode << ": " << r.out;
      expect_clean(r, mode);
    }
  }
}

// httpcore's BHttpConnectionBase, guice's Initializer: `new X(a != null ? a : b)`. Frames in the
// constructor's arguments name the uninitialized X by the offset of its `new`; statics reset put
// a call before that `new`, and the frames then named the call (ClassFormatError: "bad offset
// for Uninitialized").
TEST(ClassFiles, ANewWhoseArgumentsBranchKeepsItsFrames) {
  const std::string cp = test::data_dir() + "/agent";
  std::vector<std::string> modes = kModes;
  modes.push_back("strategy=random,iterations=20");
  for (const std::string& mode : modes) {
    for (int seed = 1; seed <= 5; ++seed) {
      test::ProcessResult r = test::run_agent(mode + ",seed=" + std::to_string(seed), cp,
                                              "UninitFrames", {"-Xverify:all"});
      EXPECT_EQ(r.status, 0) << mode << ": " << r.err;
      EXPECT_TRUE(has(r.out, "frames ok")) << mode << ": " << r.out;
      expect_clean(r, mode);
    }
  }
}

// A class the JVM refuses because of what jsched wrote into it is jsched's failure: exit
// status 2 and outcome "error" (in the report and in the runner's records), never a bug.
TEST(ClassFiles, AClassJschedBrokeEndsAsAnErrorNotABug) {
  test::TempDir d;
  const std::string cp = test::data_dir() + "/agent";
  const std::string report = d.path() + "/r.json";
  test::ProcessResult r =
      test::run({"env", "JSCHED_TEST_FAULT=break:UninitFrames$Box", test::java_bin(),
                 "-agentpath:" + test::agent_path() + "=strategy=random,seed=1,report=" + report,
                 "-cp", cp, "UninitFrames"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "jsched: ERROR")) << r.err;
  EXPECT_TRUE(has(r.err,
                  "jsched's own failure, not the program's: java.lang.VerifyError in "
                  "class UninitFrames$Box, which jsched rewrote"))
      << r.err;
  EXPECT_FALSE(has(r.err, "BUG")) << r.err;
  json::Value rep = json::parse(test::slurp(report));
  EXPECT_EQ(rep.str("outcome"), "error");
  EXPECT_EQ(rep.num("exit_status"), 2);
  // The runner: every run an error, no finding.
  test::ProcessResult run =
      test::run({"env", "JSCHED_TEST_FAULT=break:UninitFrames$Box", JSCHED_BIN, "run", "--runs",
                 "4", "--jobs", "2", "--strategy", "random", "--out", d.path() + "/o", "--", "java",
                 "-cp", cp, "UninitFrames"});
  std::vector<json::Value> recs = test::records(d.path() + "/o");
  ASSERT_EQ(recs.size(), 4u) << run.err;
  for (const json::Value& rec : recs) EXPECT_EQ(rec.str("outcome"), "error") << rec.dump();
  EXPECT_FALSE(has(run.out + run.err, "bug:")) << run.out << run.err;
}

// A class jsched was asked to instrument and could not read: the run cannot be trusted, so its
// verdict is an error naming the class, unless on-unsupported=warn lets it run on.
TEST(ClassFiles, AClassJschedCannotReadMakesTheVerdictAnError) {
  test::TempDir d;
  const std::string cp = test::data_dir() + "/agent";
  const std::string report = d.path() + "/r.json";
  auto run = [&](const std::string& options) {
    return test::run({"env", "JSCHED_TEST_FAULT=unreadable:UninitFrames$Box", test::java_bin(),
                      "-agentpath:" + test::agent_path() + "=" + options + ",report=" + report,
                      "-cp", cp, "UninitFrames"});
  };
  test::ProcessResult r = run("strategy=random,seed=1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.out, "frames ok")) << "the program ran: " << r.out;
  EXPECT_TRUE(has(r.err, "error: class UninitFrames$Box cannot be instrumented")) << r.err;
  EXPECT_TRUE(has(r.err, "jsched: ERROR")) << r.err;
  EXPECT_TRUE(has(r.err, "class UninitFrames$Box: unreadable for a test")) << r.err;
  json::Value rep = json::parse(test::slurp(report));
  EXPECT_EQ(rep.str("outcome"), "error");
  EXPECT_EQ(rep["classes_not_instrumented"].num("count"), 1);
  // In-JVM iterations stop at the first: none of them can be trusted.
  test::ProcessResult it = run("strategy=random,seed=1,iterations=10,explore");
  EXPECT_EQ(it.status, 2) << it.err;
  EXPECT_TRUE(has(it.err, "an error of jsched's in iteration 0")) << it.err;
  // on-unsupported=warn: a warning, and the verdict of the run.
  test::ProcessResult w = run("strategy=random,seed=1,on-unsupported=warn");
  EXPECT_EQ(w.status, 0) << w.err;
  EXPECT_TRUE(has(w.err, "warning: class UninitFrames$Box cannot be instrumented")) << w.err;
  EXPECT_EQ(json::parse(test::slurp(report)).str("outcome"), "ok");
}

// A linkage error naming code jsched added is jsched's, wherever it surfaces.
TEST(ClassFiles, ALinkageErrorNamingJschedsCodeIsAnError) {
  test::TempDir d;
  Buffer bytes = test::build_class(61, "CallsShim", "main", "([Ljava/lang/String;)V",
                                   acc::kPublic | acc::kStatic, [](test::CodeBuilder& b) {
                                     b.limits(1, 1).invoke(op::invokestatic, "java/lang/JSchedShim",
                                                           "noSuchHook", "()V");
                                     b.op(op::return_);
                                   });
  test::write_file(d.path() + "/CallsShim.class", bytes.data(), bytes.size());
  test::ProcessResult r = test::run_agent("strategy=random,seed=1", d.path(), "CallsShim");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "java.lang.NoSuchMethodError naming code jsched added")) << r.err;
}

// Every class of the JDK the tests run on (JDK 17's jmods, Temurin 25's runtime image, which
// has no jmods) reads, decodes and writes back byte for byte: class files up to version 69.
TEST(ClassFiles, EveryClassOfTheJdkRoundTrips) {
  test::TempDir d;
  test::ProcessResult x = test::run({test::jdk_home() + "/bin/jimage", "extract", "--dir", d.path(),
                                     test::jdk_home() + "/lib/modules"});
  ASSERT_EQ(x.status, 0) << x.err;
  test::ProcessResult r = test::run({JSCHED_BIN, "classfile", "roundtrip", d.path()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.out, m, std::regex("roundtrip: (\\d+) classes, 0 differ, 0 errors")))
      << r.out;
  EXPECT_GT(std::stoul(m[1]), 20000u) << r.out;
}
