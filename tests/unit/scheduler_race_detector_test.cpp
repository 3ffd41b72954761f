// Races on plain fields (scheduler/races/race_detector.h): two threads' accesses to one
// location, at least one a write, are a race unless a lock, a start or join, an unpark and park,
// a volatile or a java.util.concurrent object orders them.
#include <gtest/gtest.h>

#include "scheduler/races/race_detector.h"

using namespace jsched::sched;

namespace {

constexpr ObjectId kObj = 77, kLock = 5, kQueue = 9;

Op read(int32_t site, bool ordered = false) {
  Op o = Op::variable(false, kObj, 1, site);
  o.ordered = ordered;
  return o;
}
Op write(int32_t site, bool ordered = false) {
  Op o = Op::variable(true, kObj, 1, site);
  o.ordered = ordered;
  return o;
}

// Main (0) starts thread 1.
RaceDetector started() {
  RaceDetector d;
  d.event(0, Op::thread(OpKind::Start, 1));
  return d;
}

}  // namespace

TEST(RaceDetector, UnorderedWriteAndReadOfTwoThreadsRace) {
  RaceDetector d = started();
  d.event(1, write(10));
  d.event(0, read(20));
  ASSERT_EQ(d.races().size(), 1u);
  const Race& r = d.races()[0];
  EXPECT_EQ(r.first.thread, 1u);
  EXPECT_EQ(r.first.site, 10);
  EXPECT_TRUE(r.first.write);
  EXPECT_EQ(r.second.thread, 0u);
  EXPECT_EQ(r.second.site, 20);
  EXPECT_FALSE(r.second.write);
  // The same pair of sites again is the same race, whichever comes first.
  d.event(1, write(10));
  d.event(0, read(20));
  EXPECT_EQ(d.races().size(), 1u);
}

TEST(RaceDetector, ReadsAloneNeverRaceAndOneThreadNeverRacesWithItself) {
  RaceDetector d = started();
  d.event(0, read(1));
  d.event(1, read(2));
  d.event(1, write(3));
  d.event(1, read(4));
  ASSERT_EQ(d.races().size(), 1u);  // main's read, then thread 1's write
  EXPECT_EQ(d.races()[0].first.site, 1);
  EXPECT_EQ(d.races()[0].second.site, 3);
}

TEST(RaceDetector, WhatComesBeforeAStartOrAfterAJoinIsOrdered) {
  RaceDetector d;
  d.event(0, write(1));  // before the start
  d.event(0, Op::thread(OpKind::Start, 1));
  d.event(1, read(2));
  d.event(1, write(3));
  d.event(1, Op::of(OpKind::End));
  d.event(0, Op::thread(OpKind::Join, 1));
  d.event(0, read(4));  // after the join
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, AMonitorReleasedAndTakenOrders) {
  RaceDetector d = started();
  d.event(1, Op::monitor(OpKind::Enter, kLock));
  d.event(1, write(1));
  d.event(1, Op::monitor(OpKind::Exit, kLock));
  d.event(0, Op::monitor(OpKind::Enter, kLock));
  d.event(0, read(2));
  d.event(0, Op::monitor(OpKind::Exit, kLock));
  EXPECT_TRUE(d.races().empty());
  // Another lock orders nothing: thread 1's write races with main's read before it (2) and
  // after it (4).
  d.event(1, Op::monitor(OpKind::Enter, kLock + 1));
  d.event(1, write(3));
  d.event(1, Op::monitor(OpKind::Exit, kLock + 1));
  d.event(0, read(4));
  ASSERT_EQ(d.races().size(), 2u);
  EXPECT_EQ(d.races()[0].first.site, 2);
  EXPECT_EQ(d.races()[0].second.site, 3);
  EXPECT_EQ(d.races()[1].first.site, 3);
  EXPECT_EQ(d.races()[1].second.site, 4);
}

TEST(RaceDetector, AVolatileWriteReadByTheOtherThreadOrders) {
  RaceDetector d = started();
  Op flag_write = Op::variable(true, kObj, 2, 5);
  flag_write.ordered = true;
  Op flag_read = Op::variable(false, kObj, 2, 6);
  flag_read.ordered = true;
  d.event(1, write(1));
  d.event(1, flag_write);
  d.event(0, flag_read);
  d.event(0, read(2));
  EXPECT_TRUE(d.races().empty());
  // Ordered accesses never race themselves (a volatile counter's lost update is not a data race).
  d.event(1, flag_write);
  d.event(0, flag_write);
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, ACallOnAConcurrentObjectOrdersLaterCallsOnIt) {
  RaceDetector d = started();
  d.event(1, write(1));
  d.event(1, Op::sync(kQueue, true, 7));   // put
  d.event(0, Op::sync(kQueue, false, 8));  // take
  d.event(0, read(2));
  EXPECT_TRUE(d.races().empty());
}

// A lock() that starts before the holder's unlock() and takes the lock inside the JDK after it
// (spinning, yielding or parking in between, with no event at its return) learns what the
// holder did: at its thread's next event other than a park, an unpark or a yield. (It raced
// before: ReentrantLock, Guava's Monitor and caches warned of races on guarded fields.)
TEST(RaceDetector, AConcurrentCallLearnsAtItsReturnWhatWasPublishedBeforeIt) {
  RaceDetector d = started();
  d.event(0, Op::sync(kLock, true, 1));  // main: lock()
  d.event(0, read(2));
  d.event(0, write(3));
  d.event(1, Op::sync(kLock, true, 1));  // thread 1: lock(), which must wait
  d.event(1, Op::of(OpKind::Yield));     // spinning inside AQS
  d.event(0, Op::sync(kLock, true, 4));  // main: unlock()
  d.event(1, Op::of(OpKind::Yield));     // takes the lock, returns
  d.event(1, read(2));
  d.event(1, write(3));
  d.event(1, Op::sync(kLock, true, 4));
  d.event(0, Op::sync(kLock, true, 1));  // main: lock() again, parks
  d.event(0, Op::of(OpKind::Park));
  d.event(1, Op::thread(OpKind::Unpark, 0));
  d.event(0, Op::of(OpKind::Park));
  d.event(0, read(2));
  EXPECT_TRUE(d.races().empty()) << d.races().size();
  // An access without the lock still races with the guarded ones.
  d.event(1, write(5));
  ASSERT_EQ(d.races().size(), 1u);
  EXPECT_EQ(d.races()[0].second.site, 5);
}

TEST(RaceDetector, UnparkThenParkOrders) {
  RaceDetector d = started();
  d.event(1, write(1));
  d.event(1, Op::thread(OpKind::Unpark, 0));
  d.event(0, Op::of(OpKind::Park));
  d.event(0, read(2));
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, AWriteRacesWithEveryUnorderedReadBeforeIt) {
  RaceDetector d;
  d.event(0, Op::thread(OpKind::Start, 1));
  d.event(0, Op::thread(OpKind::Start, 2));
  d.event(1, read(1));
  d.event(2, read(2));
  d.event(0, write(3));
  EXPECT_EQ(d.races().size(), 2u);
}

// Two threads started one after the other by main, neither synchronizing: the second's read of
// what the first wrote races, though both know main's start of them.
TEST(RaceDetector, TwoSiblingsRaceThoughMainStartedBoth) {
  RaceDetector d;
  d.event(0, Op::thread(OpKind::Start, 1));
  d.event(1, write(1));
  d.event(0, Op::thread(OpKind::Start, 2));
  d.event(2, read(2));
  ASSERT_EQ(d.races().size(), 1u);
  EXPECT_EQ(d.races()[0].first.thread, 1u);
  EXPECT_EQ(d.races()[0].second.thread, 2u);
}

// The reads since a write are kept one per thread, the first in place and the others in lists
// reused across locations: every reader is still checked, after a write emptied the lists too.
TEST(RaceDetector, EveryReaderOfSeveralIsCheckedAcrossWritesAndLocations) {
  RaceDetector d;
  for (ThreadId t = 1; t <= 3; ++t) d.event(0, Op::thread(OpKind::Start, t));
  auto at = [](bool w, int64_t slot, int32_t site) { return Op::variable(w, kObj, slot, site); };
  for (int round = 0; round < 2; ++round) {
    for (int64_t slot = 1; slot <= 2; ++slot) {
      const int32_t base = int32_t(100 * round + 10 * slot);
      d.event(1, at(false, slot, base + 1));
      d.event(2, at(false, slot, base + 2));
      d.event(3, at(false, slot, base + 3));
      d.event(2, at(false, slot, base + 2));  // a reader again: still one entry for it
      d.event(0, at(true, slot, base + 4));
    }
  }
  // Each write races with the three reads before it, in each round and location (12); the
  // second round's reads race with the first round's write too (6).
  ASSERT_EQ(d.races().size(), 18u);
  int read_then_write = 0;
  for (const Race& r : d.races()) {
    const RaceAccess& reader = r.first.write ? r.second : r.first;
    EXPECT_EQ(reader.site % 10, int32_t(reader.thread));
    read_then_write += !r.first.write;
  }
  EXPECT_EQ(read_then_write, 12);
}
