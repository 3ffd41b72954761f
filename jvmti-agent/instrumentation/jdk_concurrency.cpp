#include "jvmti-agent/instrumentation/jdk_concurrency.h"

namespace jsched::agent {

namespace {

bool is_timer_class(std::string_view n) {
  return n == "java/util/Timer" || n.substr(0, 16) == "java/util/Timer$" ||
         n == "java/util/TimerThread" || n == "java/util/TaskQueue" || n == "java/util/TimerTask";
}

// From JDK 21 on, java.util.concurrent's executors and pools start their threads through these
// (JavaLangAccess.start(thread, container)), not Thread.start().
bool starts_threads(std::string_view n) {
  return n == "jdk/internal/vm/SharedThreadContainer" || n == "jdk/internal/misc/ThreadFlock";
}

}  // namespace

bool is_environment_class(std::string_view n) {
  for (const char* c : kEnvironmentClasses) {
    if (n == c) return true;
  }
  return false;
}

std::optional<rw::RewriteConfig> jdk_concurrency_config(std::string_view name,
                                                        const rw::RewriteConfig& app) {
  rw::RewriteConfig c;
  c.hook_owner = app.hook_owner;
  c.accesses = rw::Accesses::None;
  c.allocations = false;
  c.virtual_clock = true;
  if (is_timer_class(name)) return c;  // monitors, wait/notify and thread calls
  if (is_environment_class(name)) {    // their clock reads and seeds only
    c.monitors = false;
    c.calls = false;
    c.seeded_randomness = true;
    c.io_waits = true;
    return c;
  }
  if (starts_threads(name)) {  // their JavaLangAccess.start calls only
    c.monitors = false;
    c.object_calls = false;
    return c;
  }
  if (name.substr(0, 21) != "java/util/concurrent/") return std::nullopt;
  // No monitors: only one controlled thread runs at a time and none stops inside j.u.c. code
  // except in park, so their monitors are never contended by controlled threads; and no
  // wait/notify, whose hooks need those monitors modelled. TimeUnit.timedWait(obj, t) is the
  // exception: it waits on its caller's object, whose monitor is the program's (a wait the model
  // did not see would leave the monitor held in the model for ever).
  c.monitors = false;
  c.object_calls = name == "java/util/concurrent/TimeUnit";
  c.park_calls = true;
  return c;
}

}  // namespace jsched::agent
