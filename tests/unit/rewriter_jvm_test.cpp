// Rewritten classes run on the real JVM with every class verified, behave exactly as before,
// and call each hook as often as the program performs the operation.
#include <gtest/gtest.h>

#include <sstream>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/frame_state.h"
#include "tests/support/code_builder.h"
#include "tests/support/rewrite_helpers.h"
#include "tests/support/test_paths.h"

using namespace jsched;
using namespace jsched::cf;
using jsched::test::CodeBuilder;

namespace {

std::string plain_dir() {
  return test::data_dir() + "/rewriter";
}

struct Ran {
  test::ProcessResult plain, instrumented;
  test::InstrumentStats stats;
};

Ran run_both(const std::string& main, const rw::RewriteConfig& cfg) {
  test::TempDir out;
  test::RecordingSink sink;
  Ran r;
  r.stats = test::instrument_dir(plain_dir(), out.path(), cfg, sink);
  r.plain = test::run_verified(plain_dir(), main);
  r.instrumented = test::run_verified(out.path(), main);
  return r;
}

// A full frame (locals in slot form) at `at`.
void add_frame(ClassFile& cf, Code& code, Label at, std::vector<VType> locals) {
  CodeAttr* smt = code.find(CodeAttr::StackMap);
  if (!smt) {
    smt = &code.attrs.emplace_back(code.resource());
    smt->kind = CodeAttr::StackMap;
    smt->name = cf.cp.add_utf8("StackMapTable");
  }
  Frame& f = smt->frames.emplace_back(code.resource());
  f.type = 255;
  f.at = at;
  f.locals.assign(locals.begin(), locals.end());
}

VType obj(ClassFile& cf, const char* cls) {
  return VType{VType::Object, cf.cp.add_class(cls), kNoLabel};
}
VType int_t() {
  return VType{VType::Integer, 0, kNoLabel};
}

void println_int(CodeBuilder& b, uint16_t local) {
  b.field(op::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  b.local(op::iload, local);
  b.invoke(op::invokevirtual, "java/io/PrintStream", "println", "(I)V");
}

void add_default_ctor(ClassFile& cf) {
  Member& m = cf.add_method(acc::kPublic, "<init>", "()V", true);
  CodeBuilder b(cf, m);
  b.limits(1, 1).op(op::aload_0).invoke(op::invokespecial, "java/lang/Object", "<init>", "()V");
  b.op(op::return_);
}

}  // namespace

class Programs : public ::testing::TestWithParam<bool> {};

TEST_P(Programs, SyncCasesBehaveIdentically) {
  Ran r = run_both("SyncCases", test::test_config(GetParam()));
  ASSERT_EQ(r.plain.status, 0) << r.plain.err;
  EXPECT_EQ(r.instrumented.status, 0) << r.instrumented.err;
  EXPECT_EQ(r.instrumented.out, r.plain.out);
  EXPECT_TRUE(r.stats.warnings.empty()) << r.stats.warnings[0];
  auto counts = test::hook_counts(r.instrumented.err);
  // 5 inc, 5 manyReturns, longReturn, doubleReturn, 2 staticSync, 2 thrower, 11 recursive,
  // 3 nested blocks, 1 exception-exiting block.
  EXPECT_EQ(counts["monitorEnter"], 31);
  EXPECT_EQ(counts["monitorExit"], 31);
}

// HotSpot's compilers take a method only if its monitors balance on every path, exception
// paths included; a method they refuse runs interpreted for the life of the JVM. -Xcomp
// compiles each method at its first call, so one run per compiler asks about every method of
// SyncCases: synchronized methods (instance, static, several returns, a throw) and blocks
// (nested, left by an exception).
TEST_P(Programs, SyncCasesCompileUnderC1AndC2) {
  test::TempDir out;
  test::RecordingSink sink;
  test::instrument_dir(plain_dir(), out.path(), test::test_config(GetParam()), sink);
  const std::vector<std::vector<std::string>> compilers = {{"-XX:TieredStopAtLevel=1"},
                                                           {"-XX:-TieredCompilation"}};
  for (const std::vector<std::string>& compiler : compilers) {
    std::vector<std::string> args = {"-Xcomp", "-Xbatch", "-XX:+PrintCompilation",
                                     "-XX:CompileCommand=quiet",
                                     "-XX:CompileCommand=compileonly,SyncCases::*"};
    args.insert(args.end(), compiler.begin(), compiler.end());
    test::ProcessResult r = test::run_verified(out.path(), "SyncCases", args);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* method : {"inc", "manyReturns", "longReturn", "doubleReturn", "staticSync",
                               "thrower", "recursive", "nestedBlocks", "exceptionExitingBlock"})
      EXPECT_NE(r.out.find("SyncCases::" + std::string(method) + " ("), std::string::npos)
          << compiler[0] << ": " << method << " was not compiled";
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      EXPECT_EQ(line.find("COMPILE SKIPPED"), std::string::npos) << compiler[0] << ": " << line;
  }
}

TEST_P(Programs, ThreadCasesBehaveIdentically) {
  Ran r = run_both("ThreadCases", test::test_config(GetParam()));
  ASSERT_EQ(r.plain.status, 0) << r.plain.err;
  EXPECT_EQ(r.instrumented.status, 0) << r.instrumented.err;
  EXPECT_EQ(r.instrumented.out, r.plain.out);
  auto c = test::hook_counts(r.instrumented.err);
  EXPECT_EQ(c["threadStart"], 4);  // two workers (one through an interface), t, sleeper
  EXPECT_EQ(c["threadJoin"], 3);   // bridged w.join(), t.join(), sleeper.join()
  EXPECT_EQ(c["threadJoinTimed"], 1);
  EXPECT_EQ(c["threadJoinNanos"], 1);
  EXPECT_EQ(c["threadSleep"], 3);  // Worker.sleep(1) twice through bridges, sleeper
  EXPECT_EQ(c["threadSleepNanos"], 1);
  EXPECT_EQ(c["threadYield"], 3);
  EXPECT_EQ(c["resolvesToThread"], 6);  // 4 in workers + BelowShadow.sleep + Shadow.sleep
  EXPECT_EQ(c["threadInterrupt"], 2);
  EXPECT_EQ(c["threadInterrupted"], 2);
  EXPECT_EQ(c["threadIsInterrupted"], 1);
  EXPECT_GE(c["objectWaitTimed"] + c["objectWaitNanos"] + c["objectWait"], 1);
  EXPECT_GE(c["objectNotify"], 2);
  EXPECT_EQ(c["objectNotifyAll"], 1);
}

INSTANTIATE_TEST_SUITE_P(MonitorsAndCallsOrEverything, Programs, ::testing::Bool());

// A loop whose backward conditional branch and forward goto span 20 KB before instrumentation
// and 50 KB after: the goto becomes goto_w and the if_icmplt becomes if_icmpge around a goto_w,
// with a new frame at the fall-through point.
TEST(Relocation, GrowthForcesGotoWAndInvertedBranches) {
  const int kAccesses = 5000;
  ClassFile cf = ClassFile::create(52, "Huge", "java/lang/Object");
  cf.add_field(acc::kStatic, "f", "I");
  Member& m = cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
  CodeBuilder b(cf, m);
  Label loop = b.label(), check = b.label();
  b.limits(3, 2).iconst(0).local(op::istore, 1).branch(op::goto_, check);
  b.place(loop);
  for (int k = 0; k < kAccesses; ++k) b.field(op::getstatic, "Huge", "f", "I").op(op::pop);
  b.iinc(1, 1);
  b.place(check).local(op::iload, 1).iconst(3).branch(op::if_icmplt, loop);
  println_int(b, 1);
  b.op(op::return_);
  std::vector<VType> locals = {obj(cf, "[Ljava/lang/String;"), int_t()};
  add_frame(cf, *m.code, loop, locals);
  add_frame(cf, *m.code, check, locals);
  Buffer original = cf.write();

  test::TempDir dir;
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  ClassFile out = ClassFile::parse(r.bytes);
  Code& code = out.decode_code(out.methods[0]);
  int goto_w = 0, icmpge = 0;
  for (const Insn& in : code.insns) {
    goto_w += in.op == op::goto_w;
    icmpge += in.op == op::if_icmpge;
  }
  EXPECT_EQ(goto_w, 2);  // the widened goto and the one after the inverted branch
  EXPECT_EQ(icmpge, 1);
  test::copy_test_hooks(dir.path());
  test::write_class(dir.path(), "Huge", r.bytes);
  test::ProcessResult p = test::run_verified(dir.path(), "Huge");
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "3\n");
  EXPECT_EQ(test::hook_counts(p.err)["getStatic"], 3 * kAccesses + 1);
}

TEST(Relocation, MethodThatWouldExceed64KIsLeftAsItWasWithAWarning) {
  ClassFile cf = ClassFile::create(52, "Full", "java/lang/Object");
  cf.add_field(acc::kStatic, "f", "I");
  Member& m = cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
  CodeBuilder b(cf, m);
  b.limits(2, 1);
  for (int k = 0; k < 65530; ++k) b.op(op::nop);  // 65535 bytes in all
  b.field(op::getstatic, "Full", "f", "I").op(op::pop).op(op::return_);
  Buffer original = cf.write();
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(true), sink);
  EXPECT_EQ(r.status, rw::RewriteResult::Unchanged);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("main([Ljava/lang/String;)V left uninstrumented"), std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("65535"), std::string::npos);
}

// Switches after an instrumented instruction, at each of the four alignments, with and without
// frames: padding must change and every target must still land where it did.
class SwitchPadding : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(SwitchPadding, TargetsSurviveRealignment) {
  auto [major, shift] = GetParam();
  std::string name = "Sw" + std::to_string(major) + "_" + std::to_string(shift);
  ClassFile cf = ClassFile::create(uint16_t(major), name, "java/lang/Object");
  cf.add_field(acc::kStatic, "f", "I");
  Member& m = cf.add_method(acc::kPublic | acc::kStatic, "pick", "(I)I", true);
  {
    CodeBuilder b(cf, m);
    b.limits(2, 1);
    for (int k = 0; k < shift; ++k) b.op(op::nop);
    b.field(op::getstatic, name, "f", "I").op(op::pop).local(op::iload, 0);
    Label c0 = b.label(), c1 = b.label(), c2 = b.label(), dflt = b.label(), l7 = b.label(),
          l100 = b.label(), after = b.label();
    Code& code = b.code();
    Switch sw;
    sw.low = 0;
    sw.high = 2;
    sw.dflt = dflt;
    sw.first = uint32_t(code.switch_targets.size());
    sw.count = 3;
    for (Label l : {c0, c1, c2}) code.switch_targets.push_back(l), code.switch_keys.push_back(0);
    code.switches.push_back(sw);
    code.insns.push_back(Insn::make(op::tableswitch, 0, int32_t(code.switches.size() - 1)));
    b.place(c0).iconst(10).op(op::ireturn);
    b.place(c1).iconst(11).op(op::ireturn);
    b.place(c2).iconst(12).op(op::ireturn);
    b.place(dflt).field(op::getstatic, name, "f", "I").op(op::pop).local(op::iload, 0);
    Switch lk;
    lk.dflt = after;
    lk.first = uint32_t(code.switch_targets.size());
    lk.count = 2;
    code.switch_keys.push_back(7), code.switch_targets.push_back(l7);
    code.switch_keys.push_back(100), code.switch_targets.push_back(l100);
    code.switches.push_back(lk);
    code.insns.push_back(Insn::make(op::lookupswitch, 0, int32_t(code.switches.size() - 1)));
    b.place(l7).iconst(70).op(op::ireturn);
    b.place(l100).iconst(1000).op(op::ireturn);
    b.place(after).iconst(-1).op(op::ireturn);
    if (major >= 50) {
      for (Label l : {c0, c1, c2, dflt, l7, l100, after}) add_frame(cf, code, l, {int_t()});
    }
  }
  Member& main = cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
  {
    CodeBuilder b(cf, main);
    b.limits(3, 1);
    for (int v : {0, 1, 2, 7, 100, 5}) {
      b.field(op::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
      b.iconst(v).invoke(op::invokestatic, name, "pick", "(I)I");
      b.invoke(op::invokevirtual, "java/io/PrintStream", "println", "(I)V");
    }
    b.op(op::return_);
  }
  Buffer original = cf.write();
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  test::TempDir dir;
  test::copy_test_hooks(dir.path());
  test::write_class(dir.path(), name, r.bytes);
  test::ProcessResult p = test::run_verified(dir.path(), name);
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "10\n11\n12\n70\n1000\n-1\n");
}

INSTANTIATE_TEST_SUITE_P(AllAlignments, SwitchPadding,
                         ::testing::Combine(::testing::Values(49, 52),
                                            ::testing::Values(0, 1, 2, 3)));

// Versions 45 to 49: no frames, static synchronized methods (which need `ldc Class`, so the
// class moves to version 49), and a jsr/ret subroutine inside a synchronized block.
class OldClass : public ::testing::TestWithParam<int> {};

TEST_P(OldClass, SynchronizedAndSubroutinesRunVerified) {
  uint16_t major = uint16_t(GetParam());
  std::string name = "Old" + std::to_string(major);
  ClassFile cf = ClassFile::create(major, name, "java/lang/Object");
  cf.add_field(acc::kStatic, "n", "I");
  add_default_ctor(cf);
  {
    Member& s = cf.add_method(acc::kStatic | acc::kSynchronized, "bump", "()I", true);
    CodeBuilder b(cf, s);
    b.limits(2, 0).field(op::getstatic, name, "n", "I").iconst(1).op(op::iadd);
    b.op(op::dup).field(op::putstatic, name, "n", "I").op(op::ireturn);
  }
  {
    Member& i = cf.add_method(acc::kPublic | acc::kSynchronized, "twice", "(I)I", true);
    CodeBuilder b(cf, i);
    b.limits(2, 2).local(op::iload, 1).iconst(2).op(op::imul).op(op::ireturn);
  }
  {
    // static int sub(Object lock): monitorenter; jsr SUB; jsr SUB; monitorexit; return count
    Member& j = cf.add_method(acc::kStatic, "sub", "(Ljava/lang/Object;)I", true);
    CodeBuilder b(cf, j);
    Label subr = b.label(), done = b.label();
    b.limits(2, 3).iconst(0).local(op::istore, 1);
    b.local(op::aload, 0).op(op::monitorenter);
    b.branch(op::jsr, subr).branch(op::jsr, subr);
    b.local(op::aload, 0).op(op::monitorexit).branch(op::goto_, done);
    b.place(subr).local(op::astore, 2).iinc(1, 5).local(op::ret, 2);
    b.place(done).local(op::iload, 1).op(op::ireturn);
  }
  {
    Member& main =
        cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
    CodeBuilder b(cf, main);
    b.limits(3, 2);
    b.invoke(op::invokestatic, name, "bump", "()I").op(op::pop);
    b.invoke(op::invokestatic, name, "bump", "()I").local(op::istore, 1);
    println_int(b, 1);
    b.type(op::new_, name).op(op::dup).invoke(op::invokespecial, name, "<init>", "()V");
    b.iconst(21).invoke(op::invokevirtual, name, "twice", "(I)I").local(op::istore, 1);
    println_int(b, 1);
    b.type(op::new_, "java/lang/Object").op(op::dup);
    b.invoke(op::invokespecial, "java/lang/Object", "<init>", "()V");
    b.invoke(op::invokestatic, name, "sub", "(Ljava/lang/Object;)I").local(op::istore, 1);
    println_int(b, 1);
    b.op(op::return_);
  }
  Buffer original = cf.write();
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
  EXPECT_EQ(ClassFile::parse(r.bytes).major, std::max<uint16_t>(major, 49));
  test::TempDir dir;
  test::copy_test_hooks(dir.path());
  test::write_class(dir.path(), name, r.bytes);
  test::ProcessResult p = test::run_verified(dir.path(), name);
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "2\n42\n10\n");
  auto c = test::hook_counts(p.err);
  EXPECT_EQ(c["monitorEnter"], 4);  // bump twice, twice once, the block in sub once
  EXPECT_EQ(c["monitorExit"], 4);
}

INSTANTIATE_TEST_SUITE_P(Versions45To49, OldClass, ::testing::Values(45, 46, 47, 48, 49));

// A synchronized instance method that overwrites slot 0: the monitor must still be the
// original `this`, kept in a new local that every frame carries.
TEST(SynchronizedMethod, StoringIntoSlotZeroKeepsTheRightMonitor) {
  ClassFile cf = ClassFile::create(52, "Slot0", "java/lang/Object");
  add_default_ctor(cf);
  {
    Member& m =
        cf.add_method(acc::kPublic | acc::kSynchronized, "m", "(Ljava/lang/Object;)I", true);
    CodeBuilder b(cf, m);
    Label skip = b.label();
    b.limits(2, 2).local(op::aload, 1).branch(op::ifnull, skip);
    b.local(op::aload, 1).local(op::astore, 0);
    b.place(skip);
    // Return whether we still hold our own monitor (Thread.holdsLock on the original this is
    // checked by the caller); here just return 7 after using slot 0.
    b.local(op::aload, 0).invoke(op::invokevirtual, "java/lang/Object", "hashCode", "()I");
    b.op(op::pop).iconst(7).op(op::ireturn);
    add_frame(cf, b.code(), skip, {obj(cf, "java/lang/Object"), obj(cf, "java/lang/Object")});
  }
  {
    Member& main =
        cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
    CodeBuilder b(cf, main);
    b.limits(4, 2);
    b.type(op::new_, "Slot0").op(op::dup).invoke(op::invokespecial, "Slot0", "<init>", "()V");
    b.local(op::astore, 1);
    b.local(op::aload, 1)
        .op(op::aconst_null)
        .invoke(op::invokevirtual, "Slot0", "m", "(Ljava/lang/Object;)I");
    b.op(op::pop);
    b.local(op::aload, 1)
        .ldc_string("x")
        .invoke(op::invokevirtual, "Slot0", "m", "(Ljava/lang/Object;)I");
    b.op(op::pop);
    // Neither call may leave the monitor of the Slot0 instance held.
    b.field(op::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    b.local(op::aload, 1)
        .invoke(op::invokestatic, "java/lang/Thread", "holdsLock", "(Ljava/lang/Object;)Z");
    b.invoke(op::invokevirtual, "java/io/PrintStream", "println", "(Z)V");
    b.op(op::return_);
  }
  Buffer original = cf.write();
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(false), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  ClassFile out = ClassFile::parse(r.bytes);
  for (Member& mm : out.methods) {
    if (out.member_name(mm) != "m") continue;
    EXPECT_FALSE(mm.access & acc::kSynchronized);
    EXPECT_EQ(out.decode_code(mm).max_locals, 3);  // the kept `this`
  }
  test::TempDir dir;
  test::copy_test_hooks(dir.path());
  test::write_class(dir.path(), "Slot0", r.bytes);
  test::ProcessResult p = test::run_verified(dir.path(), "Slot0");
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "false\n");
  EXPECT_EQ(test::hook_counts(p.err)["monitorEnter"], 2);
}

// Groovy's compiler leaves dead code with a frame of its own after a throw: in a synchronized
// method, `athrow; athrow` where the second has a frame with no locals. The handler that
// releases the monitor covered it, and the type checker refused the class ("Stack map does not
// match the one at exception handler"): the handler must cover reachable code only.
TEST(DeadCode, ASynchronizedMethodsHandlerSkipsDeadCodeWithFramesOfItsOwn) {
  ClassFile cf = ClassFile::create(52, "DeadCode", "java/lang/Object");
  add_default_ctor(cf);
  {
    Member& m = cf.add_method(acc::kPublic | acc::kSynchronized, "boom", "()V", true);
    CodeBuilder b(cf, m);
    Label dead = b.label();
    b.limits(2, 1).type(op::new_, "java/lang/IllegalStateException").op(op::dup);
    b.invoke(op::invokespecial, "java/lang/IllegalStateException", "<init>", "()V");
    b.op(op::athrow).place(dead).op(op::athrow);
    add_frame(cf, b.code(), dead, {});
    b.code()
        .find(CodeAttr::StackMap)
        ->frames.back()
        .stack.push_back(obj(cf, "java/lang/Throwable"));
  }
  Member& main = cf.add_method(acc::kPublic | acc::kStatic, "main", "([Ljava/lang/String;)V", true);
  {
    CodeBuilder b(cf, main);
    b.limits(2, 1).type(op::new_, "DeadCode").op(op::dup);
    b.invoke(op::invokespecial, "DeadCode", "<init>", "()V");
    b.invoke(op::invokevirtual, "DeadCode", "boom", "()V").op(op::return_);
  }
  Buffer original = cf.write();
  test::TempDir dir;
  test::copy_test_hooks(dir.path());
  test::write_class(dir.path(), "DeadCode", original);
  test::ProcessResult plain = test::run_verified(dir.path(), "DeadCode");
  ASSERT_NE(plain.err.find("java.lang.IllegalStateException"), std::string::npos) << plain.err;
  test::RecordingSink sink;
  rw::RewriteResult r = rw::rewrite_class(original, test::test_config(true), sink);
  ASSERT_EQ(r.status, rw::RewriteResult::Changed) << r.error;
  test::write_class(dir.path(), "DeadCode", r.bytes);
  test::ProcessResult p = test::run_verified(dir.path(), "DeadCode");
  EXPECT_EQ(p.err.find("VerifyError"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("java.lang.IllegalStateException"), std::string::npos) << p.err;
  EXPECT_EQ(test::hook_counts(p.err)["monitorEnter"], 1) << p.err;
  EXPECT_EQ(test::hook_counts(p.err)["monitorExit"], 1) << "the handler released it: " << p.err;
}
