// Puts the calling thread on one CPU, its first allowed one, until leave() or the end of scope:
// the processes it forks meanwhile (a busy one, a JVM) inherit that CPU and share it, which is
// how tests make a machine that keeps a thread from running.
#pragma once

#include <sched.h>

namespace jsched::test {

class OneCpu {
 public:
  OneCpu() {
    if (sched_getaffinity(0, sizeof mine_, &mine_) != 0) return;
    int cpu = 0;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &mine_)) ++cpu;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    on_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~OneCpu() { leave(); }
  OneCpu(const OneCpu&) = delete;
  OneCpu& operator=(const OneCpu&) = delete;

  bool on() const { return on_; }
  // Back on the CPUs the thread had.
  void leave() {
    if (on_) sched_setaffinity(0, sizeof mine_, &mine_);
    on_ = false;
  }

 private:
  cpu_set_t mine_;
  bool on_ = false;
};

}  // namespace jsched::test
