#include "scheduler/core/java_state.h"

#include "scheduler/core/model.h"

namespace jsched::sched {

JavaState Model::java_state(ThreadId id) const {
  const ThreadState& t = threads_.at(id);
  switch (t.status) {
    case ThreadState::Dead:
      return JavaState::Terminated;
    case ThreadState::Running:
      return JavaState::Runnable;
    case ThreadState::Detached:
      return JavaState::Unknown;
    case ThreadState::Waiting:
      return t.pending.timed ? JavaState::TimedWaiting : JavaState::Waiting;
    case ThreadState::Pending:
      break;
  }
  // A thread that could take its step now is runnable; a spurious wake-up it may be drawn
  // does not make a parked thread runnable.
  const bool ready =
      t.pending.kind == OpKind::Park
          ? t.permit || t.interrupted || (t.pending.slot >= 0 && may_time_out(t, now_))
          : is_enabled(t, now_);
  if (ready) return JavaState::Runnable;
  switch (t.pending.kind) {
    case OpKind::Enter:
    case OpKind::Reacquire:
      return JavaState::Blocked;
    case OpKind::Join:
    case OpKind::Park:
    case OpKind::Sleep:
      return t.pending.timed ? JavaState::TimedWaiting : JavaState::Waiting;
    default:
      return JavaState::Runnable;  // an I/O wait: the JVM says RUNNABLE in a socket read too
  }
}

}  // namespace jsched::sched
