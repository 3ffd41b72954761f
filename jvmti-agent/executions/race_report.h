// The races an execution's detector saw (scheduler/races/race_detector.h), as the log, the
// report and the runner name them. A race's key is the same in every JVM that runs the same
// class files, whichever of its two accesses came first.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "jvmti-agent/instrumentation/site_registry.h"
#include "scheduler/races/race_detector.h"

namespace jsched::agent {

struct RaceText {
  std::string key;   // "<site> <R|W> / <site> <R|W>", the two sites in order
  std::string text;  // one line: the field, the two accesses, their threads
};

// `thread_name` gives a thread's stable name ("0", "0.1", ...).
std::vector<RaceText> describe_races(
    const sched::RaceDetector& d, const SiteRegistry& sites,
    const std::function<std::string(sched::ThreadId)>& thread_name);

}  // namespace jsched::agent
