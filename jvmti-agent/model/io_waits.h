// Blocking socket I/O under the scheduler: a controlled thread that would block in a socket
// read, accept or connect, or in Selector.select, waits in the model instead (an IoWait
// operation, enabled once the descriptor is ready), so a client and a server that both read
// first are a deadlock with both stacks, not a hang after the timeout. Only descriptors whose
// other end is in this process are modelled (a loopback connection to a socket of its own, a
// listening socket on a loopback address, an epoll set of such descriptors): for any other,
// readiness depends on the world outside, and the thread blocks for real (a hidden block).
#pragma once

#include <cstdint>

namespace jsched::agent {

// Whether `fd` is ready for the poll(2) `events` now (an error or a hang-up counts as ready).
bool fd_ready(int fd, uint32_t events);

// Whether every party that can make `fd` ready is in this process (above).
bool peer_in_process(int fd);

}  // namespace jsched::agent
