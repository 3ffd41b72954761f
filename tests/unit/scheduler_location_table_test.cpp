#include <gtest/gtest.h>

#include <cstdint>

#include "scheduler/core/location_table.h"

using jsched::sched::LocationTable;

// Locations keep their values while the table grows past many doublings, and (obj, slot) pairs
// that share an object or a slot stay apart.
TEST(LocationTable, ValuesSurviveGrowthAndKeysStayApart) {
  LocationTable<uint64_t> t;
  constexpr uint64_t kObjects = 20000;
  for (uint64_t o = 1; o <= kObjects; ++o) {
    for (int64_t s = 0; s < 3; ++s) *t.find_or_add(o, s, SIZE_MAX) = o * 10 + uint64_t(s);
  }
  EXPECT_EQ(t.size(), kObjects * 3);
  for (uint64_t o = 1; o <= kObjects; ++o) {
    for (int64_t s = 0; s < 3; ++s) ASSERT_EQ(*t.find_or_add(o, s, SIZE_MAX), o * 10 + uint64_t(s));
  }
  EXPECT_EQ(t.size(), kObjects * 3) << "looking up added nothing";
}

// Past its bound the table follows no new location, and still answers for the ones it holds.
TEST(LocationTable, ABoundedTableRefusesNewLocationsOnly) {
  LocationTable<int> t;
  for (uint64_t o = 1; o <= 100; ++o) ASSERT_NE(t.find_or_add(o, -1, 100), nullptr);
  EXPECT_EQ(t.find_or_add(101, -1, 100), nullptr);
  EXPECT_EQ(t.find_or_add(1, 0, 100), nullptr) << "another slot of a known object is new";
  ASSERT_NE(t.find_or_add(50, -1, 100), nullptr);
  EXPECT_EQ(t.size(), 100u);
}

// Keys that collide in the low bits of a plain multiplicative hash (objects a power of two
// apart, slots of one object) are all found.
TEST(LocationTable, StridedKeysAreFound) {
  LocationTable<int> t;
  for (uint64_t i = 1; i <= 5000; ++i) *t.find_or_add(i << 20, int64_t(i & 7), SIZE_MAX) = int(i);
  for (uint64_t i = 1; i <= 5000; ++i)
    ASSERT_EQ(*t.find_or_add(i << 20, int64_t(i & 7), SIZE_MAX), int(i));
}

// Object 0 (kNoObject) is a key like any other: an empty slot never answers for it.
TEST(LocationTable, ObjectZeroIsAKeyLikeAnyOther) {
  LocationTable<int> t;
  *t.find_or_add(0, 0, SIZE_MAX) = 5;
  for (uint64_t o = 1; o <= 1000; ++o) *t.find_or_add(o, 0, SIZE_MAX) = 7;
  EXPECT_EQ(*t.find_or_add(0, 0, SIZE_MAX), 5);
  EXPECT_EQ(t.size(), 1001u);
}
