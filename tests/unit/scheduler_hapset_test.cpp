// HaPSet learning on the two worked examples of Wang et al.'s HaPSet paper (§3.1-3.2;
// docs/references.md): exactly the sets the
// paper lists, and what a new interleaving adds.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "scheduler/hapset/hapset.h"

using namespace jsched::sched;

namespace {

struct Event {
  ThreadId thread;
  uint64_t obj;
  HapAccess kind;
  uint64_t where;
};

// HaPSet[st] for every st, by `where` (the thread bits are checked separately).
std::map<uint64_t, std::set<uint64_t>> hapsets(const HapsetLearner& l) {
  std::map<uint64_t, std::set<uint64_t>> out;
  for (const HapPair& p : l.learned()) out[p.stmt.where].insert(p.pred.where);
  return out;
}

size_t run(HapsetLearner& l, const std::vector<Event>& events) {
  l.next_execution();
  size_t fresh = 0;
  for (const Event& e : events) fresh += l.event(e.thread, e.obj, e.kind, e.where);
  l.end_execution(true);
  return fresh;
}

// Figure 1: T1 sets p (e1) and later frees it (e4); T2 tests p (e2) and, if it is not null,
// uses it (e3). Statements are named 1..4.
constexpr ThreadId T1 = 1, T2 = 2;
constexpr uint64_t P = 7;
const Event e1{T1, P, HapAccess::Write, 1}, e2{T2, P, HapAccess::Read, 2},
    e3{T2, P, HapAccess::Read, 3}, e4{T1, P, HapAccess::Write, 4};

}  // namespace

TEST(Hapset, Figure1OneExecutionGivesThePapersSets) {
  HapsetLearner l;
  EXPECT_EQ(run(l, {e1, e2, e3, e4}), 2u);
  std::map<uint64_t, std::set<uint64_t>> want = {{2, {1}}, {4, {3}}};
  EXPECT_EQ(hapsets(l), want);
}

TEST(Hapset, Figure1GoodRunsCoverTheAtomicBlockAndTheViolationIsNew) {
  HapsetLearner l;
  run(l, {e1, e2, e3, e4});
  run(l, {e2, e1, e4});  // p still null at e2: no e3
  run(l, {e1, e4, e2});  // p already freed at e2: no e3
  std::map<uint64_t, std::set<uint64_t>> want = {{1, {2}}, {2, {1, 4}}, {4, {3}}};
  EXPECT_EQ(hapsets(l), want);  // HaPSet[e3] is empty
  for (const HapPair& p : l.learned()) {
    // T1's statements (1, 4) are the lower thread's: bit 0; T2's bit 1.
    EXPECT_EQ(p.stmt.thr, p.stmt.where == 1 || p.stmt.where == 4 ? 0 : 1);
    EXPECT_EQ(p.pred.thr, 1 - p.stmt.thr);
  }
  // The good runs again add nothing; the atomicity violation e1 e2 e4 e3 adds exactly
  // HaPSet[e3] = {e4} and HaPSet[e4] = {e2}.
  EXPECT_EQ(run(l, {e2, e1, e4}), 0u);
  EXPECT_EQ(run(l, {e1, e2, e3, e4}), 0u);
  EXPECT_EQ(l.pairs_of(T1, P, HapAccess::Write, 4).size(), 0u);
  l.next_execution();
  l.event(T1, P, HapAccess::Write, 1);
  l.event(T2, P, HapAccess::Read, 2);
  std::vector<HapPair> next = l.pairs_of(T1, P, HapAccess::Write, 4);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_FALSE(l.knows(next[0]));  // what a guided strategy prefers
  EXPECT_EQ(l.event(T1, P, HapAccess::Write, 4), 1u);
  EXPECT_EQ(l.event(T2, P, HapAccess::Read, 3), 1u);
  l.end_execution(true);
  want = {{1, {2}}, {2, {1, 4}}, {3, {4}}, {4, {2, 3}}};
  EXPECT_EQ(hapsets(l), want);
}

namespace {

// Figure 2, busy waiting: T1 loops a: while, b: lock(l), c: read x, d: unlock(l), e: end of
// the body; T2 runs f: lock(l), g: x = 1, h: unlock(l). Unlocks are not events.
constexpr uint64_t L = 20, X = 21;
std::vector<Event> busy_wait(int k) {
  std::vector<Event> ev;
  auto body = [&] {
    ev.push_back({T1, L, HapAccess::Lock, 'b'});
    ev.push_back({T1, X, HapAccess::Read, 'c'});
  };
  for (int i = 0; i < k; ++i) body();
  ev.push_back({T2, L, HapAccess::Lock, 'f'});
  ev.push_back({T2, X, HapAccess::Write, 'g'});
  body();
  return ev;
}

}  // namespace

TEST(Hapset, Figure2BusyWaitingGivesThePapersSetsAndMoreIterationsAreRedundant) {
  HapsetLearner l;
  run(l, busy_wait(3));  // {abcde}^3 fgh abcde
  std::map<uint64_t, std::set<uint64_t>> want = {
      {'g', {'c'}}, {'c', {'g'}}, {'b', {'f'}}, {'f', {'b'}}};
  EXPECT_EQ(hapsets(l), want);
  // Interleavings that differ only in how often the loop ran offer nothing new.
  for (int k = 1; k <= 12; ++k) EXPECT_EQ(run(l, busy_wait(k)), 0u) << k;
  EXPECT_EQ(l.known().size(), 4u);
}

TEST(Hapset, ConflictsAreReadWriteWriteWriteLockLockAndWaitNotify) {
  using A = HapAccess;
  EXPECT_FALSE(hap_conflict(A::Read, A::Read));
  EXPECT_TRUE(hap_conflict(A::Read, A::Write));
  EXPECT_TRUE(hap_conflict(A::Write, A::Read));
  EXPECT_TRUE(hap_conflict(A::Write, A::Write));
  EXPECT_TRUE(hap_conflict(A::Lock, A::Lock));
  EXPECT_FALSE(hap_conflict(A::Lock, A::Write));
  EXPECT_TRUE(hap_conflict(A::Wait, A::Notify));
  EXPECT_TRUE(hap_conflict(A::Notify, A::Wait));
  EXPECT_FALSE(hap_conflict(A::Notify, A::Notify));
}

TEST(Hapset, OnlyPassingExecutionsTeach) {
  HapsetLearner l;
  l.next_execution();
  EXPECT_EQ(l.event(T1, P, HapAccess::Write, 1), 0u);
  EXPECT_EQ(l.event(T2, P, HapAccess::Read, 2), 1u);
  EXPECT_EQ(l.current().size(), 1u);
  l.end_execution(false);  // a bug: nothing learned
  EXPECT_TRUE(l.known().empty());
  l.event(T1, P, HapAccess::Write, 1);
  EXPECT_EQ(l.event(T2, P, HapAccess::Read, 2), 1u);
  EXPECT_EQ(l.event(T2, P, HapAccess::Read, 2), 0u);  // own access in between: no pair
  EXPECT_EQ(l.current_new(), 1u);
  l.end_execution(true);
  EXPECT_EQ(l.known().size(), 1u);
  EXPECT_TRUE(l.current().empty());
}
