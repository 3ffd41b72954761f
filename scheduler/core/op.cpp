#include "scheduler/core/op.h"

#include <cstddef>

namespace jsched::sched {

namespace {
const char* const kNames[] = {"begin",     "continue", "enter", "wait",   "reacquire", "notify",
                              "notifyAll", "join",     "sleep", "yield",  "interrupt", "read",
                              "write",     "park",     "sync",  "iowait", "exit",      "start",
                              "unpark",    "end",      "busy"};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == size_t(OpKind::Count));
}  // namespace

const char* op_name(OpKind k) {
  return kNames[size_t(k)];
}

bool op_from_name(std::string_view name, OpKind& out) {
  for (size_t i = 0; i < size_t(OpKind::Count); ++i) {
    if (name == kNames[i]) {
      out = OpKind(i);
      return true;
    }
  }
  return false;
}

Footprint footprint(ThreadId self, const Op& op) {
  Footprint f;
  switch (op.kind) {
    case OpKind::Enter:
    case OpKind::Wait:
    case OpKind::Reacquire:
    case OpKind::Notify:
    case OpKind::NotifyAll:
    case OpKind::Exit:
      f.space = Footprint::Monitor;
      f.key = op.obj;
      f.write = true;
      break;
    case OpKind::Sync:
      if (op.obj == kNoObject) break;  // a static call: nothing shared that we can name
      f.space = Footprint::Monitor;
      f.key = op.obj;
      f.write = op.write;
      break;
    case OpKind::Join:
    case OpKind::Interrupt:
    case OpKind::Start:
    case OpKind::Unpark:
      f.space = Footprint::ThreadObj;
      f.key = op.target;
      f.write = true;
      break;
    case OpKind::Begin:
    case OpKind::End:
    case OpKind::Park:
    case OpKind::IoWait:  // the peer's writes are not operations: nothing to depend on
      f.space = Footprint::ThreadObj;
      f.key = self;
      f.write = true;
      break;
    case OpKind::Read:
    case OpKind::Write:
      f.space = Footprint::Variable;
      f.key = op.obj;
      f.key2 = uint64_t(op.slot);
      f.write = op.kind == OpKind::Write;
      break;
    default:
      break;  // Continue, Sleep, Yield, Busy touch nothing shared
  }
  return f;
}

bool dependent(ThreadId a, const Op& x, ThreadId b, const Op& y) {
  if (a == b) return true;
  Footprint fx = footprint(a, x), fy = footprint(b, y);
  return fx.space != Footprint::None && fx == fy && (fx.write || fy.write);
}

}  // namespace jsched::sched
