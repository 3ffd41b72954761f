// Races on plain fields seen in one execution (docs/agent.md, "Races"): two accesses of
// different threads to the same field or array element, at least one a write, with nothing
// ordering them: no monitor released by one and taken by the other, no start or join, no
// unpark and park, no volatile write read by the other, no java.util.concurrent call on a
// common object. A happens-before check over vector clocks, as the race detection phase of Sen's
// race-directed random testing (docs/references.md), fed every operation the model executes.
//
// It sees what the scheduler sees: the accesses that are scheduling points (accesses=shared or
// all) and every synchronization operation. An ordering it cannot see (a lock inside JDK code
// jsched does not instrument, class initialization) would make a race of accesses that are
// ordered, so accesses to final and volatile fields and inside static initializers come marked
// `ordered` (Op::ordered) and order rather than race. A java.util.concurrent call orders what
// came before it with every later call on the same object, whatever the method: a race through
// one is missed rather than made up; a lock's calls and its conditions' count as calls on one
// object, the lock's synchronizer (Op::orders_through), since a thread that awaits a condition
// releases the lock inside the JDK. The call's start publishes what its thread did; what it
// learns is taken at its return, which the model does not see (a lock() may take the lock by a
// compare-and-set inside the JDK, long after its start, once another thread's unlock() came):
// at the thread's next event that is not a park, an unpark or a yield (what the JDK's blocking
// code does inside the call). No other thread runs between the return and that event unless
// the thread parks or yields there itself; then a race with what ran meanwhile may be missed.
#pragma once

#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "scheduler/core/flat_table.h"
#include "scheduler/core/location_table.h"
#include "scheduler/core/op.h"

namespace jsched::sched {

struct RaceAccess {
  ThreadId thread = kNoThread;
  int32_t site = 0;
  bool write = false;
};

// `first` ran before `second` in this execution, and nothing ordered them.
struct Race {
  ObjectId obj = kNoObject;
  int64_t slot = -1;
  RaceAccess first, second;
};

class RaceDetector {
 public:
  // Every executed operation of thread `t`, in the order the model executes them.
  void event(ThreadId t, const Op& op);
  // Each pair of sites (and access kinds) once, in the order first seen.
  const std::vector<Race>& races() const { return races_; }
  // Locations followed so far; past kMaxLocations no new one is (races() says what it saw).
  size_t locations() const { return locations_.size(); }
  bool saturated() const { return saturated_; }
  static constexpr size_t kMaxLocations = 1 << 20;

 private:
  using Clock = std::vector<uint32_t>;
  struct Epoch {
    ThreadId thread = kNoThread;
    uint32_t time = 0;
    int32_t site = 0;
  };
  // The reads since the last write, one per thread: most locations have one reader at a time,
  // kept in place; the others of several readers are in more_reads_ (a location is met at
  // nearly every access, and an allocation for each was a tenth of a heavy program's time).
  static constexpr uint32_t kNoList = UINT32_MAX;
  struct Location {
    Epoch write;
    Epoch read;
    uint32_t more = kNoList;  // index in more_reads_
  };
  struct Key {
    ObjectId obj;
    int64_t slot;
  };
  struct ObjectHash {
    size_t operator()(ObjectId o) const {
      const uint64_t h = o * 0x9E3779B97F4A7C15ULL;
      return size_t(h ^ (h >> 29));
    }
  };

  Clock& clock(ThreadId t);
  void tick(ThreadId t) { ++clock(t)[t]; }
  static void join(Clock& into, const Clock& from);
  bool ordered_before(const Epoch& e, ThreadId t) const;
  void access(ThreadId t, const Op& op);
  void report(const Op& op, const Epoch& earlier, bool earlier_write, ThreadId t);

  std::vector<Clock> threads_;
  std::vector<Clock> ended_;    // by thread: its clock when it ended (join)
  std::vector<Clock> permits_;  // by thread: what unparked it
  // By thread: the java.util.concurrent object of its last call if that may not have returned
  // yet (kNoObject: none). One is enough: every event but a park, unpark or yield settles it.
  std::vector<ObjectId> in_call_;
  void returned(ThreadId t);
  FlatTable<ObjectId, Clock, ObjectHash> monitors_, receivers_;  // monitors, j.u.c. objects
  LocationTable<Clock> volatiles_;                               // ordered locations
  LocationTable<Location> locations_;                            // plain ones
  std::vector<std::vector<Epoch>> more_reads_;
  std::vector<uint32_t> free_lists_;  // of more_reads_, empty
  Location* location(const Key& key);
  void read(Location& loc, const Epoch& now);
  void clear_reads(Location& loc);
  bool saturated_ = false;
  std::set<std::tuple<int32_t, bool, int32_t, bool>> seen_;
  std::vector<Race> races_;
};

}  // namespace jsched::sched
