// A lock for very short critical sections on paths that run at every access of a profile run:
// its release is a plain store where std::mutex's is an atomic read-modify-write, which matters
// at hundreds of millions of acquisitions. Waiters yield (one thread at a time runs under the
// scheduler, so a holder is rarely descheduled).
#pragma once

#include <sched.h>

#include <atomic>

namespace jsched::agent {

class SpinLock {
 public:
  void lock() {
    while (held_.exchange(true, std::memory_order_acquire)) sched_yield();
  }
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

}  // namespace jsched::agent
