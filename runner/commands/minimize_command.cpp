// `jsched minimize [options] -- <a finding's replay command>`: the command line of
// runner/minimize/finding_minimizer.
#include <cstdio>

#include "jvmti-agent/shell_words.h"
#include "runner/batch/batch.h"
#include "runner/commands/cli_args.h"
#include "runner/commands/commands.h"
#include "runner/commands/exit_status.h"
#include "runner/minimize/finding_minimizer.h"

namespace jsched {

namespace runner {
std::string default_results_dir(const char* kind);
}

namespace {

const char* kMinimizeUsage =
    "usage: jsched minimize [options] -- <a finding's replay command>\n"
    "\n"
    "Replays the finding, then searches for the schedule with the fewest pre-emptions (switches\n"
    "away from a thread that could have gone on) that still ends in the same finding: delta\n"
    "debugging over the recorded pre-emptions, then removing each one left. Writes\n"
    "DIR/minimal.sched (replay it with replay=DIR/minimal.sched) and DIR/timeline.html, and\n"
    "prints 'preemptions: B -> A' and the replay command of the minimal schedule.\n"
    "\n"
    "  --out DIR          where to write (default jsched-results/minimize-<time>)\n"
    "  --max-runs N       executions the search may use (default 500)\n"
    "  --max-seconds S    time it all may take (default 120): the finding's run, the search\n"
    "                     and the checks; a search cut short keeps the fewest found so far\n"
    "  --text             also print the timeline as text\n"
    "\n"
    "Exit status: 0 the minimal schedule reproduces the finding (checked 3 times, or as often as\n"
    "the budget allows, once at least), 1 it does not or could not be checked,\n"
    "or the command's run found nothing to minimize, 2 usage error, 130 interrupted.\n";

}  // namespace

int cmd_minimize(const std::vector<std::string>& args) {
  using namespace runner;
  CliArgs cli(args, kMinimizeUsage);
  MinimizeRequest req;
  req.out = cli.value("--out", default_results_dir("minimize"));
  req.max_runs = cli.number("--max-runs", 500, 1, 1000000);
  req.max_seconds = double(cli.number("--max-seconds", 120, 1, kMaxTimeoutMs / 1000));
  req.text = cli.flag("--text");
  cli.done();
  req.command = cli.rest();
  req.progress = true;
  stop_batches_on_signals();
  MinimizeResult r = minimize_finding(req);
  if (r.usage) return cli.fail(r.error);
  if (r.interrupted) {
    std::fprintf(stderr, "\njsched: interrupted: nothing written\n");
    return kExitInterrupted;
  }
  if (r.minimal.empty()) {
    std::fprintf(stderr, "jsched: error: %s\n", r.error.c_str());
    return 1;
  }
  if (!r.timeline_error.empty())
    std::fprintf(stderr, "jsched: warning: no timeline: %s\n", r.timeline_error.c_str());
  std::fputs(r.timeline_text.c_str(), stdout);
  std::printf("%s: preemptions: %zu -> %zu (%llu executions, %.1f s)\n", r.kind.c_str(), r.before,
              r.after, (unsigned long long)r.executions, r.seconds);
  if (!r.cut_off.empty())
    std::printf("search cut short: %s; the schedule is the fewest pre-emptions found so far\n",
                r.cut_off.c_str());
  if (r.checks > 0 && r.checks < 3)
    std::printf("checked %d time(s): the budget left no time for more\n", r.checks);
  std::printf("minimal schedule: %s\n", r.minimal.c_str());
  if (!r.timeline.empty()) std::printf("timeline: %s\n", r.timeline.c_str());
  std::printf("replay: %s\n", agent::shell_join(r.replay).c_str());
  if (!r.error.empty()) {
    std::fprintf(stderr, "jsched: error: %s\n", r.error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace jsched
