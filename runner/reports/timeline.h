// A finding's execution drawn as a timeline (jsched minimize): one lane per thread, one mark
// per step in execution order with its operation and source line, pre-emptions highlighted,
// the conflicting pair of steps linked, the finding's stacks at the end. From a trace file the
// agent writes (trace=FILE).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jsched::runner {

struct TraceStep {
  uint64_t index = 0;
  uint32_t thread = 0;
  std::string op, where;  // where: "Class.method:line" (or "@bci"), "" for none
  std::string object;     // hex, all zeros for none
  bool preempt = false;
};

struct Trace {
  std::string outcome, summary;       // the finding: its kind and first line
  std::vector<std::string> threads;   // names, by id
  std::vector<bool> virtual_threads;  // by id: whether a virtual thread (JDK 21+)
  std::vector<TraceStep> steps;
  std::vector<std::string> detail;  // the finding's stacks
  // The last two steps of different threads on one object before the end, one of them a
  // write, a lock or a notify: the race or lock order the finding hangs on (-1: none).
  long conflict_a = -1, conflict_b = -1;
  // What the page draws as arrows between steps: the conflicting pair, and for a deadlock on
  // monitors each edge of the cycle (the step where the holder took the monitor -> the waiting
  // thread's last step).
  struct Arrow {
    long from, to;
    std::string from_label, to_label;  // the links' text at either end
  };
  std::vector<Arrow> arrows;
};

// Reads a trace file; `classpath` (':'-separated) resolves bytecode indices to source lines.
// Throws std::runtime_error naming the file and line.
Trace read_trace(const std::string& path, const std::string& classpath);

// Self-contained HTML (no network), readable for a few hundred steps: runs of one thread's
// steps without a pre-emption fold into one mark.
std::string timeline_html(const Trace& t, const std::string& title);
// A compact text form for the terminal.
std::string timeline_text(const Trace& t);

}  // namespace jsched::runner
