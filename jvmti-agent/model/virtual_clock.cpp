#include "jvmti-agent/model/virtual_clock.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>

namespace jsched::agent {

namespace {

int64_t read_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

constexpr int64_t kReadCost = 1000;

// The latest nanoTime any execution of this JVM gave a controlled thread: the next execution's
// clock starts there, so time never goes back for what outlives an execution (a static
// executor's scheduled tasks, say).
std::atomic<int64_t> g_high_ns{0};

void note_high(int64_t ns) {
  int64_t h = g_high_ns.load();
  while (h < ns && !g_high_ns.compare_exchange_weak(h, ns)) {
  }
}

}  // namespace

int64_t VirtualClock::real(bool millis) {
  return millis ? read_ns(CLOCK_REALTIME) / 1000000 : read_ns(CLOCK_MONOTONIC);
}

VirtualClock::VirtualClock(std::function<int64_t()> model_now)
    : model_now_(std::move(model_now)), base_ns_(real(false)), base_ms_(real(true)) {
  const int64_t behind = g_high_ns.load() - base_ns_;
  if (behind > 0) {
    base_ns_ += behind;
    base_ms_ += behind / 1000000;
  }
}

int64_t VirtualClock::current() const {
  const int64_t v = virtual_ns_.load();
  return model_now_ ? std::max(v, model_now_()) : v;
}

int64_t VirtualClock::nanos(bool controlled) {
  if (!controlled) return real(false) + current();
  // The model's time, and never less than a read before plus one microsecond.
  int64_t v = virtual_ns_.load();
  int64_t next;
  do {
    next = std::max(v, model_now_ ? model_now_() : v) + kReadCost;
  } while (!virtual_ns_.compare_exchange_weak(v, next));
  note_high(base_ns_ + next);
  return base_ns_ + next;
}

int64_t VirtualClock::real_epoch_nanos() {
  return read_ns(CLOCK_REALTIME);
}

int64_t VirtualClock::epoch_nanos(bool controlled) {
  if (!controlled) return real_epoch_nanos() + current();
  // A read, as nanos() makes one: the ns part follows the same virtual time.
  return base_ms_ * 1000000 + (nanos(true) - base_ns_);
}

int64_t VirtualClock::millis(bool controlled) {
  if (controlled) {
    const int64_t c = current();
    note_high(base_ns_ + c);
    return base_ms_ + c / 1000000;
  }
  return real(true) + current() / 1000000;
}

int64_t VirtualClock::deadline(bool absolute, int64_t time) const {
  if (absolute) return (time - base_ms_) * 1000000;
  int64_t now = current();
  return time > INT64_MAX - now ? INT64_MAX : now + time;
}

void VirtualClock::advance_to(int64_t deadline) {
  int64_t now = virtual_ns_.load();
  while (now < deadline && !virtual_ns_.compare_exchange_weak(now, deadline)) {
  }
  if (deadline < INT64_MAX - base_ns_) note_high(base_ns_ + deadline);
}

}  // namespace jsched::agent
