#include "jvmti-agent/model/kernel_threads.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <sstream>
#include <string>

namespace jsched::agent {

std::optional<KernelThread> kernel_thread(int tid) {
  if (tid <= 0) return std::nullopt;
  // Plain read(2): the thread may end between open and read, which makes the read fail with ESRCH
  // (an ifstream would throw from inside the scheduler's watchdog).
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/stat";
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[512];
  const ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0) return std::nullopt;
  const std::string stat(buf, size_t(n));
  const size_t paren = stat.rfind(')');  // the command name may contain spaces and parentheses
  if (paren == std::string::npos || paren + 2 >= stat.size()) return std::nullopt;
  // After the state: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime.
  std::istringstream in(stat.substr(paren + 2));
  KernelThread k;
  std::string skip;
  uint64_t utime = 0, stime = 0;
  in >> k.state;
  for (int i = 0; i < 10; ++i) in >> skip;
  in >> utime >> stime;
  const long hz = sysconf(_SC_CLK_TCK);
  k.cpu_s = double(utime + stime) / double(hz > 0 ? hz : 100);
  return k;
}

}  // namespace jsched::agent
