#include "jvmti-agent/executions/driver_wake.h"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace jsched::agent::driver_wake {

namespace {
// Never destroyed: the driver may wait as the process exits, and destroying a condition
// variable with a waiter blocks exit.
std::mutex& g_mu = *new std::mutex;
std::condition_variable& g_cv = *new std::condition_variable;
// The waiting driver's condition (one driver at a time: driver_mutex), under g_mu.
const std::function<bool()>* g_waiting = nullptr;
}  // namespace

bool wait_for(std::chrono::milliseconds limit, const std::function<bool()>& done) {
  std::unique_lock<std::mutex> lk(g_mu);
  const std::function<bool()>* outer = std::exchange(g_waiting, &done);
  const bool held = g_cv.wait_for(lk, limit, done);
  g_waiting = outer;
  return held;
}

void notify() {
  bool wake = false;
  {
    std::lock_guard<std::mutex> g(g_mu);
    wake = g_waiting != nullptr && (*g_waiting)();
  }
  if (wake) g_cv.notify_all();
}

}  // namespace jsched::agent::driver_wake
