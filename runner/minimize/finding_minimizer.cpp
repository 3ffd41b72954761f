#include "runner/minimize/finding_minimizer.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "jvmti-agent/shell_words.h"
#include "protocol/json.h"
#include "protocol/outcome.h"
#include "runner/batch/background_removal.h"
#include "runner/batch/batch.h"
#include "runner/batch/executor.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/run_checks.h"
#include "runner/reports/timeline.h"
#include "scheduler/replay/preemption_search.h"

namespace jsched::runner {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A timeline has a row per pre-emption; past this many it is no help to a reader.
constexpr size_t kMaxTimelinePreemptions = 10000;

struct Outcome {
  std::string kind;  // ok, bug, deadlock, hang, error
  std::string key;   // what must stay the same: kind and where
  std::string detail;
};

class Minimizer {
 public:
  Minimizer(std::vector<std::string> command, size_t agent_arg, std::string dir, uint64_t max_runs,
            double max_seconds)
      : command_(std::move(command)),
        agent_arg_(agent_arg),
        dir_(std::move(dir)),
        max_runs_(max_runs),
        deadline_(Clock::now() + seconds(max_seconds)),
        search_deadline_(deadline_) {
    const std::string& a = command_[agent_arg_];
    agent_path_ = a.substr(11, a.find('=') - 11);
    // Where the pasted run wrote its report and schedule is the minimizer's to say.
    for (const auto& [k, v] : split_params(a.substr(a.find('=') + 1))) {
      if (k == "report" || k == "record") continue;
      if (k == "timeout") timeout_ = v;
      original_options_ += (original_options_.empty() ? "" : ",") + k + (v.empty() ? "" : "=" + v);
    }
  }

  // The agent options every candidate and replay keeps from the pasted command: its timeout.
  std::string kept() const { return timeout_.empty() ? "" : ",timeout=" + timeout_; }
  int last_status() const { return last_status_; }
  // The last line the last JVM printed (an agent's usage error, say).
  std::string last_line() const {
    std::ifstream in(dir_ + "/work/run.log");
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    return last;
  }

  uint64_t runs() const { return runs_; }
  bool out_of_budget() const {
    return runs_ >= max_runs_ || Clock::now() > search_deadline_ || interrupt_requested();
  }
  // The search ended because its time ran out (not its executions, nor a search that ended).
  bool out_of_time() const { return Clock::now() > search_deadline_; }
  // The search stops `reserve` seconds before the budget ends, for checking what it found.
  void keep_for_checks(double reserve) { search_deadline_ = deadline_ - seconds(reserve); }
  // Time left for runs, in seconds.
  double left() const { return std::chrono::duration<double>(deadline_ - Clock::now()).count(); }
  // The last JVM was killed when its part of the budget ended.
  bool cut_off() const { return cut_off_; }

  // One JVM with these agent options; the report's outcome. A JVM still running when the
  // budget ends is killed (a schedule of millions of steps takes long to follow): the budget
  // holds whatever the schedule's size. The search's candidates end with the search's part.
  std::optional<Outcome> run(const std::string& options) { return run(options, deadline_); }
  std::optional<Outcome> run(const std::string& options, Clock::time_point deadline) {
    ++runs_;
    std::vector<std::string> argv = command_;
    const std::string report = dir_ + "/work/report.json";
    fs::remove(report);
    argv[agent_arg_] = "-agentpath:" + agent_path_ + "=" + options + ",report=" + report;
    pid_t pid;
    try {
      pid = spawn_jvm(argv, dir_ + "/work/run.log");
    } catch (const std::runtime_error&) {
      return std::nullopt;
    }
    int status = 0;
    bool killed = false;
    cut_off_ = false;
    for (;;) {
      const pid_t r = waitpid(pid, &status, killed ? 0 : WNOHANG);
      if (r == pid || (r < 0 && errno != EINTR)) break;
      if (!killed && (interrupt_requested() || Clock::now() > deadline)) {
        cut_off_ = !interrupt_requested();
        kill(pid, SIGKILL);
        killed = true;
      } else if (!killed) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    last_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (killed) return std::nullopt;
    std::ifstream in(report);
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    try {
      json::Value r = json::parse(line);
      Outcome o{r.str("outcome"), "", r.str("detail")};
      o.key = sched::finding_identity(o.kind, o.detail);
      return o;
    } catch (const json::ParseError&) {
      return std::nullopt;
    }
  }

  // Follows `guide` leniently: the run's recording when it ended in `want`.
  std::optional<sched::ScheduleLog> follow(const sched::ScheduleLog& guide,
                                           const std::string& want) {
    const std::string g = dir_ + "/work/guide.sched", rec = dir_ + "/work/follow.sched";
    guide.write(g);
    std::string opts = "follow=" + g + ",record=" + rec + kept();
    std::optional<Outcome> o = run(opts, search_deadline_);
    if (!o || o->key != want) return std::nullopt;
    try {
      return sched::ScheduleLog::read(rec);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  const std::string& original_options() const { return original_options_; }
  std::string agent_arg(const std::string& options) const {
    return "-agentpath:" + agent_path_ + "=" + options;
  }

 private:
  std::vector<std::string> command_;
  size_t agent_arg_;
  std::string dir_, agent_path_, original_options_, timeout_;
  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  uint64_t max_runs_, runs_ = 0;
  int last_status_ = 0;
  bool cut_off_ = false;
  Clock::time_point deadline_, search_deadline_;
};

}  // namespace

MinimizeResult minimize_finding(const MinimizeRequest& req) {
  MinimizeResult res;
  const auto started = Clock::now();
  const std::vector<std::string>& command = req.command;
  const std::string& out = req.out;
  auto usage = [&](const std::string& why) {
    res.error = why;
    res.usage = true;
    return res;
  };
  if (command.empty() || command[0].find("java") == std::string::npos)
    return usage(
        "give a finding's replay command after --: java -agentpath:.../libjsched.so=... MAIN");
  size_t agent_arg = command.size();
  for (size_t i = 1; i < command.size(); ++i) {
    if (agent::is_jsched_agent_argument(command[i]) && command[i].find('=') != std::string::npos)
      agent_arg = i;
  }
  if (agent_arg == command.size())
    return usage("not a jsched replay command: no -agentpath:.../libjsched.so=OPTIONS in it");
  if (std::string why = check_java_command(command); !why.empty()) return usage(why);
  std::error_code ec;
  // A run that ends without a result leaves nothing behind in a folder it made.
  const bool fresh = !fs::exists(out, ec);
  auto give_up = [&](const std::string& why) {
    if (fresh && interrupt_requested()) {
      const fs::path dir = fs::absolute(out).lexically_normal();
      remove_in_background({out}, (dir.has_filename() ? dir : dir.parent_path()).parent_path());
    } else if (fresh) {
      fs::remove_all(out, ec);
    }
    res.error = why;
    return res;
  };
  fs::create_directories(out + "/work", ec);
  if (ec) return usage("cannot create " + out + ": " + ec.message());

  Minimizer m(command, agent_arg, out, req.max_runs, req.max_seconds);
  // 1. The finding, recorded.
  const std::string original_sched = out + "/work/original.sched";
  const auto first_started = Clock::now();
  std::optional<Outcome> first = m.run(m.original_options() + ",record=" + original_sched);
  // How long one run of this schedule takes: the checks of the result need about as long each.
  const double run_seconds = std::chrono::duration<double>(Clock::now() - first_started).count();
  if (interrupt_requested()) {
    res.interrupted = true;
    return give_up("interrupted");
  }
  if (m.cut_off())
    return give_up("the budget (" + std::to_string(int(req.max_seconds)) +
                   " s) ran out before the finding's own run ended: give --max-seconds more time");
  if (!first && m.last_status() == 2) {  // the agent refused its options
    std::string why = m.last_line();
    if (why.rfind("jsched: error: ", 0) == 0) why = why.substr(15);
    if (fresh) fs::remove_all(out, ec);
    return usage(why);
  }
  if (!first || !is_finding(first->kind))
    return give_up("the command does not replay a finding (" +
                   (first ? "its run ended " + first->kind : std::string("no report")) + ")");
  res.kind = first->kind;
  const std::string want = first->key;
  sched::ScheduleLog original;
  try {
    original = sched::ScheduleLog::read(original_sched);
  } catch (const std::exception& e) {
    return give_up(e.what());
  }
  res.before = sched::count_preemptions(original);
  if (req.progress)
    std::fprintf(stderr,
                 "jsched: minimize: %s with %zu pre-emptions; searching (at most %llu runs, %.0f "
                 "s)\n",
                 first->kind.c_str(), res.before, (unsigned long long)req.max_runs,
                 req.max_seconds);
  // The search leaves time for one check of what it finds (a trace too: a little longer).
  m.keep_for_checks(1.5 * run_seconds);
  sched::PreemptionSearch search;
  search.follow = [&](const sched::ScheduleLog& guide) { return m.follow(guide, want); };
  search.out_of_budget = [&] { return m.out_of_budget(); };
  const sched::ScheduleLog best = sched::fewest_preemptions(original, search);
  if (!interrupt_requested() && m.out_of_budget())
    res.cut_off =
        m.out_of_time()
            ? "its time (--max-seconds " + std::to_string(int(req.max_seconds)) + ") ran out"
            : "its executions (--max-runs " + std::to_string(req.max_runs) + ") ran out";

  if (interrupt_requested()) {
    res.interrupted = true;
    return give_up("interrupted");
  }
  // 4. The minimal schedule, checked.
  res.minimal = out + "/minimal.sched";
  try {
    best.write(res.minimal);
  } catch (const std::exception& e) {
    return give_up(e.what());
  }
  res.after = sched::count_preemptions(best);
  // Replayed up to 3 times, as the budget allows (once at least), the first ones writing the
  // trace of its timeline: a replay that departs (JDK code the schedule does not cover) writes
  // none. A timeline has a row per pre-emption: past kMaxTimelinePreemptions it is not drawn.
  const std::string trace = out + "/work/trace.txt";
  const bool drawable = res.after <= kMaxTimelinePreemptions;
  int reproduced = 0;
  for (int i = 0; i < 3 && !interrupt_requested(); ++i) {
    if (i > 0 && m.left() < 1.2 * run_seconds) break;
    const bool tracing = drawable && !fs::exists(trace, ec);
    std::optional<Outcome> o =
        m.run("replay=" + res.minimal + m.kept() + (tracing ? ",trace=" + trace : ""));
    if (m.cut_off()) break;
    ++res.checks;
    reproduced += o && o->key == want;
  }
  if (interrupt_requested()) {
    res.interrupted = true;
    return give_up("interrupted");
  }
  res.replay = command;
  res.replay[agent_arg] = m.agent_arg("replay=" + res.minimal + m.kept());
  try {
    if (!drawable)
      throw std::runtime_error("the schedule has " + std::to_string(res.after) +
                               " pre-emptions: too many to draw (at most " +
                               std::to_string(kMaxTimelinePreemptions) + ")");
    Trace t = read_trace(trace, classpath_of(command));
    write_file(out + "/timeline.html", timeline_html(t, agent::shell_join(res.replay)));
    res.timeline = out + "/timeline.html";
    if (req.text) res.timeline_text = timeline_text(t);
  } catch (const std::exception& e) {
    res.timeline_error = e.what();
  }
  res.executions = m.runs();
  fs::remove_all(out + "/work", ec);  // the candidates' schedules and logs
  res.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (res.checks == 0)
    res.error = "the budget ran out before the minimal schedule could be replayed (a run takes " +
                std::to_string(int(run_seconds + 0.5)) + " s): it is not checked";
  else if (reproduced < res.checks)
    res.error = "the minimal schedule reproduced the finding " + std::to_string(reproduced) +
                " of " + std::to_string(res.checks) +
                " times (the program takes another path under the same schedule?)";
  return res;
}

}  // namespace jsched::runner
