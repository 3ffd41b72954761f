// Operations threads perform at scheduling points, and the dependence relation
// (docs/architecture.md, "Dependence").
#pragma once

#include <cstdint>
#include <string_view>

namespace jsched::sched {

using ThreadId = uint32_t;  // creation index: 0 is the thread that runs main
using ObjectId = uint64_t;  // stable name of an object, assigned by the caller
inline constexpr ThreadId kNoThread = 0xffffffffu;
inline constexpr ObjectId kNoObject = 0;

enum class OpKind : uint8_t {
  Begin,      // a new thread's first step
  Continue,   // nothing pending (after a monitor release or a start)
  Enter,      // acquire monitor `obj`
  Wait,       // release monitor `obj` and join its wait set
  Reacquire,  // internal: leave the wait set and take `obj` back
  Notify,
  NotifyAll,
  Join,  // wait for thread `target` to end
  Sleep,
  Yield,
  Interrupt,  // set `target`'s interrupt flag
  Read,       // variable (obj, slot)
  Write,
  Park,    // LockSupport.park: proceeds once the thread has a permit (or is interrupted, or at
           // a step with a spurious wake-up); `timed`: times out at virtual time `slot`
  Sync,    // a java.util.concurrent call on object `obj` (`write`: it may change the object)
  IoWait,  // blocking I/O on file descriptor `obj` (a socket, or an epoll set) for the poll
           // events in `var`: proceeds once the descriptor is ready; `timed`: or at virtual
           // time `slot`, when no thread can run otherwise
  // Applied when the thread arrives (the real operation already happened or must happen now):
  Exit,    // released monitor `obj`
  Start,   // created thread `target`
  Unpark,  // gave thread `target` its permit
  End,     // the thread terminated
  // (Kept last: kinds are numbered in fingerprints and plans.)
  Busy,  // the thread works `slot` ns of virtual time (System.gc): others run meanwhile; `timed`
  Count
};

const char* op_name(OpKind k);
// The operation named `name` by op_name; false if none is.
bool op_from_name(std::string_view name, OpKind& out);

struct Op {
  OpKind kind = OpKind::Continue;
  ObjectId obj = kNoObject;  // monitor, or the object of a variable
  int64_t slot = -1;         // variable: field id or array index
  ThreadId target = kNoThread;
  bool timed = false;  // Wait, Join, Park
  bool write = true;   // Sync
  int32_t site = 0;    // instrumentation site (0: none)
  uint64_t var = 0;    // Read/Write: the PCTVB variable (static field or allocation site)
  uint64_t where = 0;  // HaPSet statement: site and calling context (0: not computed)
  // Read/Write: an access that orders rather than races (a volatile or final field, a static
  // initializer's): scheduler/races/race_detector.h.
  bool ordered = false;
  // Sync: the object through which it orders other calls, when not `obj` (a lock's
  // synchronizer, which its conditions share): scheduler/races/race_detector.h.
  ObjectId orders_through = kNoObject;

  static Op of(OpKind k) {
    Op o;
    o.kind = k;
    return o;
  }
  static Op monitor(OpKind k, ObjectId m, int32_t site = 0) {
    Op o;
    o.kind = k;
    o.obj = m;
    o.site = site;
    return o;
  }
  static Op variable(bool write, ObjectId obj, int64_t slot, int32_t site = 0) {
    Op o;
    o.kind = write ? OpKind::Write : OpKind::Read;
    o.obj = obj;
    o.slot = slot;
    o.site = site;
    return o;
  }
  static Op sync(ObjectId obj, bool write, int32_t site) {
    Op o;
    o.kind = OpKind::Sync;
    o.obj = obj;
    o.write = write;
    o.site = site;
    return o;
  }
  static Op thread(OpKind k, ThreadId target, bool timed = false, int32_t site = 0) {
    Op o;
    o.kind = k;
    o.target = target;
    o.timed = timed;
    o.site = site;
    return o;
  }
};

// What an operation touches for dependence: a monitor, a thread (its Thread object), or a
// variable; `write` tells whether two touches of the same thing conflict (reads commute).
struct Footprint {
  enum Space : uint8_t { None, Monitor, ThreadObj, Variable } space = None;
  uint64_t key = 0, key2 = 0;
  bool write = false;
  bool operator==(const Footprint& o) const {
    return space == o.space && key == o.key && key2 == o.key2;
  }
};

// `self` performs `op`.
Footprint footprint(ThreadId self, const Op& op);

// A step that touches something shared: not a thread's first step, not a bare continue. SURW
// weighs these, and profile runs count them (ThreadState::choices).
inline bool touches_shared(const Op& op) {
  return op.kind != OpKind::Begin && op.kind != OpKind::Continue;
}

// Same thread, or the same monitor / thread / variable with at least one write.
bool dependent(ThreadId a, const Op& x, ThreadId b, const Op& y);

}  // namespace jsched::sched
