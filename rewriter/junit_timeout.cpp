#include "rewriter/junit_timeout.h"

#include <stdexcept>
#include <string>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "rewriter/method_rewriter.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;

cf::Buffer divert_jupiter_timeout(cf::Bytes class_bytes) {
  cf::ClassFile cf = cf::ClassFile::parse(class_bytes);
  constexpr std::string_view kSchedule =
      "(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)"
      "Ljava/util/concurrent/ScheduledFuture;";
  const uint16_t shim =
      cf.cp.add_methodref("java/lang/JSchedShim", "scheduleTestTimeout",
                          "(Ljava/lang/Object;Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)"
                          "Ljava/util/concurrent/ScheduledFuture;");
  int replaced = 0;
  for (cf::Member& m : cf.methods) {
    if (m.code_attr < 0) continue;
    cf::Code& code = cf.decode_code(m);
    bool here = false;
    for (Insn& in : code.insns) {
      if (in.is_label() || in.op != op::invokeinterface) continue;
      auto ref = cf.cp.member_ref(in.u);
      if (ref.owner == "java/util/concurrent/ScheduledExecutorService" && ref.name == "schedule" &&
          ref.desc == kSchedule) {
        in = Insn::make(op::invokestatic, shim);  // the same arguments, the receiver first
        here = true;
        ++replaced;
      }
    }
    if (here) relocate(cf, m, code);
  }
  if (replaced == 0)
    throw std::runtime_error(std::string(cf.name()) +
                             ": no ScheduledExecutorService.schedule call (a JUnit version jsched "
                             "does not know)");
  return cf.write();
}

}  // namespace jsched::rw
