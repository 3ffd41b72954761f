// The driver's waits between two executions (for the execution's end, for its threads' ends,
// for its thread 0 to wait for the next one): one process-wide condition, and a thread that
// changes what the driver waits for wakes it only when what it waits for now holds. The driver
// waits on the execution's CPU, so every wake-up pre-empts the thread that woke it, and a
// driver woken to find it must wait on cost a round trip of two context switches at each
// thread's end (about a fifth of a small execution that finds its bug).
#pragma once

#include <chrono>
#include <functional>

namespace jsched::agent::driver_wake {

// Waits until `done` holds, at most `limit`; whether it holds. `done` is evaluated under the
// condition's lock, by the driver and by the threads that notify(): it must not take a lock
// that a caller of notify() holds.
bool wait_for(std::chrono::milliseconds limit, const std::function<bool()>& done);

// What a driver may wait for has changed: it is woken if its condition holds now.
void notify();

}  // namespace jsched::agent::driver_wake
