// The reports of an execution (docs/agent.md, "Exit status and reports"): the JSON report, the
// trace, its HaPSet coverage, and the command that replays it.
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "jvmti-agent/executions/race_checks.h"
#include "jvmti-agent/executions/runtime.h"
#include "jvmti-agent/executions/tsca_report.h"
#include "jvmti-agent/model/virtual_threads.h"
#include "jvmti-agent/shell_words.h"
#include "protocol/json_object.h"
#include "scheduler/core/fingerprint.h"
#include "scheduler/strategy_registry.h"

namespace jsched::agent {

namespace {

// The JVM's command line, one argument each.
// Read once: every finding's replay line names it, and a JVM may make thousands.
const std::vector<std::string>& command_line() {
  static const std::vector<std::string> args = [] {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::string> out;
    size_t start = 0;
    while (start < all.size()) {
      size_t end = all.find('\0', start);
      if (end == std::string::npos) end = all.size();
      out.push_back(all.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }();
  return args;
}

// {"count":N,"classes":["class a.B: why",...]}: the first few of N classes.
std::string class_list(uint64_t count, const std::vector<std::string>& lines) {
  std::string items = "[";
  for (size_t i = 0; i < lines.size(); ++i) items += (i ? "," : "") + json::quote(lines[i]);
  json::JsonObject j;
  j.num("count", count).raw("classes", items + "]");
  return j.text();
}

}  // namespace

std::string Runtime::agent_option() const {
  Options o = agent_.options;
  o.seed = seed_;  // one of several executions: this one's seed alone reproduces it
  o.seed_given = true;
  o.record.clear();
  o.report.clear();
  if (!hapset_plan_.empty()) o.plan = hapset_plan_;
  std::string opts = format_options(o);
  // A portfolio's finding replays with the member that ran, under the portfolio's other options.
  if (std::string member = member_options(agent_); !member.empty()) {
    Options m = parse_options(member);
    m.seed = o.seed;
    m.seed_given = true;
    m.accesses = agent_.accesses;
    m.include = o.include;
    m.exclude = o.exclude;
    m.timeout_ms = o.timeout_ms;
    m.hapset = o.hapset;
    m.frames = o.frames;
    m.spurious = o.spurious;
    m.bug_output = o.bug_output;
    // A member that reads the plan (surw weighs threads by its counts) replays only with it.
    const sched::StrategyEntry* e = sched::find_strategy(strategy_name(m));
    if ((e && e->profile) || m.accesses == rw::Accesses::Shared) m.plan = o.plan;
    opts = format_options(m);
  }
  return agent_argument(opts);
}

std::string agent_argument(const std::string& options) {
  for (const std::string& arg : command_line()) {
    if (is_jsched_agent_argument(arg))
      return shell_quote(arg.substr(0, arg.find('=')) + "=" + options);
  }
  return shell_quote("-agentpath:libjsched.so=" + options);
}

std::string Runtime::replay_command() const {
  std::string cmd;
  for (const std::string& arg : command_line())
    cmd += (cmd.empty() ? "" : " ") +
           (is_jsched_agent_argument(arg) ? agent_option() : shell_quote(arg));
  return cmd;
}

void Runtime::write_report(JNIEnv* env, RunOutcome outcome, const std::string& detail) {
  const Options& o = agent_.options;
  if (!o.record.empty()) {
    try {
      // Under the controller's lock: after a hang the other threads still step, and record.
      ctl_.inspect([&](sched::Model& m) {
        if (ended_by_watchdog(outcome)) {
          log_.hang_steps = std::max<uint64_t>(1, m.steps());
          log_.livelock = outcome == RunOutcome::Livelock;
        }
        log_.write(o.record);
        return 0;
      });
    } catch (const std::exception& e) {
      log_line(std::string("error: ") + e.what());
    }
  }
  auto [steps, threads, fp, events] = ctl_.inspect([](sched::Model& m) {
    return std::make_tuple(m.steps(), m.thread_count(), m.fingerprint().hex(),
                           m.fingerprint().events());
  });
  if (agent_.profile) {
    try {
      std::vector<uint64_t> events = ctl_.inspect([](sched::Model& m) {
        std::vector<uint64_t> out;
        for (size_t i = 0; i < m.thread_count(); ++i)
          out.push_back(m.thread(sched::ThreadId(i)).choices);
        return out;
      });
      if (!agent_.profile->add_java_counts(env) || !agent_.profile->add_java_sharing(env))
        throw std::runtime_error("profile: the counts kept in Java could not be read");
      sched::VariablePlan p = agent_.profile->profile(steps, uint32_t(threads), std::move(events));
      if (agent_.race_check && races_)
        ctl_.inspect([&](sched::Model&) {
          mark_race_checks(agent_.plan, *races_, agent_.sites, p);
          return 0;
        });
      p.write(o.profile);
    } catch (const std::exception& e) {
      log_line(std::string("error: ") + e.what());
    }
  }
  std::string hapsets = end_hapsets(outcome);
  if (!o.trace.empty()) write_trace(outcome, detail);
  if (o.report.empty()) return;
  std::string tracked = "[", tracked_accesses = "[";
  if (agent_.tracker) {
    std::vector<std::string> vars = agent_.tracker->names();
    for (size_t i = 0; i < vars.size(); ++i) tracked += (i ? "," : "") + json::quote(vars[i]);
    std::vector<uint64_t> n = env ? agent_.tracker->counts(env) : std::vector<uint64_t>{};
    for (size_t i = 0; i < n.size(); ++i) tracked_accesses += (i ? "," : "") + std::to_string(n[i]);
  }
  tracked += "]";
  tracked_accesses += "]";
  std::string hidden = "[";
  {
    std::lock_guard<std::mutex> g(mu_);
    for (size_t i = 0; i < hidden_blocks_.size(); ++i)
      hidden += (i ? "," : "") + json::quote(hidden_blocks_[i]);
  }
  hidden += "]";
  std::string init_waits = "[";
  {
    std::lock_guard<std::mutex> g(mu_);
    for (size_t i = 0; i < init_wait_log_.size(); ++i)
      init_waits += (i ? "," : "") + json::quote(init_wait_log_[i]);
  }
  init_waits += "]";
  collect_races();
  std::string races = "[";
  for (size_t i = 0; i < race_texts_.size(); ++i) {
    json::JsonObject r;
    r.str("key", race_texts_[i].key).str("text", race_texts_[i].text);
    races += (i ? "," : "") + r.text();
  }
  races += "]";
  json::JsonObject j;
  if (agent_.tsca) {
    auto [trace, skipped] = ctl_.inspect([&](sched::Model&) {
      return std::make_pair(agent_.tsca->trace(), agent_.tsca->skipped());
    });
    j.raw("tsca", tsca_report(trace, *agent_.tsca_planner, skipped));
  }
  if (multi()) j.num("iteration", iteration_);
  j.str("strategy", strategy_name(o))
      .num("seed", seed_)
      .str("outcome", outcome_name(outcome))
      .num("exit_status", uint64_t(exit_status(outcome)))
      .str("detail", detail)
      .num("scheduling_points", steps)
      .num("events", events)
      .num("threads", threads)
      .str("fingerprint", fp)
      .raw("hidden_blocks", hidden)
      .raw("class_init_waits", init_waits)
      .raw("tracked", tracked)
      .raw("tracked_accesses", tracked_accesses)
      .raw("hapset", hapsets)
      .raw("races", races)
      .raw("classes_unchanged",
           class_list(agent_.classes.refused_count(), agent_.classes.refused_lines()))
      .raw("classes_not_instrumented",
           class_list(agent_.classes.unreadable_count(), agent_.classes.unreadable_lines()))
      .num("elapsed_ms", (now_ns() - start_ns_) / 1000000)
      .str("replay", replay_command());
  // Several executions: one line each (the driver empties the file first).
  std::ofstream f(o.report, multi() ? std::ios::app : std::ios::trunc);
  f << j.text() << "\n";
  if (!f) log_line("error: cannot write report " + o.report);
}

// The timeline's input: every step, its thread, operation, site and object, and the finding.
void Runtime::write_trace(RunOutcome outcome, const std::string& detail) {
  std::ostringstream out;
  out << "jsched-trace 1\noutcome " << outcome_name(outcome) << " "
      << detail.substr(0, detail.find('\n')) << "\n";
  std::set<int32_t> sites;
  std::vector<bool> virt;  // which threads are virtual, marked so on their line
  JNIEnv* env = nullptr;
  if (agent_.vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) == JNI_OK) {
    std::lock_guard<std::mutex> g(mu_);
    for (jthread t : threads_) virt.push_back(t != nullptr && is_virtual(env, t));
  }
  ctl_.inspect([&](sched::Model& m) {
    for (size_t i = 0; i < m.thread_count(); ++i)
      out << "thread " << i << " " << m.thread(sched::ThreadId(i)).name
          << (i < virt.size() && virt[i] ? " virtual" : "") << "\n";
    for (const sched::TraceEvent& e : trace_) sites.insert(e.op.site);
    for (int32_t id : sites) {
      const Site* s = agent_.sites.get(id);
      if (!s) continue;
      out << "site " << id << " " << rw::site_kind_name(s->kind) << " " << *s->cls << " "
          << *s->method << " " << *s->method_desc << " " << s->bci << "\n";
    }
    for (size_t i = 0; i < trace_.size(); ++i) {
      const sched::TraceEvent& e = trace_[i];
      out << "step " << i << " " << e.thread << " " << sched::op_name(e.op.kind) << " " << e.op.site
          << " " << sched::hex64(e.op.obj) << " " << (e.preempt ? "p" : "-") << "\n";
    }
    return 0;
  });
  // The finding's stacks close the timeline.
  std::istringstream lines(detail);
  for (std::string l; std::getline(lines, l);) out << "detail " << l << "\n";
  out << "end\n";
  std::ofstream f(agent_.options.trace, std::ios::trunc);
  f << out.str();
  if (!f) log_line("error: cannot write trace " + agent_.options.trace);
}

std::string Runtime::end_hapsets(RunOutcome outcome) {
  if (!agent_.statements) return "null";
  sched::HapsetLearner& l = agent_.hapset;
  const bool replay_plan =
      agent_.options.strategy == Strategy::Hapset && multi() && outcome != RunOutcome::Ok;
  std::string pairs = "[";
  size_t fresh = 0, known = 0;
  sched::HapsetPlan plan;  // what the executions before this one taught (replay_plan)
  plan.frames = agent_.options.frames;
  // Under the controller's lock: the model feeds the learner there, and strategy=hapset reads
  // it. A thread left behind must not teach the next execution.
  ctl_.inspect([&](sched::Model& m) {
    m.learn_hapsets(nullptr);
    for (size_t i = 0; i < l.current().size(); ++i)
      pairs += std::string(i ? "," : "") + "\"" + sched::pair_hex(l.current()[i]) + "\"";
    fresh = l.current_new();
    if (replay_plan) plan.pairs.assign(l.known().begin(), l.known().end());
    l.end_execution(outcome == RunOutcome::Ok);
    known = l.known().size();
  });
  if (!plan.pairs.empty()) write_replay_plan(plan);
  json::JsonObject j;
  j.num("known", known).num("new", fresh).raw("pairs", pairs + "]");
  return j.text();
}

void Runtime::write_replay_plan(sched::HapsetPlan& plan) {
  std::sort(plan.pairs.begin(), plan.pairs.end());
  const std::string& r = agent_.options.report;  // the plan goes next to the report
  size_t slash = r.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : r.substr(0, slash);
  hapset_plan_ = dir + "/jsched-hapset-seed-" + std::to_string(seed_) + ".plan";
  try {
    plan.write(hapset_plan_);
  } catch (const std::exception& e) {
    log_line(std::string("error: ") + e.what() + ": the replay command will not reproduce");
    hapset_plan_.clear();
  }
}

void Runtime::check_replay_complete(RunOutcome outcome) {
  // Not where the recorded run made its last choice.
  if (!agent_.replay || ended_by_watchdog(outcome)) return;
  std::string why = ctl_.inspect([&](sched::Model&) { return agent_.replay->unfinished(); });
  if (!why.empty()) replay_diverged(why);
}

}  // namespace jsched::agent
