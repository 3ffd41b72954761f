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

// Whether what would make `fd` ready for `events` may be on its way through the kernel: false
// only when that is known not to be so. A read of a connected loopback socket whose other end
// (a socket of this process) has nothing unacknowledged in its send queue has nothing coming
// but what a thread has yet to write; a pipe or an eventfd (a selector's wake-up) is written at
// once. An epoll set has something coming when one of its descriptors has. Anything else
// (a listening socket, whose connection may be half made; a write) may.
bool fd_in_flight(int fd, uint32_t events);

}  // namespace jsched::agent
