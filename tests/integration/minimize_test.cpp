// jsched minimize: the smallest schedule that still fails, and its timeline.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include "tests/integration/agent_runner.h"
#include "tests/integration/results.h"
#include "tests/support/test_paths.h"

using namespace jsched;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// A seed whose run of `main` (with agent options `extra`) ends with `status`.
int seed_with(const std::string& main, int status, const std::string& extra = "") {
  return test::first_seed_with("strategy=random" + extra, 400, status == 4 ? "DEADLOCK" : "BUG",
                               JSCHED_SAMPLES_CLASSES, main);
}

std::string agent_arg(const std::string& options) {
  return "-agentpath:" + test::agent_path() + "=" + options;
}

}  // namespace

// A lost update (an assertion), a lock-order deadlock on monitors and one on ReentrantLocks:
// each finding minimized, the minimal schedule has no more pre-emptions than the original and
// replays the same outcome every time.
TEST(Minimize, FindsASmallerScheduleThatStillFailsAndReplaysIt) {
  struct Case {
    const char* main;
    int status;
  } cases[] = {{"jsched.samples.account.Main", 3},
               {"jsched.samples.philosophers.Main", 4},
               {"jsched.samples.lockorder.Main", 4}};
  for (const Case& c : cases) {
    int seed = seed_with(c.main, c.status);
    ASSERT_GT(seed, 0) << c.main;
    test::TempDir d;
    std::string out = d.path() + "/m";
    test::ProcessResult p =
        test::run_jsched({"minimize", "--out", out, "--text", "--", test::java_bin(),
                          agent_arg("strategy=random,seed=" + std::to_string(seed)), "-cp",
                          JSCHED_SAMPLES_CLASSES, c.main});
    ASSERT_EQ(p.status, 0) << c.main << "\n" << p.err << p.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(p.out, m, std::regex(R"(preemptions: (\d+) -> (\d+))"))) << p.out;
    EXPECT_LE(std::stoi(m[2]), std::stoi(m[1])) << c.main;
    EXPECT_TRUE(fs::exists(out + "/minimal.sched"));
    EXPECT_TRUE(has(p.out, "timeline: " + out + "/timeline.html"));
    for (int i = 0; i < 20; ++i) {
      test::ProcessResult r =
          test::run_agent("replay=" + out + "/minimal.sched", JSCHED_SAMPLES_CLASSES, c.main);
      ASSERT_EQ(r.status, c.status) << c.main << " replay " << i << ": " << r.err;
    }
    std::string html = test::slurp(out + "/timeline.html");
    EXPECT_TRUE(has(html, "<th class=lane>thread 0</th>"));
    EXPECT_FALSE(has(html, "http://") || has(html, "https://")) << "self-contained";
  }
}

// download's workers take chunks in a loop: once a pre-emption is out, a worker takes more or
// fewer chunks, and every later step count moves. Anchored at the operation they came before,
// the other pre-emptions still do their work, and the search gets within the bug's depth (3)
// plus one (anchored by step counts alone it stopped at 5).
TEST(Minimize, PreemptionsAnchoredBySiteSurviveALoopThatTurnsMoreOften) {
  const std::string main = "jsched.samples.download.Main";
  int seed = seed_with(main, 3, ",accesses=all");
  ASSERT_GT(seed, 0);
  test::TempDir d;
  std::string out = d.path() + "/m";
  test::ProcessResult p =
      test::run_jsched({"minimize", "--out", out, "--", test::java_bin(),
                        agent_arg("strategy=random,accesses=all,seed=" + std::to_string(seed)),
                        "-cp", JSCHED_SAMPLES_CLASSES, main});
  ASSERT_EQ(p.status, 0) << p.err << p.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(p.out, m, std::regex(R"(preemptions: (\d+) -> (\d+))"))) << p.out;
  EXPECT_LE(std::stoi(m[2]), 4) << p.out;
  for (int i = 0; i < 5; ++i) {
    test::ProcessResult r =
        test::run_agent("replay=" + out + "/minimal.sched", JSCHED_SAMPLES_CLASSES, main);
    ASSERT_EQ(r.status, 3) << "replay " << i << ": " << r.err;
  }
}

TEST(Minimize, BadInputIsRefusedAndNothingIsWrittenHalf) {
  test::TempDir d;
  std::string out = d.path() + "/m";
  // Not a jsched replay command.
  test::ProcessResult a = test::run_jsched({"minimize", "--out", out, "--", test::java_bin(), "-cp",
                                            JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main"});
  EXPECT_EQ(a.status, 2);
  EXPECT_TRUE(has(a.err, "not a jsched replay command")) << a.err;
  // A run that finds nothing.
  test::ProcessResult b = test::run_jsched(
      {"minimize", "--out", out, "--", test::java_bin(), agent_arg("strategy=random,seed=1"), "-cp",
       JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Fixed"});
  EXPECT_EQ(b.status, 1);
  EXPECT_TRUE(has(b.err, "does not replay a finding")) << b.err;
  EXPECT_FALSE(fs::exists(out)) << "nothing written half";
  // A budget of 0.
  test::ProcessResult c =
      test::run_jsched({"minimize", "--max-runs", "0", "--", test::java_bin(), agent_arg("seed=1"),
                        "-cp", JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main"});
  EXPECT_EQ(c.status, 2);
  EXPECT_TRUE(has(c.err, "--max-runs: '0'")) << c.err;
  // Agent options the agent refuses: its own reason, a usage error.
  test::ProcessResult e = test::run_jsched({"minimize", "--out", out, "--", test::java_bin(),
                                            agent_arg("strategy=bogus,seed=1"), "-cp",
                                            JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main"});
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(has(e.err, "jsched: error: strategy: unknown strategy 'bogus'")) << e.err;
  EXPECT_FALSE(fs::exists(out)) << "nothing written half";
  for (const auto& r : {a, b, c, e})
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A replay command pasted with its own report= and record= (where that run wrote them) and a
// timeout: the first two are the minimizer's to choose, the timeout carries into every
// candidate and into the minimal schedule's replay command.
TEST(Minimize, APastedCommandsOwnFilesAndTimeoutAreHandled) {
  int seed = seed_with("jsched.samples.account.Main", 3);
  ASSERT_GT(seed, 0);
  test::TempDir d;
  test::ProcessResult p = test::run_jsched(
      {"minimize", "--out", d.path() + "/m", "--", test::java_bin(),
       agent_arg("strategy=random,seed=" + std::to_string(seed) +
                 ",timeout=4000,report=" + d.path() + "/r.json,record=" + d.path() + "/r.sched"),
       "-cp", JSCHED_SAMPLES_CLASSES, "jsched.samples.account.Main"});
  ASSERT_EQ(p.status, 0) << p.err << p.out;
  EXPECT_TRUE(has(p.out, "minimal.sched,timeout=4000 ")) << p.out;
}

// The timeline pages of a deadlock on monitors, a lost update and a deadlock on j.u.c. locks in
// headless Chromium: each renders (its one script ran: no script error), has a lane per thread
// and the pre-emptions highlighted, and can be drawn as a picture.
TEST(Minimize, TheTimelineRendersInHeadlessChromium) {
  // The test command installs chromium; a missing browser is a set-up failure, not a pass.
  ASSERT_TRUE(fs::exists("/usr/bin/chromium"))
      << "chromium is not installed (install-deps.sh --test)";
  struct Case {
    const char* main;
    int status;
  } cases[] = {{"jsched.samples.philosophers.Main", 4},
               {"jsched.samples.account.Main", 3},
               {"jsched.samples.lockorder.Main", 4}};
  for (const Case& c : cases) {
    int seed = seed_with(c.main, c.status);
    ASSERT_GT(seed, 0);
    test::TempDir d;
    std::string out = d.path() + "/m";
    test::ProcessResult p =
        test::run_jsched({"minimize", "--out", out, "--", test::java_bin(),
                          agent_arg("strategy=random,seed=" + std::to_string(seed)), "-cp",
                          JSCHED_SAMPLES_CLASSES, c.main});
    ASSERT_EQ(p.status, 0) << p.err;
    const std::vector<std::string> browser = {"/usr/bin/chromium",
                                              "--headless",
                                              "--no-sandbox",
                                              "--disable-gpu",
                                              "--disable-quic",
                                              "--no-first-run",
                                              "--disable-sync",
                                              "--disable-background-networking",
                                              "--disable-component-update"};
    std::vector<std::string> dump = browser;
    dump.insert(dump.end(), {"--user-data-dir=" + d.path() + "/profile", "--dump-dom",
                             "file://" + out + "/timeline.html"});
    test::ProcessResult dom = test::run(dump);
    ASSERT_EQ(dom.status, 0) << dom.err;
    EXPECT_TRUE(has(dom.out, "data-rendered=\"yes\"")) << c.main << ": the page's script ran";
    size_t lanes = 0;
    for (size_t at = 0; (at = dom.out.find("<th class=\"lane\">thread ", at)) != std::string::npos;
         ++at)
      ++lanes;
    EXPECT_GE(lanes, 2u) << c.main << ": a lane per thread";
    EXPECT_TRUE(has(dom.out, "<th class=\"lane\">thread 0.1</th>")) << c.main;
    EXPECT_TRUE(has(dom.out, "class=\"preempt\"")) << c.main << ": pre-emptions highlighted";
    EXPECT_TRUE(has(dom.out, "<svg id=\"arrow\"")) << c.main << ": the conflicting pair's arrow";
    std::vector<std::string> shot = browser;
    shot.insert(shot.end(),
                {"--user-data-dir=" + d.path() + "/profile2", "--window-size=1000,800",
                 "--screenshot=" + d.path() + "/shot.png", "file://" + out + "/timeline.html"});
    EXPECT_EQ(test::run(shot).status, 0) << c.main;
    EXPECT_GT(fs::file_size(d.path() + "/shot.png"), 5000u) << c.main;
  }
}

// `jsched run` minimizes each distinct finding once and links its timeline from the report;
// --no-minimize leaves them as found.
TEST(Minimize, RunMinimizesEachDistinctFindingAndLinksItsTimeline) {
  test::TempDir d;
  const std::string out = d.path() + "/r";
  test::ProcessResult p =
      test::run_jsched({"run", "--runs", "30", "--seed", "7", "--out", out, "--", test::java_bin(),
                        "-cp", JSCHED_SAMPLES_CLASSES, "jsched.samples.lockorder.Main"});
  ASSERT_EQ(p.status, 1) << p.err << p.out;
  EXPECT_TRUE(has(p.err, "jsched: minimizing finding 1/1")) << p.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      p.out, m,
      std::regex(R"(minimal schedule: (\d+) -> (\d+) pre-emptions, timeline (\S+); replay: (.*))")))
      << p.out;
  EXPECT_LE(std::stoi(m[2]), std::stoi(m[1]));
  EXPECT_TRUE(fs::exists(m[3].str()));
  EXPECT_TRUE(has(test::slurp(out + "/minimized.jsonl"), "\"error\":\"\"")) << "reproduced";
  std::string html = test::slurp(out + "/report.html");
  EXPECT_TRUE(has(html, "<a href=\"minimal/1/timeline.html\">timeline</a>")) << "linked";
  std::string junit = test::slurp(out + "/junit.xml");
  EXPECT_TRUE(has(junit, "minimal replay (")) << junit;

  const std::string off = d.path() + "/off";
  test::ProcessResult q = test::run_jsched(
      {"run", "--runs", "30", "--seed", "7", "--no-minimize", "--out", off, "--", test::java_bin(),
       "-cp", JSCHED_SAMPLES_CLASSES, "jsched.samples.lockorder.Main"});
  ASSERT_EQ(q.status, 1) << q.err;
  EXPECT_FALSE(has(q.out, "minimal schedule")) << q.out;
  EXPECT_FALSE(fs::exists(off + "/minimal"));
}

// A finding made inside an --in-jvm JVM minimizes like any other (its replay command runs one
// execution), and a deadlock on j.u.c. locks does too.
TEST(Minimize, InJvmFindingsMinimize) {
  test::TempDir d;
  const std::string out = d.path() + "/r";
  test::ProcessResult p = test::run_jsched(
      {"run", "--runs", "60", "--in-jvm", "30", "--seed", "3", "--out", out, "--", test::java_bin(),
       "-cp", JSCHED_SAMPLES_CLASSES, "jsched.samples.lockorder.Main"});
  ASSERT_EQ(p.status, 1) << p.err << p.out;
  EXPECT_TRUE(has(p.out, "minimal schedule: ")) << p.out;
  EXPECT_TRUE(has(test::slurp(out + "/minimized.jsonl"), "\"error\":\"\"")) << "reproduced";
}

// A finding of 4 million pre-emptions: minimized, or cut short with the fewest found so far
// and said so, within the budget plus 10% (the search's bookkeeping was quadratic: it ran for
// more than 10 minutes past a 120 s budget).
TEST(Minimize, FourMillionPreemptionsStayWithinTheBudget) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  test::TempDir d;
  // 4,200,000 turns each of two threads: about 4.2 million pre-emptions, 4 to 8 s a run.
  auto minimize = [&](const std::string& out, const std::string& seconds) {
    return test::run_jsched({"minimize", "--out", out, "--max-seconds", seconds, "--",
                             test::java_bin(), agent_arg("strategy=random,seed=1"), "-cp",
                             test::data_dir() + "/agent", "LongRace", "4200000"});
  };
  const std::string out = d.path() + "/m";
  const auto started = Clock::now();
  test::ProcessResult p = minimize(out, "60");
  EXPECT_LE(since(started), 60 * 1.1) << p.out << p.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(p.out, m, std::regex(R"(preemptions: (\d+) -> (\d+))")))
      << p.out << p.err;
  const unsigned long before = std::stoul(m[1]), after = std::stoul(m[2]);
  EXPECT_GE(before, 4'000'000u);
  EXPECT_LE(after, before);
  if (p.status == 0) {
    EXPECT_TRUE(fs::exists(out + "/minimal.sched"));
  } else {
    // Not checked in the time left: said so, never passed off as checked.
    EXPECT_EQ(p.status, 1);
    EXPECT_TRUE(has(p.err, "budget ran out before the minimal schedule could be replayed"))
        << p.err;
  }
  if (after == before || has(p.out, "search cut short")) {
    EXPECT_TRUE(has(p.out, "search cut short: its time (--max-seconds 60) ran out")) << p.out;
  }
  EXPECT_TRUE(has(p.err, "no timeline: the schedule has") || has(p.out, "timeline: ")) << p.err;

  // A budget shorter than the finding's own run: a clear error, on time (the JVM killed and
  // its gigabyte of memory given back). The run takes 4 to 8 s since executions stopped
  // computing HaPSet coverage (17 s before).
  const auto again = Clock::now();
  test::ProcessResult q = minimize(d.path() + "/q", "3");
  EXPECT_LE(since(again), 3 * 1.1);
  EXPECT_EQ(q.status, 1);
  EXPECT_TRUE(has(q.err, "ran out before the finding's own run ended")) << q.err;
  EXPECT_FALSE(fs::exists(d.path() + "/q"));
}
