// An execution's virtual clock: what System.nanoTime/currentTimeMillis, Instant.now and the
// system Clocks read, in the application and in the JDK's concurrency and time classes. Time is
// the scheduler's (docs/agent.md, "Time"): for controlled threads it is the model's time (a cost
// per step; sleeps and timeouts end at their deadlines, and when no thread can run it jumps to
// the earliest), plus one microsecond per read so that code spinning until a deadline without
// a scheduling point still gets there.
// A run's timeouts are then decisions of its schedule, not of the machine's speed, and replay
// reproduces them. Uncontrolled threads read real time plus the virtual advances (still monotonic
// for them).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace jsched::agent {

// The virtual time one scheduling step takes (docs/agent.md, "Time"): what code between two
// scheduling points takes on a real JVM, as measured by bench/step_time.sh. Sleeps and timeouts
// end only once the steps of the threads that run meanwhile add up to them.
inline constexpr int64_t kStepTimeNs = 1000;
// What a step takes in a warm JVM on cheap code (the same measure's low end): the time of steps
// when jsched checks that a failure does not come from its clock alone (docs/maven.md).
inline constexpr int64_t kFastStepNs = 10;
// What System.gc() takes: a full collection of a small heap (the other threads run meanwhile).
inline constexpr int64_t kGcTimeNs = 10'000'000;

class VirtualClock {
 public:
  // `model_now` reads the scheduler's time (ns since the execution began), or is null.
  explicit VirtualClock(std::function<int64_t()> model_now = nullptr);

  // What System.currentTimeMillis / nanoTime would say.
  static int64_t real(bool millis);
  // `millis` ms plus `nanos` ns, saturating (wait(Long.MAX_VALUE) is a wait for ever).
  static int64_t span(int64_t millis, int64_t nanos) {
    if (millis < 0) return 0;
    if (millis > (INT64_MAX - nanos) / 1000000) return INT64_MAX;
    return millis * 1000000 + nanos;
  }

  int64_t nanos(bool controlled);
  int64_t millis(bool controlled);
  // The wall clock in ns since the epoch (Instant.now's precision): millis() with the ns.
  int64_t epoch_nanos(bool controlled);
  static int64_t real_epoch_nanos();
  // The virtual time (ns since the start) when a park of Unsafe.park's arguments times out.
  int64_t deadline(bool absolute, int64_t time) const;
  // The virtual time when a timeout of `millis` ms and `nanos` ns from now expires.
  int64_t deadline_after(int64_t millis, int64_t nanos) const {
    return deadline(false, span(millis, nanos));
  }
  // That park timed out: virtual time is at least `deadline`.
  void advance_to(int64_t deadline);

 private:
  // Virtual ns since the start: the model's time, or more (reads, timeouts seen here).
  int64_t current() const;

  std::function<int64_t()> model_now_;
  int64_t base_ns_, base_ms_;
  std::atomic<int64_t> virtual_ns_{0};
};

}  // namespace jsched::agent
