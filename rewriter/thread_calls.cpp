#include "rewriter/thread_calls.h"

#include "classfile/opcodes.h"

namespace jsched::rw {

namespace op = cf::op;

std::optional<CallMatch> match_call(uint8_t o, std::string_view name, std::string_view desc) {
  if (o == op::invokevirtual || o == op::invokeinterface) {
    if (name == "wait") {
      if (desc == "()V")
        return CallMatch{Hook::ObjectWait, SiteKind::Wait, CallMatch::ObjectMethod};
      if (desc == "(J)V")
        return CallMatch{Hook::ObjectWaitTimed, SiteKind::Wait, CallMatch::ObjectMethod};
      if (desc == "(JI)V")
        return CallMatch{Hook::ObjectWaitNanos, SiteKind::Wait, CallMatch::ObjectMethod};
    } else if (name == "notify" && desc == "()V") {
      return CallMatch{Hook::ObjectNotify, SiteKind::Notify, CallMatch::ObjectMethod};
    } else if (name == "notifyAll" && desc == "()V") {
      return CallMatch{Hook::ObjectNotifyAll, SiteKind::NotifyAll, CallMatch::ObjectMethod};
    } else if (name == "start" && desc == "()V") {
      return CallMatch{Hook::ThreadStart, SiteKind::ThreadStart, CallMatch::ThreadInstance};
    } else if (name == "join") {
      if (desc == "()V")
        return CallMatch{Hook::ThreadJoin, SiteKind::Join, CallMatch::ThreadInstance};
      if (desc == "(J)V")
        return CallMatch{Hook::ThreadJoinTimed, SiteKind::Join, CallMatch::ThreadInstance};
      if (desc == "(JI)V")
        return CallMatch{Hook::ThreadJoinNanos, SiteKind::Join, CallMatch::ThreadInstance};
    } else if (name == "interrupt" && desc == "()V") {
      return CallMatch{Hook::ThreadInterrupt, SiteKind::Interrupt, CallMatch::ThreadInstance};
    } else if (name == "isAlive" && desc == "()Z") {
      return CallMatch{Hook::ThreadIsAlive, SiteKind::Yield, CallMatch::ThreadInstance};
    } else if (name == "suspend" && desc == "()V") {
      return CallMatch{Hook::ThreadSuspend, SiteKind::Interrupt, CallMatch::ThreadInstance};
    } else if (name == "resume" && desc == "()V") {
      return CallMatch{Hook::ThreadResume, SiteKind::Interrupt, CallMatch::ThreadInstance};
    } else if (name == "stop" && desc == "()V") {
      return CallMatch{Hook::ThreadStop, SiteKind::Interrupt, CallMatch::ThreadInstance};
    } else if (name == "getState" && desc == "()Ljava/lang/Thread$State;") {
      return CallMatch{Hook::ThreadGetState, SiteKind::Yield, CallMatch::ThreadInstance};
    } else if (name == "isInterrupted" && desc == "()Z") {
      return CallMatch{Hook::ThreadIsInterrupted, SiteKind::IsInterrupted,
                       CallMatch::ThreadInstance};
    }
  } else if (o == op::invokestatic) {
    if (name == "sleep") {
      if (desc == "(J)V")
        return CallMatch{Hook::ThreadSleep, SiteKind::Sleep, CallMatch::ThreadStatic};
      if (desc == "(JI)V")
        return CallMatch{Hook::ThreadSleepNanos, SiteKind::Sleep, CallMatch::ThreadStatic};
    } else if (name == "yield" && desc == "()V") {
      return CallMatch{Hook::ThreadYield, SiteKind::Yield, CallMatch::ThreadStatic};
    } else if (name == "interrupted" && desc == "()Z") {
      return CallMatch{Hook::ThreadInterrupted, SiteKind::Interrupted, CallMatch::ThreadStatic};
    } else if (name == "onSpinWait" && desc == "()V") {
      return CallMatch{Hook::ThreadOnSpinWait, SiteKind::Yield, CallMatch::ThreadStatic};
    }
  }
  return std::nullopt;
}

}  // namespace jsched::rw
