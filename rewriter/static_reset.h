// Clean static state in every execution of one JVM without loading classes again
// (docs/agent.md, "Several executions in one JVM"). The JVM runs a class's static initializer
// once; to run it again at the start of each execution that uses the class:
//
// - the initializer becomes an ordinary method, jsched$clinit, which first sets every static
//   field to its default value; the JVM's <clinit> stamps the class with the current execution
//   (java.lang.JSchedStatics.generation, in jsched$gen) and calls it;
// - the class's static methods and constructors start with jsched$check, which runs
//   jsched$clinit again (through JSchedStatics, with the JVM's rules for concurrent and
//   recursive initialization) when the stamp is an earlier execution's;
// - an access to another class's static field, or an allocation of it, first calls this
//   class's jsched$touch$N for that class, which asks JSchedStatics.touch(thatClass) to do the
//   same for it, once per execution. Together these are the JVM's own triggers of
//   initialization (JVMS 5.5) at the same instructions.
//
// Static fields lose ACC_FINAL: they are assigned outside <clinit> now, and the JIT must not
// fold a value that changes between executions. Compile-time constants (ConstantValue) keep
// it. The checks are plain code, not scheduling points.
#pragma once

#include <string>
#include <string_view>

#include "rewriter/method_rewriter.h"

namespace jsched::rw {

inline constexpr std::string_view kStaticsClass = "java/lang/JSchedStatics";

// Adds the checks to method `m` (after its instrumentation, so that they sit right before the
// instructions that initialize classes). Returns whether the code changed. Throws
// std::exception when it cannot (the class then cannot load rewritten at all).
bool add_reset_checks(ClassContext& ctx, cf::Member& m);

// Turns the class's initializer into jsched$clinit and adds jsched$gen, jsched$check and the new
// <clinit>. Returns why the class's statics cannot start clean in a later execution (an
// interface with a static initializer: its fields stay final), or "" when they can.
std::string make_resettable(ClassContext& ctx);

// Why a class of this version cannot take part at all ("" when it can): its checks need
// `ldc Class` (version 49).
std::string reset_unsupported(const cf::ClassFile& cf);

}  // namespace jsched::rw
