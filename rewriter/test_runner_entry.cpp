#include "rewriter/test_runner_entry.h"

#include <stdexcept>
#include <string>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/method_rewriter.h"

namespace jsched::rw {

namespace {

namespace op = cf::op;
using cf::Insn;

constexpr std::string_view kShim = "java/lang/JSchedShim";
constexpr std::string_view kContext =
    "Lorg/junit/jupiter/engine/execution/JupiterEngineExecutionContext;";
constexpr std::string_view kParentField = "jsched$parent";

cf::Member* method(cf::ClassFile& cf, std::string_view name, std::string_view desc) {
  for (cf::Member& m : cf.methods) {
    if (cf.member_name(m) == name && cf.member_desc(m) == desc && m.code_attr >= 0) return &m;
  }
  return nullptr;
}

[[noreturn]] void unexpected(const cf::ClassFile& cf, const std::string& what) {
  throw std::runtime_error(std::string(cf.name()) + ": " + what +
                           " (a JUnit version jsched does not know)");
}

// runLeaf(statement, description, notifier): `statement.evaluate()` becomes
// `JSchedShim.runJunit4Test(statement, description)`.
void divert_junit4(cf::ClassFile& cf) {
  cf::Member* m = method(cf, "runLeaf",
                         "(Lorg/junit/runners/model/Statement;Lorg/junit/runner/Description;"
                         "Lorg/junit/runner/notification/RunNotifier;)V");
  if (m == nullptr) unexpected(cf, "no runLeaf(Statement, Description, RunNotifier)");
  cf::Code& code = cf.decode_code(*m);
  const uint16_t run =
      cf.cp.add_methodref(kShim, "runJunit4Test", "(Ljava/lang/Object;Ljava/lang/Object;)V");
  cf::Vec<Insn> out(code.resource());
  int replaced = 0;
  for (const Insn& in : code.insns) {
    if (!in.is_label() && in.op == op::invokevirtual) {
      auto ref = cf.cp.member_ref(in.u);
      if (ref.owner == "org/junit/runners/model/Statement" && ref.name == "evaluate" &&
          ref.desc == "()V") {
        out.push_back(Insn::make(op::aload_2));  // the description
        out.push_back(Insn::make(op::invokestatic, run));
        ++replaced;
        continue;
      }
    }
    out.push_back(in);
  }
  if (replaced != 1) unexpected(cf, "runLeaf does not evaluate its statement once");
  code.insns = std::move(out);
  code.max_stack = uint16_t(code.max_stack + 1);
  relocate(cf, *m, code);
}

// prepare(parent) keeps `parent`; execute(context, dynamicTestExecutor) goes to the driver.
void divert_jupiter(cf::ClassFile& cf) {
  const std::string prepare_desc = "(" + std::string(kContext) + ")" + std::string(kContext);
  const std::string execute_desc = "(" + std::string(kContext) +
                                   "Lorg/junit/platform/engine/support/hierarchical/"
                                   "Node$DynamicTestExecutor;)" +
                                   std::string(kContext);
  cf::Member* prepare = method(cf, "prepare", prepare_desc);
  cf::Member* execute = method(cf, "execute", execute_desc);
  if (prepare == nullptr || execute == nullptr) unexpected(cf, "no prepare and execute");
  const uint16_t execute_access = execute->access;
  execute->name = cf.cp.add_utf8("jsched$execute");
  execute->access = uint16_t((execute_access & ~(cf::acc::kPrivate | cf::acc::kProtected)) |
                             cf::acc::kPublic | cf::acc::kSynthetic);

  cf.add_field(cf::acc::kPrivate | cf::acc::kSynthetic, kParentField, "Ljava/lang/Object;");
  const uint16_t parent =
      cf.cp.add_member(cf::Tag::Fieldref, cf.name(), kParentField, "Ljava/lang/Object;");
  cf::Code& code = cf.decode_code(*prepare);  // prepare may have moved: methods grew by none
  cf::Vec<Insn> out(code.resource());
  out.push_back(Insn::make(op::aload_0));
  out.push_back(Insn::make(op::aload_1));
  out.push_back(Insn::make(op::putfield, parent));
  out.insert(out.end(), code.insns.begin(), code.insns.end());
  code.insns = std::move(out);
  code.max_stack = std::max<uint16_t>(code.max_stack, 2);
  relocate(cf, *prepare, code);

  const uint16_t run = cf.cp.add_methodref(
      kShim, "runJupiterTest",
      "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)"
      "Ljava/lang/Object;");
  const uint16_t context_class =
      cf.cp.add_class("org/junit/jupiter/engine/execution/JupiterEngineExecutionContext");
  cf::Member& w =
      cf.add_method(uint16_t(execute_access & ~cf::acc::kSynthetic), "execute", execute_desc, true);
  cf::Code& wc = *w.code;
  for (uint8_t o : {op::aload_0, op::aload_1, op::aload_2, op::aload_0})
    wc.insns.push_back(Insn::make(o));
  wc.insns.push_back(Insn::make(op::getfield, parent));
  wc.insns.push_back(Insn::make(op::invokestatic, run));
  wc.insns.push_back(Insn::make(op::checkcast, context_class));
  wc.insns.push_back(Insn::make(op::areturn));
  wc.max_stack = 4;
  wc.max_locals = 3;
}

// runBare() keeps its body as jsched$runBare; runBare() calls JSchedShim.runJunit3Test(this).
void divert_junit3(cf::ClassFile& cf) {
  cf::Member* bare = method(cf, "runBare", "()V");
  if (bare == nullptr) unexpected(cf, "no runBare()");
  const uint16_t access = bare->access;
  bare->name = cf.cp.add_utf8("jsched$runBare");
  bare->access = uint16_t((access & ~(cf::acc::kPrivate | cf::acc::kProtected)) | cf::acc::kPublic |
                          cf::acc::kSynthetic);
  const uint16_t run = cf.cp.add_methodref(kShim, "runJunit3Test", "(Ljava/lang/Object;)V");
  cf::Member& w = cf.add_method(access, "runBare", "()V", true);
  cf::Code& wc = *w.code;
  wc.insns.push_back(Insn::make(op::aload_0));
  wc.insns.push_back(Insn::make(op::invokestatic, run));
  wc.insns.push_back(Insn::make(op::return_));
  wc.max_stack = 1;
  wc.max_locals = 1;
}

}  // namespace

bool is_test_runner_entry(std::string_view n) {
  return n == kJunit4Runner || n == kJupiterTestMethod || n == kJunit3TestCase;
}

cf::Buffer divert_test_runner_entry(cf::Bytes class_bytes) {
  cf::ClassFile cf = cf::ClassFile::parse(class_bytes);
  if (cf.name() == kJunit4Runner)
    divert_junit4(cf);
  else if (cf.name() == kJupiterTestMethod)
    divert_jupiter(cf);
  else if (cf.name() == kJunit3TestCase)
    divert_junit3(cf);
  else
    throw std::invalid_argument(std::string(cf.name()) + " is no test runner entry");
  return cf.write();
}

}  // namespace jsched::rw
