#include "jvmti-agent/virtual_clock.h"

#include <time.h>

#include <cstdint>

namespace jsched::agent {

namespace {

int64_t read_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

constexpr int64_t kReadCost = 1000;

}  // namespace

int64_t VirtualClock::real(bool millis) {
  return millis ? read_ns(CLOCK_REALTIME) / 1000000 : read_ns(CLOCK_MONOTONIC);
}

VirtualClock::VirtualClock() : base_ns_(real(false)), base_ms_(real(true)) {}

int64_t VirtualClock::nanos(bool controlled) {
  if (controlled) return base_ns_ + virtual_ns_.fetch_add(kReadCost) + kReadCost;
  return real(false) + virtual_ns_.load();
}

int64_t VirtualClock::millis(bool controlled) {
  if (controlled) return base_ms_ + virtual_ns_.load() / 1000000;
  return real(true) + virtual_ns_.load() / 1000000;
}

int64_t VirtualClock::deadline(bool absolute, int64_t time) const {
  if (absolute) return (time - base_ms_) * 1000000;
  int64_t now = virtual_ns_.load();
  return time > INT64_MAX - now ? INT64_MAX : now + time;
}

void VirtualClock::advance_to(int64_t deadline) {
  int64_t now = virtual_ns_.load();
  while (now < deadline && !virtual_ns_.compare_exchange_weak(now, deadline)) {
  }
}

}  // namespace jsched::agent
