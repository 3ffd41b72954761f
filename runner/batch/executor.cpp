#include "runner/batch/executor.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "jvmti-agent/shell_words.h"
#include "runner/batch/background_removal.h"
#include "runner/batch/batch.h"
#include "runner/batch/hapset_pairs.h"
#include "runner/batch/shared_writes.h"
#include "scheduler/strategy_registry.h"

extern char** environ;

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

// One JVM: one execution, or several in a row (iterations).
struct Running {
  std::vector<RunSpec> specs;
  std::string report, log;
  JvmDirs dirs;
  std::chrono::steady_clock::time_point started;
  // When the runner kills it as a last resort: every execution may run for its budget.
  std::chrono::milliseconds limit{0};
  size_t reported = 0;        // executions recorded so far
  std::streamoff offset = 0;  // in the report file, after the lines read
  bool found = false, log_kept = false;
  bool parallel = false;              // another JVM ran while it did
  std::optional<std::string> output;  // the log, read once the JVM has ended

  const std::string& ended_output() {
    if (!output) {
      std::ifstream in(log);
      output = std::string((std::istreambuf_iterator<char>(in)), {});
    }
    return *output;
  }
};

// A replay command without the java.io.tmpdir the runner gave its JVM (removed once it ended).
std::string without_own_tmpdir(std::string replay, const std::string& tmp) {
  for (const std::string& arg :
       {agent::shell_quote("-Djava.io.tmpdir=" + tmp), "-Djava.io.tmpdir=" + tmp}) {
    if (size_t at = replay.find(" " + arg); at != std::string::npos) {
      replay.erase(at, arg.size() + 1);
      break;
    }
  }
  return replay;
}

// The wall-clock budget of one execution of `s`: its budget= option, else the agent's default,
// ten times the hang window.
uint64_t budget_ms(const RunSpec& s) {
  for (const auto& [k, v] : split_params(s.params)) {
    if (k == "budget") return std::strtoull(v.c_str(), nullptr, 10);
  }
  return 10 * s.timeout_ms;
}

// Whether `next` can run in the same JVM right after `last` (the agent runs iterations under
// these strategies only).
bool same_jvm(const RunSpec& last, const RunSpec& next) {
  if (!sched::runs_several_per_jvm(next.agent_strategy_name())) return false;
  return next.seed == last.seed + 1 && next.program == last.program &&
         next.strategy == last.strategy && next.agent_strategy == last.agent_strategy &&
         next.params == last.params && next.command == last.command &&
         next.jvm_args == last.jvm_args && next.timeout_ms == last.timeout_ms;
}

// The first lines of the JVM's output that say what went wrong, for runs without a report.
std::string tail_lines(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
  for (size_t i = from; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}

// Why a JVM did not run its program to the end, in one line, then the last lines of its output:
// "exit status 1: Error: Could not find or load main class no.Such". The line is the JVM's own
// "Error:" line when there is one (its usage errors), else the last line of output that is
// not the agent's greeting.
std::string failure_reason(int exit_status, const std::string& output) {
  std::string head = exit_status > 128 && exit_status < 160
                         ? "killed by signal " + std::to_string(exit_status - 128)
                         : "exit status " + std::to_string(exit_status);
  std::string last, error_line;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.rfind("jsched: strategy ", 0) == 0) continue;
    if (error_line.empty() && line.rfind("Error: ", 0) == 0) error_line = line;
    last = line;
  }
  std::string why = !error_line.empty() ? error_line : last;
  if (why.size() > 300) why = why.substr(0, 300) + "...";
  return head + (why.empty() ? " (no output)" : ": " + why);
}

}  // namespace

pid_t spawn_jvm(std::vector<std::string> argv, const std::string& log, const std::string& cwd) {
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  // None of jsched's own descriptors: a JVM that held the results' runs.jsonl open was taken for
  // a program writing it beside another JVM (SharedWrites), and its writes could interleave.
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());  // after the log
  // The JVM gets the default action of the signals jsched handles or ignores itself.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t dflt;
  sigemptyset(&dflt);
  sigaddset(&dflt, SIGXFSZ);
  sigaddset(&dflt, SIGINT);
  sigaddset(&dflt, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &dflt);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

bool learns(const RunSpec& s) {
  const sched::StrategyEntry* e = sched::find_strategy(s.agent_strategy_name());
  return e && e->learns;
}

std::string find_agent(const std::string& explicit_path) {
  if (!explicit_path.empty()) {
    if (!fs::is_regular_file(explicit_path))
      throw std::runtime_error("--agent: no such file: " + explicit_path);
    return fs::absolute(explicit_path).string();
  }
  if (const char* env = std::getenv("JSCHED_AGENT"); env && *env) {
    if (!fs::is_regular_file(env))
      throw std::runtime_error(std::string("JSCHED_AGENT: no such file: ") + env);
    return fs::absolute(env).string();
  }
  fs::path exe = fs::read_symlink("/proc/self/exe").parent_path();
  // Installed (bin/ and lib/jsched/), next to it, or the build tree (runner/, jvmti-agent/).
  std::string tried;
  for (fs::path p : {exe / "../lib/jsched/libjsched.so", exe / "libjsched.so",
                     exe / "../jvmti-agent/libjsched.so"}) {
    p = p.lexically_normal();
    if (fs::exists(p)) return fs::weakly_canonical(p).string();
    tried += (tried.empty() ? "" : ", ") + p.string();
  }
  throw std::runtime_error("cannot find libjsched.so (looked at " + tried +
                           "); set JSCHED_AGENT or use --agent PATH");
}

std::vector<std::string> Executor::command(const RunSpec& s, const std::string& report,
                                           size_t iterations, const std::string& extra) const {
  std::string opts = "strategy=" + s.agent_strategy_name() + ",seed=" + std::to_string(s.seed) +
                     ",timeout=" + std::to_string(s.timeout_ms) + ",report=" + report;
  // Every execution of the JVM is reported; the batch decides what stops it, unless any
  // finding ends the cell.
  if (iterations > 1) {
    opts += ",iterations=" + std::to_string(iterations);
    if (!stop_at_finding_ || !s.target.empty()) opts += ",explore";
  }
  if (!s.params.empty()) opts += "," + s.params;
  if (!extra.empty()) opts += "," + extra;
  std::vector<std::string> argv = {s.command.at(0), "-agentpath:" + agent_ + "=" + opts};
  argv.insert(argv.end(), s.jvm_args.begin(), s.jvm_args.end());
  argv.insert(argv.end(), s.command.begin() + 1, s.command.end());
  return argv;
}

void Executor::run(const std::vector<RunSpec>& specs, const std::function<bool(RunRecord&&)>& done,
                   const std::function<bool(const RunSpec&)>& skip, const BeforeLaunch& before) {
  fs::create_directories(work_);
  std::map<pid_t, Running> running;
  size_t next = 0;
  // The index of the run that stopped the batch (`done` returned false): no JVM of later runs
  // goes on; JVMs of earlier runs finish and are recorded.
  uint64_t stop_at = UINT64_MAX;
  // Whether a JVM of the runs `s` learns from is still running.
  auto learning_busy = [&](const RunSpec& s) {
    for (const auto& [pid, r] : running) {
      if (learning_key(r.specs[0]) == learning_key(s)) return true;
    }
    return false;
  };
  auto launch = [&](std::vector<RunSpec> group) {
    Running r;
    r.specs = std::move(group);
    const RunSpec& s = r.specs.front();
    // Absolute: the JVM may run in a working directory of its own.
    r.report = fs::absolute(work_ + "/run-" + std::to_string(s.index) + ".json").string();
    // One log per JVM: the findings of its executions all point to it.
    r.log = work_ + (r.specs.size() > 1 ? "/jvm-" : "/run-") + std::to_string(s.index) + ".log";
    fs::remove(r.report);
    r.dirs = JvmDirs::make(workdir_, work_, s.index);
    std::vector<std::string> argv = isolated_command(
        command(s, r.report, r.specs.size(), before ? before(r.specs) : std::string()), r.dirs);
    pid_t pid = spawn_jvm(argv, r.log, r.dirs.cwd);
    r.parallel = !running.empty();
    for (auto& [p, other] : running) other.parallel = true;
    r.started = std::chrono::steady_clock::now();
    r.limit = std::chrono::milliseconds((budget_ms(s) + 2 * s.timeout_ms) * r.specs.size() + 10000);
    running.emplace(pid, std::move(r));
  };
  // A record of spec k of JVM `r` from its report line `rep` (null: it has none).
  auto make_record = [&](Running& r, size_t k, const json::Value* rep, int exit_status,
                         double elapsed) {
    RunRecord rec;
    const RunSpec& s = r.specs[k];
    const bool several = r.specs.size() > 1;
    rec.index = s.index;
    rec.program = s.program;
    rec.strategy = s.strategy;
    rec.repetition = s.repetition;
    rec.run = s.run;
    rec.seed = s.seed;
    rec.target = s.target;
    rec.profile_run = s.profile_run;
    if (rep) {
      rec.outcome = rep->str("outcome");
      rec.exit_status = several ? int(rep->num("exit_status")) : exit_status;
      rec.elapsed_ms = several ? rep->num("elapsed_ms") : elapsed;
      rec.detail = rep->str("detail");
      rec.fingerprint = rep->str("fingerprint");
      rec.points = uint64_t(rep->num("scheduling_points"));
      rec.replay = without_own_tmpdir(rep->str("replay"), r.dirs.tmp);
      rec.extra = (*rep)["extra"];
      // The blocks that ran (for the TSCA batch); the HaPSet pairs (coverage, learning).
      for (const char* key : {"tsca", "hapset"}) {
        if (!(*rep)[key].is(json::Value::Object)) continue;
        if (!rec.extra.is(json::Value::Object)) rec.extra = json::Value::object();
        rec.extra.set(key, (*rep)[key]);
      }
      // Races on plain fields the run saw (accesses=shared or all): the summary lists them.
      if (!(*rep)["races"].items().empty()) {
        if (!rec.extra.is(json::Value::Object)) rec.extra = json::Value::object();
        rec.extra.set("races", (*rep)["races"]);
      }
      // Blocks outside jsched's view: the run may not repeat, and the summary says so.
      if (size_t hidden = (*rep)["hidden_blocks"].items().size(); hidden > 0) {
        if (!rec.extra.is(json::Value::Object)) rec.extra = json::Value::object();
        rec.extra.set("hidden_blocks", json::Value::number(double(hidden)));
        rec.extra.set(
            "hidden_block",
            json::Value::string((*rep)["hidden_blocks"].items()[0].as_string().substr(0, 300)));
      }
      // The program did not run to its own end: System.exit(n), a signal (the agent says
      // which), or a status the report does not explain.
      if (rec.outcome == "exit" || rec.outcome == "killed") {
        rec.outcome = "error";
      } else if (!several && rec.outcome == "ok" && rec.exit_status != 0) {
        rec.outcome = "error";
        rec.detail = failure_reason(exit_status, r.ended_output());
      }
    } else {
      // No report: the JVM failed before or outside the agent (bad options, a crash, a kill,
      // System.exit in an earlier execution of the same JVM).
      rec.exit_status = exit_status;
      rec.elapsed_ms = several ? 0 : elapsed;
      rec.outcome = "error";
      const std::string& output = r.ended_output();
      rec.detail = (several ? "not run: the JVM of executions " + std::to_string(r.specs[0].run) +
                                  ".." + std::to_string(r.specs.back().run) + " ended first (" +
                                  failure_reason(exit_status, output) + ")"
                            : failure_reason(exit_status, output)) +
                   "\n" + tail_lines(output, 6);
    }
    if (rec.found() || rec.outcome == "error") {
      rec.log = r.log;
      r.log_kept = true;
    }
    r.found = r.found || rec.found();
    return rec;
  };
  // When the first finding stops (a batch or a cell), records go out in index order: a run
  // after the finding is never recorded, and what is recorded does not depend on --jobs or on
  // which JVM ended first. Otherwise they go out as they come.
  std::map<uint64_t, RunRecord> held;
  std::set<uint64_t> passed;  // specs skipped or left unrun on purpose
  size_t order_pos = 0;       // into `specs`: the next index to go out
  auto hand_over = [&](RunRecord&& rec) {
    // After a stop, only runs before the stopping one still count (--until-bug: the smallest
    // index with a finding, whatever --jobs).
    if (rec.index > stop_at) return;
    const uint64_t index = rec.index;
    if (!done(std::move(rec))) stop_at = std::min(stop_at, index);
  };
  auto flush = [&] {
    while (order_pos < specs.size()) {
      const uint64_t index = specs[order_pos].index;
      if (passed.count(index)) {
        ++order_pos;
        continue;
      }
      auto it = held.find(index);
      if (it == held.end()) return;
      RunRecord rec = std::move(it->second);
      held.erase(it);
      ++order_pos;
      hand_over(std::move(rec));
    }
  };
  auto deliver = [&](RunRecord&& rec) {
    if (!stop_at_finding_) return hand_over(std::move(rec));
    held.emplace(rec.index, std::move(rec));
    flush();
  };
  auto pass = [&](const RunSpec& s) {
    passed.insert(s.index);
    if (stop_at_finding_) flush();
  };
  // The executions of a JVM of several are recorded as each ends: its report has one line
  // per execution, appended as the execution ends.
  auto poll = [&](Running& r) {
    std::ifstream in(r.report, std::ios::binary);
    if (!in) return;
    in.seekg(r.offset);
    std::string line;
    while (std::getline(in, line) && !in.eof()) {  // a line without its newline is not done
      r.offset += std::streamoff(line.size() + 1);
      if (line.empty() || r.reported >= r.specs.size()) continue;
      json::Value rep;
      try {
        rep = json::parse(line);
      } catch (const json::ParseError&) {
        continue;
      }
      size_t k = size_t(rep.num("iteration"));
      if (k != r.reported) continue;  // executions report in order
      ++r.reported;
      deliver(make_record(r, k, &rep, 0, 0));
    }
  };
  auto finish = [&](Running& r, int status) {
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double elapsed =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r.started)
            .count();
    if (r.specs.size() > 1) {
      poll(r);
    } else {
      std::ifstream in(r.report);
      std::string line;
      json::Value rep;
      bool have = false;
      while (std::getline(in, line)) {
        if (line.empty()) continue;
        try {
          rep = json::parse(line);
          have = true;
        } catch (const json::ParseError&) {
        }
      }
      r.reported = 1;
      deliver(make_record(r, 0, have ? &rep : nullptr, exit_status, elapsed));
    }
    for (size_t k = r.reported; k < r.specs.size(); ++k) {
      // The JVM stopped at its first finding on purpose: the rest count as skipped.
      if (r.found && stop_at_finding_ && r.specs[k].target.empty()) {
        for (size_t u = k; u < r.specs.size(); ++u) {
          if (skip) skip(r.specs[u]);  // for the batch's accounting (progress)
          pass(r.specs[u]);
        }
        break;
      }
      deliver(make_record(r, k, nullptr, exit_status, elapsed));
    }
    if (!r.log_kept) fs::remove(r.log);
    fs::remove(r.report);
  };
  // However the loop ends (a write that fails, Ctrl-C), no JVM is left running behind it. After
  // Ctrl-C their files go in the background: removing them can take seconds.
  struct Reaper {
    std::map<pid_t, Running>& running;
    const std::string& work;
    ~Reaper() {
      for (auto& [p, r] : running) kill(p, SIGKILL);
      std::vector<std::string> files;
      for (auto& [p, r] : running) {
        waitpid(p, nullptr, 0);
        files.insert(files.end(), {r.report, r.log, r.dirs.base()});
      }
      if (interrupt_requested()) {
        remove_in_background(files, work);
        return;
      }
      std::error_code ec;
      for (const std::string& f : files) fs::remove_all(f, ec);
    }
  } reaper{running, work_};
  auto stopping = [&] { return stop_at != UINT64_MAX; };
  // Kills the JVMs whose runs all come after the stopping run.
  auto stop_later_jvms = [&] {
    for (auto& [p, other] : running) {
      if (other.specs.front().index > stop_at) kill(p, SIGKILL);
    }
  };
  auto last_poll = std::chrono::steady_clock::now(), last_look = last_poll;
  // Parallel JVMs in the shared working directory: whether they write the same files.
  std::optional<SharedWrites> shared;
  if (workdir_.mode == Workdir::Shared && jobs_ > 1)
    shared.emplace(fs::current_path().string(),
                   results_.empty() ? fs::path(work_).parent_path().string() : results_);
  while ((next < specs.size() && !stopping()) || !running.empty()) {
    if (interrupt_requested()) throw Interrupted();
    while (!stopping() && next < specs.size() && int(running.size()) < jobs_) {
      // A learning run waits for the JVM before it (and, to keep the order, so does the rest).
      if (learns(specs[next]) && learning_busy(specs[next])) break;
      const uint32_t per_jvm = learns(specs[next]) && in_jvm_ <= 1 ? kHapsetPerJvm : in_jvm_;
      std::vector<RunSpec> group;
      while (next < specs.size() && group.size() < std::max<uint32_t>(per_jvm, 1)) {
        const RunSpec& s = specs[next];
        if (!group.empty() && !same_jvm(group.back(), s)) break;
        ++next;
        if (!skip || !skip(s))
          group.push_back(s);
        else
          pass(s);
      }
      if (!group.empty()) launch(std::move(group));
    }
    if (running.empty()) continue;
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (pid == 0) {
      auto now = std::chrono::steady_clock::now();
      if (now - last_poll > std::chrono::milliseconds(50)) {
        last_poll = now;
        for (auto& [p, r] : running) {
          if (r.specs.size() > 1 && r.specs.front().index <= stop_at) poll(r);
        }
        if (stopping()) stop_later_jvms();
      }
      if (shared && running.size() > 1 && now - last_look > std::chrono::milliseconds(200)) {
        last_look = now;
        for (auto& [p, r] : running) shared->look(p, r.specs.front().index);
      }
      // A JVM that outlives its own watchdog by far (a crash in start-up, a stuck exit) is
      // killed and reported. Its executions may each run for their budget (slow, not hung).
      for (auto& [p, r] : running) {
        if (now - r.started > r.limit) kill(p, SIGKILL);
      }
      timespec ts{0, 2000000};
      nanosleep(&ts, nullptr);
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    Running r = std::move(it->second);
    running.erase(it);
    if (shared) {
      shared->ended(pid);
      // A JVM of one that ran beside others: what it wrote where they all run.
      if (r.parallel) shared->scan();
    }
    r.dirs.remove();
    if (r.specs.front().index <= stop_at) {
      finish(r, status);
    } else {  // killed because an earlier run stopped the batch: not counted
      fs::remove(r.report);
      fs::remove(r.log);
    }
    if (stopping()) stop_later_jvms();
  }
}

}  // namespace jsched::runner
