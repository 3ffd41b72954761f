// Real time for the watchdog's short windows (a deadlock confirmed, I/O in flight, threads
// outside the execution given their chance to act): it passes only in the steps between polls
// that came on time, each counted up to kMaxStepNs. A process the kernel or the hypervisor did
// not run for a while (a loaded CI machine, a VM paused, SIGSTOP) did not run its other threads
// either; counting that time would end a window none of them had, and a helper's 50 ms of grace
// spent frozen made a time jump, a timeout the program never had: a false finding.
#pragma once

#include <algorithm>
#include <cstdint>

namespace jsched::agent {

class GraceClock {
 public:
  // A poll at real time `now_ns`; the clock's time then.
  uint64_t advance(uint64_t now_ns) {
    if (now_ns <= last_ns_) return grace_ns_;
    if (last_ns_ != 0) grace_ns_ += std::min(now_ns - last_ns_, kMaxStepNs);
    last_ns_ = now_ns;
    return grace_ns_;
  }
  uint64_t now() const { return grace_ns_; }
  // Polls come every millisecond: a step five times as long is time nobody ran.
  static constexpr uint64_t kMaxStepNs = 5'000'000;

 private:
  uint64_t last_ns_ = 0, grace_ns_ = 0;
};

}  // namespace jsched::agent
