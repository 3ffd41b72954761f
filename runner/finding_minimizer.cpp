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
#include <set>

#include "runner/batch.h"
#include "runner/json.h"
#include "runner/results_dir.h"
#include "runner/run_checks.h"
#include "runner/timeline.h"
#include "scheduler/schedule_log.h"

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
      o.key = finding_identity(o.kind, o.detail);
      return o;
    } catch (const json::ParseError&) {
      return std::nullopt;
    }
  }

  // Follows `guide` leniently and records what ran into `record`; whether it ends in `want`.
  bool test(const sched::ScheduleLog& guide, const std::string& want, const std::string& record) {
    const std::string g = dir_ + "/work/guide.sched";
    guide.write(g);
    std::string opts = "follow=" + g + ",record=" + record;
    if (!timeout_.empty()) opts += ",timeout=" + timeout_;
    std::optional<Outcome> o = run(opts);
    return o && o->key == want;
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

size_t count_preemptions(const sched::ScheduleLog& log) {
  return size_t(std::count_if(log.decisions.begin(), log.decisions.end(),
                              [](const sched::Decision& d) { return d.preempt; }));
}

// `original` with the pre-emptions at `drop` (indices into its decisions) taken out.
sched::ScheduleLog without(const sched::ScheduleLog& original, const std::set<size_t>& drop) {
  sched::ScheduleLog g = original;
  for (size_t i : drop) g.decisions[i].preempt = false;
  return g;
}

std::string classpath_of(const std::vector<std::string>& command) {
  for (size_t i = 1; i + 1 < command.size(); ++i) {
    if (command[i] == "-cp" || command[i] == "-classpath" || command[i] == "--class-path")
      return command[i + 1];
  }
  return ".";
}

}  // namespace

// The finding's identity: its kind, and for a bug the throwable's class and its first frame,
// for a deadlock the frames the threads wait at (values in messages may change with the
// schedule; where it fails may not).
std::string finding_identity(const std::string& kind, const std::string& detail) {
  std::string first = detail.substr(0, detail.find('\n'));
  if (kind == "bug") {
    std::string cls = first.substr(0, first.find_first_of(": "));
    if (first.rfind("uncaught ", 0) == 0) {
      std::string rest = first.substr(9);
      cls = rest.substr(0, rest.find_first_of(": "));
    }
    size_t at = detail.find("\n    at ");
    std::string frame =
        at == std::string::npos ? "" : detail.substr(at + 8, detail.find('\n', at + 1) - at - 8);
    return kind + " " + cls + " " + frame;
  }
  if (kind == "deadlock") {
    std::vector<std::string> frames;
    size_t pos = 0;
    while ((pos = first.find(" at ", pos)) != std::string::npos) {
      pos += 4;
      frames.push_back(first.substr(pos, first.find(", ", pos) - pos));
    }
    std::sort(frames.begin(), frames.end());
    std::string k = kind;
    for (const std::string& f : frames) k += " " + f;
    return k;
  }
  return kind;
}

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
  std::vector<size_t> preempts;
  for (size_t i = 0; i < original.decisions.size(); ++i)
    if (original.decisions[i].preempt) preempts.push_back(i);
  res.before = preempts.size();
  if (req.progress)
    std::fprintf(stderr,
                 "jsched: minimize: %s with %zu pre-emptions; searching (at most %llu runs, %.0f "
                 "s)\n",
                 first->kind.c_str(), preempts.size(), (unsigned long long)req.max_runs,
                 req.max_seconds);

  // The best schedule so far: its recording and its pre-emptions.
  std::string best = original_sched;
  size_t best_count = preempts.size();
  int tries = 0;
  auto attempt = [&](const std::set<size_t>& drop) {
    const std::string rec = out + "/work/try-" + std::to_string(++tries) + ".sched";
    if (!m.test(without(original, drop), want, rec)) {
      fs::remove(rec, ec);
      return false;
    }
    size_t c = count_preemptions(sched::ScheduleLog::read(rec));
    if (c < best_count) {
      best_count = c;
      best = rec;
    } else {
      fs::remove(rec, ec);
    }
    return true;
  };

  // 2. Delta debugging (ddmin) over the pre-emptions to keep.
  std::vector<size_t> keep = preempts;
  size_t n = 2;
  while (keep.size() >= 2 && !m.out_of_budget()) {
    bool reduced = false;
    const size_t chunk = (keep.size() + n - 1) / n;
    for (size_t start = 0; start < keep.size() && !m.out_of_budget(); start += chunk) {
      std::vector<size_t> subset(keep.begin() + long(start),
                                 keep.begin() + long(std::min(keep.size(), start + chunk)));
      std::vector<size_t> complement;
      for (size_t k : keep)
        if (std::find(subset.begin(), subset.end(), k) == subset.end()) complement.push_back(k);
      for (int which = 0; which < 2 && !reduced; ++which) {
        std::vector<size_t>& cand = which == 0 ? subset : complement;
        if (cand.empty() || cand.size() == keep.size()) continue;
        std::set<size_t> drop(preempts.begin(), preempts.end());
        for (size_t k : cand) drop.erase(k);
        if (attempt(drop)) {
          keep = std::move(cand);
          n = which == 0 ? 2 : std::max<size_t>(n - 1, 2);
          reduced = true;
        }
      }
      if (reduced) break;
    }
    if (!reduced) {
      if (n >= keep.size()) break;
      n = std::min(keep.size(), n * 2);
    }
  }
  // 3. Each pre-emption left, taken out if the finding stays.
  for (size_t i = 0; i < keep.size() && !m.out_of_budget();) {
    std::vector<size_t> fewer = keep;
    fewer.erase(fewer.begin() + long(i));
    std::set<size_t> drop(preempts.begin(), preempts.end());
    for (size_t k : fewer) drop.erase(k);
    if (attempt(drop)) {
      keep = std::move(fewer);
    } else {
      ++i;
    }
  }
  if (keep.empty() && !m.out_of_budget())
    attempt(std::set<size_t>(preempts.begin(), preempts.end()));

  if (interrupt_requested()) {
    res.interrupted = true;
    return give_up("interrupted");
  }
  // 4. The minimal schedule, checked.
  res.minimal = out + "/minimal.sched";
  fs::copy_file(best, res.minimal, fs::copy_options::overwrite_existing, ec);
  if (ec) return give_up("cannot write " + res.minimal + ": " + ec.message());
  res.after = best_count;
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
