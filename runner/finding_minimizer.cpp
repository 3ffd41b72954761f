#include "runner/finding_minimizer.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include "jvmti-agent/shell_words.h"
#include "protocol/json.h"
#include "protocol/outcome.h"
#include "runner/batch.h"
#include "runner/executor.h"
#include "runner/results_dir.h"
#include "runner/run_checks.h"
#include "runner/timeline.h"
#include "scheduler/replay/preemption_search.h"

namespace jsched::runner {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

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
        deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(max_seconds))) {
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
    return runs_ >= max_runs_ || Clock::now() > deadline_ || interrupt_requested();
  }

  // One JVM with these agent options; the report's outcome.
  std::optional<Outcome> run(const std::string& options) {
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
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      if (interrupt_requested()) kill(pid, SIGKILL);
    }
    last_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
    std::optional<Outcome> o = run(opts);
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
  uint64_t max_runs_, runs_ = 0;
  int last_status_ = 0;
  Clock::time_point deadline_;
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
    if (fresh) fs::remove_all(out, ec);
    res.error = why;
    return res;
  };
  fs::create_directories(out + "/work", ec);
  if (ec) return usage("cannot create " + out + ": " + ec.message());

  Minimizer m(command, agent_arg, out, req.max_runs, req.max_seconds);
  // 1. The finding, recorded.
  const std::string original_sched = out + "/work/original.sched";
  std::optional<Outcome> first = m.run(m.original_options() + ",record=" + original_sched);
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
  sched::PreemptionSearch search;
  search.follow = [&](const sched::ScheduleLog& guide) { return m.follow(guide, want); };
  search.out_of_budget = [&] { return m.out_of_budget(); };
  const sched::ScheduleLog best = sched::fewest_preemptions(original, search);

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
  int reproduced = 0;
  for (int i = 0; i < 3; ++i) {
    std::optional<Outcome> o = m.run("replay=" + res.minimal + m.kept());
    reproduced += o && o->key == want;
  }
  // 5. Its timeline.
  const std::string trace = out + "/work/trace.txt";
  // A replay that departs (JDK code the schedule does not cover) writes no trace: try again.
  for (int i = 0; i < 3 && !fs::exists(trace, ec); ++i)
    m.run("replay=" + res.minimal + m.kept() + ",trace=" + trace);
  res.replay = command;
  res.replay[agent_arg] = m.agent_arg("replay=" + res.minimal + m.kept());
  try {
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
  if (reproduced < 3)
    res.error = "the minimal schedule reproduced the finding " + std::to_string(reproduced) +
                " of 3 times (the program takes another path under the same schedule?)";
  return res;
}

}  // namespace jsched::runner
