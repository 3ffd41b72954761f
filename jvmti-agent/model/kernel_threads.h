// What Linux says of a thread of this process (/proc/self/task/<tid>/stat): whether it runs or
// waits for a CPU (R) or is asleep (S, D), and how much CPU it has had. The JVM's view cannot
// tell a thread blocked in the kernel from one the machine did not run, nor a spin from a
// starved thread; the watchdog needs both.
#pragma once

#include <optional>

namespace jsched::agent {

struct KernelThread {
  char state = '?';
  double cpu_s = 0;  // user and system time, s (counted in clock ticks of 10 ms)
};

// Thread `tid` of this process, or nothing (unknown, ended).
std::optional<KernelThread> kernel_thread(int tid);

}  // namespace jsched::agent
