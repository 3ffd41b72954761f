// Abstract programs (docs/architecture.md, "The scheduler"): threads as lists of operations on
// named variables and locks, run by the same Model and strategies as real programs, so strategy
// statistics can be measured exactly and quickly in unit tests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "scheduler/core/model.h"
#include "scheduler/core/strategy.h"
#include "scheduler/hapset/hapset.h"

namespace jsched::sched {

struct AbstractOp {
  enum Kind : uint8_t {
    Write,  // var := value
    Check,  // read var; the run has a bug if it equals value (an assertion)
    Read,   // read var (no check)
    Lock,
    Unlock,
    Wait,  // on lock `var` (held)
    Notify,
    NotifyAll,
    Yield,
    Load,       // register `value` := var (a read)
    Increment,  // var := var + 1 (one read-modify-write access)
    Assert,     // no access: the run has a bug if `check` (over the registers) is false
  } kind;
  uint32_t var = 0;  // variable or lock number
  int64_t value = 0;
  std::function<bool(const std::vector<int64_t>& regs)> predicate;

  static AbstractOp write(uint32_t v, int64_t x) { return {Write, v, x, {}}; }
  static AbstractOp check(uint32_t v, int64_t bad) { return {Check, v, bad, {}}; }
  static AbstractOp read(uint32_t v) { return {Read, v, 0, {}}; }
  static AbstractOp lock(uint32_t l) { return {Lock, l, 0, {}}; }
  static AbstractOp unlock(uint32_t l) { return {Unlock, l, 0, {}}; }
  static AbstractOp wait(uint32_t l) { return {Wait, l, 0, {}}; }
  static AbstractOp notify(uint32_t l) { return {Notify, l, 0, {}}; }
  static AbstractOp notify_all(uint32_t l) { return {NotifyAll, l, 0, {}}; }
  static AbstractOp load(uint32_t v, uint32_t reg) { return {Load, v, reg, {}}; }
  static AbstractOp increment(uint32_t v) { return {Increment, v, 0, {}}; }
  static AbstractOp assert_that(std::function<bool(const std::vector<int64_t>&)> f) {
    return {Assert, 0, 0, std::move(f)};
  }
};

struct AbstractProgram {
  std::vector<std::vector<AbstractOp>> threads;  // all start together
  uint32_t variables = 8;                        // initial value 0
  // A scheduling point right after each Unlock, as the agent makes one after every monitor
  // exit (TSCA's block boundaries need it; the models in Sen's and Bindal et al.'s papers have
  // none).
  bool release_points = false;
};

struct AbstractRun {
  bool bug = false;       // a Check failed
  bool deadlock = false;  // threads left, none enabled
  uint64_t steps = 0;
  std::string fingerprint;
  std::map<uint32_t, uint64_t> accesses;  // variable -> accesses in this run
};

// Runs the program once under `strategy`. Each operation's site is its index in its thread
// plus one. With a learner, the run's HaPSet events feed it (statement: thread and site), and
// its pairs become known if the run ends without a bug or deadlock.
AbstractRun run_abstract(const AbstractProgram& p, Strategy& strategy,
                         HapsetLearner* learner = nullptr);

// The PCTVB variable id of abstract variable `v` (what Op::var carries for its accesses).
uint64_t abstract_variable(uint32_t v);

}  // namespace jsched::sched
