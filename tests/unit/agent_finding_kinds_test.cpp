#include <gtest/gtest.h>

#include "jvmti-agent/executions/finding_kinds.h"

namespace jsched::agent {
namespace {

TEST(FindingKinds, NumbersThatVaryAreMaskedLineNumbersAreNot) {
  const std::string a = FindingKinds::kind(
      "BUG", "uncaught java.lang.AssertionError: count 126 in thread 0\n    at A.main(A.java:34)");
  const std::string b = FindingKinds::kind(
      "BUG", "uncaught java.lang.AssertionError: count 113 in thread 0\n    at A.main(A.java:9)");
  EXPECT_EQ(a, b);  // the stack below the first line is not part of the kind
  EXPECT_EQ(a, "BUG:uncaught java.lang.AssertionError: count # in thread #");
  // Another line of the same file is another kind; another outcome too.
  EXPECT_NE(FindingKinds::kind("DEADLOCK", "0 at A.main(A.java:26), 0.1 at A.run(A.java:20)"),
            FindingKinds::kind("DEADLOCK", "0 at A.main(A.java:27), 0.1 at A.run(A.java:20)"));
  EXPECT_NE(FindingKinds::kind("BUG", "x 1"), FindingKinds::kind("HANG", "x 1"));
}

TEST(FindingKinds, TheFirstOfAKindIsRememberedWithItsIteration) {
  FindingKinds k;
  EXPECT_FALSE(k.seen("BUG:a"));
  EXPECT_EQ(k.first_of("BUG:a", 3), std::nullopt);
  EXPECT_TRUE(k.seen("BUG:a"));
  EXPECT_EQ(k.first_of("BUG:a", 7), 3u);
  EXPECT_EQ(k.first_of("BUG:b", 8), std::nullopt);
  EXPECT_EQ(k.first_of("BUG:b", 9), 8u);
}

}  // namespace
}  // namespace jsched::agent
