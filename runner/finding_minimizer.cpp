#include "runner/finding_minimizer.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include "runner/batch.h"
#include "runner/json.h"
#include "runner/results_dir.h"
#include "runner/run_checks.h"
#include "runner/timeline.h"
#include "scheduler/preemption_search.h"

extern char** environ;

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
    original_options_ = a.substr(a.find('=') + 1);
    for (const auto& [k, v] : split_options(original_options_)) {
      if (k == "timeout") timeout_ = v;
    }
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
    std::vector<char*> args;
    for (std::string& s : argv) args.push_back(s.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    const std::string log = dir_ + "/work/run.log";
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return std::nullopt;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      if (interrupt_requested()) kill(pid, SIGKILL);
    }
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
    std::string opts = "follow=" + g + ",record=" + rec;
    if (!timeout_.empty()) opts += ",timeout=" + timeout_;
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
  static std::vector<std::pair<std::string, std::string>> split_options(const std::string& s) {
    std::vector<std::pair<std::string, std::string>> out;
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(',', start);
      if (end == std::string::npos) end = s.size();
      std::string item = s.substr(start, end - start);
      size_t eq = item.find('=');
      out.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
      start = end + 1;
    }
    return out;
  }

  std::vector<std::string> command_;
  size_t agent_arg_;
  std::string dir_, agent_path_, original_options_, timeout_;
  uint64_t max_runs_, runs_ = 0;
  Clock::time_point deadline_;
};

std::string classpath_of(const std::vector<std::string>& command) {
  for (size_t i = 1; i + 1 < command.size(); ++i) {
    if (command[i] == "-cp" || command[i] == "-classpath" || command[i] == "--class-path")
      return command[i + 1];
  }
  return ".";
}

}  // namespace

std::string shell_join(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    bool plain = !a.empty() &&
                 a.find_first_not_of(
                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%") ==
                     std::string::npos;
    std::string quoted = "'";
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? a : quoted + "'");
  }
  return out;
}

std::vector<std::string> shell_split(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '\'') {
        quoted = false;
      } else {
        word += c;
      }
    } else if (c == '\'') {
      quoted = in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

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
    if (command[i].rfind("-agentpath:", 0) == 0 && command[i].find("jsched") != std::string::npos &&
        command[i].find('=') != std::string::npos)
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
  if (!first || (first->kind != "bug" && first->kind != "deadlock" && first->kind != "hang"))
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
    std::optional<Outcome> o = m.run("replay=" + res.minimal);
    reproduced += o && o->key == want;
  }
  // 5. Its timeline.
  const std::string trace = out + "/work/trace.txt";
  // A replay that departs (JDK code the schedule does not cover) writes no trace: try again.
  for (int i = 0; i < 3 && !fs::exists(trace, ec); ++i)
    m.run("replay=" + res.minimal + ",trace=" + trace);
  res.replay = command;
  res.replay[agent_arg] = m.agent_arg("replay=" + res.minimal);
  try {
    Trace t = read_trace(trace, classpath_of(command));
    write_file(out + "/timeline.html", timeline_html(t, shell_join(res.replay)));
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
