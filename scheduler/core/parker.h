// A binary semaphore on a futex: one thread parks, another hands it a permit. A permit given
// before the park is kept, so a handoff to a thread that has not yet arrived is not lost.
#pragma once

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace jsched::sched {

class Parker {
 public:
  // `yields`: how often to give up the CPU before sleeping, where the permit is likely to come
  // back from a thread on the same CPU before long (no futex call on either side then).
  void park(int yields = 0) {
    for (int i = 0; i < yields; ++i) {
      if (permit_.exchange(0, std::memory_order_acquire) == 1) return;
      sched_yield();
    }
    for (;;) {
      if (permit_.exchange(0, std::memory_order_acquire) == 1) return;
      waiting_.store(1, std::memory_order_seq_cst);
      if (permit_.load(std::memory_order_seq_cst) == 0) {
        syscall(SYS_futex, &permit_, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
      }
      waiting_.store(0, std::memory_order_relaxed);
    }
  }
  void unpark() {
    if (give()) wake();
  }
  // unpark in two halves: the permit, and whether the owner must be woken (wake(), which may
  // come later: the permit is kept).
  bool give() {
    permit_.store(1, std::memory_order_seq_cst);
    // Skip the system call when the owner is not (about to be) asleep.
    return waiting_.load(std::memory_order_seq_cst) != 0;
  }
  void wake() { syscall(SYS_futex, &permit_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0); }
  // A permit given and not yet taken: the owner is about to run, not stuck.
  bool pending() const { return permit_.load(std::memory_order_seq_cst) != 0; }
  // The owner sleeps on the futex (or is about to): a permit now needs wake().
  bool sleeping() const { return waiting_.load(std::memory_order_seq_cst) != 0; }

 private:
  std::atomic<uint32_t> permit_{0};
  std::atomic<uint32_t> waiting_{0};
};

}  // namespace jsched::sched
