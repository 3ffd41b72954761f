#include "jvmti-agent/executions/test_minimizer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>

#include "jvmti-agent/agent_state.h"
#include "scheduler/replay/follow_strategy.h"
#include "scheduler/replay/preemption_search.h"

namespace jsched::agent {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kMaxExecutions = 200;
constexpr auto kMaxTime = std::chrono::seconds(20);
// The least budget a candidate runs with: enough for the JVM to end a test body at all.
constexpr uint64_t kLeastCandidateMs = 500;

std::string schedule_file(const std::string& test) {
  std::error_code ec;
  fs::path dir = fs::is_directory("target", ec)
                     ? fs::absolute("target", ec) / "jsched"
                     : fs::temp_directory_path(ec) / ("jsched-" + std::to_string(getpid()));
  fs::create_directories(dir, ec);
  return (dir / (test + ".sched")).string();
}

// The options the candidates run with, restored when the search ends: each records its
// schedule, and none adds a line to the report or says anything.
class SearchOptions {
 public:
  SearchOptions(AgentState& s, const TestFinding& f, const std::string& record)
      : s_(s), saved_(s.options) {
    s.options.seed = f.seed;
    s.options.steps = f.steps;
    s.options.record = record;
    s.options.report.clear();
    s.options.trace.clear();
    s.minimizing = true;
  }
  ~SearchOptions() {
    s_.options = saved_;
    s_.minimizing = false;
  }
  const Options& given() const { return saved_; }  // the options before the search
  SearchOptions(const SearchOptions&) = delete;
  SearchOptions& operator=(const SearchOptions&) = delete;

 private:
  AgentState& s_;
  Options saved_;
};

}  // namespace

bool worth_minimizing(RunOutcome o) {
  return o == RunOutcome::Bug || o == RunOutcome::Deadlock;
}

MinimalTestSchedule minimize_test_finding(const TestFinding& f, const RunTestBody& run) {
  MinimalTestSchedule m;
  AgentState& s = state();
  const std::string file = schedule_file(f.test), work = file + ".work";
  const std::string want = sched::finding_identity(outcome_name(f.outcome), f.detail);
  const auto deadline = Clock::now() + kMaxTime;
  std::optional<sched::ScheduleLog> best;
  {
    SearchOptions scoped(s, f, work);
    // The execution's recording when it ended in the finding.
    auto ends_in_finding =
        [&](std::unique_ptr<sched::Strategy> strategy) -> std::optional<sched::ScheduleLog> {
      ++m.executions;
      std::error_code ec;
      fs::remove(work, ec);
      auto [outcome, detail] = run(std::move(strategy));
      if (sched::finding_identity(outcome_name(outcome), detail) != want) return std::nullopt;
      try {
        return sched::ScheduleLog::read(work);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    // Each candidate gets what is left of the search's time as its budget (and hang window),
    // so that a candidate that misses the finding and loops on, or hangs, ends with the search
    // rather than a budget of its own later (ten hang windows by default).
    const Options& given = scoped.given();
    auto limit_to = [&](uint64_t ms) {
      ms = std::max<uint64_t>(ms, kLeastCandidateMs);
      s.options.budget_ms = std::min(given.budget(), ms);
      s.options.timeout_ms = std::min(given.timeout_ms, s.options.budget_ms);
    };
    auto left_ms = [&] {
      using std::chrono::milliseconds;
      return uint64_t(std::max<int64_t>(
          0, std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count()));
    };
    const auto first = Clock::now();
    limit_to(left_ms());
    std::optional<sched::ScheduleLog> original = ends_in_finding(s.new_strategy());
    const uint64_t original_ms = uint64_t(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - first).count());
    if (!original) {
      m.error = Clock::now() >= deadline ? "the search's budget ran out while its seed ran again"
                                         : "its seed did not make the finding again in this JVM";
    } else {
      m.before = sched::count_preemptions(*original);
      sched::PreemptionSearch search;
      // A candidate ten times slower than the original is past its finding: it ends so, and
      // the search goes on with the next.
      const uint64_t candidate_ms = std::max<uint64_t>(10 * original_ms, kLeastCandidateMs * 2);
      search.follow = [&](const sched::ScheduleLog& guide) {
        limit_to(std::min(left_ms(), candidate_ms));
        return ends_in_finding(std::make_unique<sched::FollowStrategy>(guide));
      };
      search.out_of_budget = [&] {
        m.cut = m.cut || m.executions >= kMaxExecutions || Clock::now() > deadline;
        return m.cut;
      };
      best = sched::fewest_preemptions(*original, search);
      m.after = sched::count_preemptions(*best);
      // The checks of the result take about what the original took, not the search's time.
      limit_to(2 * original_ms);
      int reproduced = 0;
      for (int i = 0; i < 3; ++i)
        reproduced += ends_in_finding(std::make_unique<sched::FollowStrategy>(*best)).has_value();
      if (reproduced < 3)
        m.error = "the schedule with the fewest pre-emptions made the finding " +
                  std::to_string(reproduced) + " of 3 times";
    }
  }
  std::error_code ec;
  fs::remove(work, ec);
  if (!m.error.empty()) return m;
  try {
    best->write(file);
    m.file = file;
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

}  // namespace jsched::agent
