// What a strategy may need of the program that runs it beyond its seed, options and a plan's
// counts: variable tracking (PCTVB), TSCA's schedule, HaPSet's learner, a schedule file. The
// agent implements it; a strategy that needs none of it never sees it (the registry's factories
// get it in StrategyArgs::host).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/core/op.h"

namespace jsched::sched {

class HapsetLearner;
class PctStrategy;
struct ScheduleLog;

class StrategyHost {
 public:
  virtual ~StrategyHost() = default;

  // One line for the user (the agent prefixes "jsched: ").
  virtual void note(const std::string& line) = 0;
  // This JVM runs several executions (iterations or test methods).
  virtual bool several_executions() const = 0;
  // PCTVB: have the accesses to the variables `pct` picked counted, and call its
  // change_point at each of its change points. `pct` outlives the execution's accesses.
  virtual void track_variables(PctStrategy& pct) = 0;
  // TSCA: the planned schedule (threads whose blocks run in order; empty: explore), and a
  // stable name of a scheduling point's site.
  virtual const std::vector<ThreadId>& tsca_schedule() const = 0;
  virtual std::string site_name(int32_t site) const = 0;
  // HaPSet: the pairs of statements this JVM (and its plan) have seen.
  virtual const HapsetLearner& hapset() const = 0;
  // replay= or follow=: the schedule file.
  virtual const ScheduleLog& schedule_log() const = 0;
};

}  // namespace jsched::sched
