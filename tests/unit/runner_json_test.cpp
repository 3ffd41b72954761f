// The JSON module the agent's reports and the runner's records go through: what it reads, what
// it writes back, and how it refuses malformed text.
#include <gtest/gtest.h>

#include "protocol/json.h"

using namespace jsched;

TEST(Json, ReadsEveryKindAndWritesItBackTheSame) {
  const std::string text =
      R"({"a":[1,2.5,-3e2],"b":true,"c":null,"d":"x\"y\\z\n\u00e9","e":{"f":false},"g":[]})";
  json::Value v = json::parse(text);
  EXPECT_EQ(v["a"].items().size(), 3u);
  EXPECT_EQ(v["a"].items()[2].as_number(), -300);
  EXPECT_TRUE(v["b"].as_bool());
  EXPECT_TRUE(v["c"].is(json::Value::Null));
  EXPECT_EQ(v.str("d"), "x\"y\\z\n\xc3\xa9");
  EXPECT_FALSE(v["e"]["f"].as_bool());
  EXPECT_TRUE(v["missing"].is(json::Value::Null));
  EXPECT_EQ(v.num("missing", 7), 7);
  EXPECT_EQ(json::parse(v.dump()).dump(), v.dump());
}

TEST(Json, LargeIntegersSurviveAsSeedsNeedThem) {
  // Seeds are written as strings (a double holds 53 bits); counts as numbers.
  json::Value v = json::parse(R"({"seed":"18446744073709551615","runs":9007199254740992})");
  EXPECT_EQ(v.str("seed"), "18446744073709551615");
  EXPECT_EQ(v["runs"].as_u64(), 9007199254740992ULL);
}

TEST(Json, KeysAreWrittenSortedAndStringsQuoted) {
  json::Value o = json::Value::object();
  o.set("z", json::Value::number(1));
  o.set("a", json::Value::string("tab\there"));
  EXPECT_EQ(o.dump(), R"({"a":"tab\there","z":1})");
  EXPECT_EQ(json::quote("\x01"), "\"\\u0001\"");
}

TEST(Json, MalformedTextIsRefusedWithItsOffset) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"open", "{} x", "[1 2]"}) {
    try {
      json::parse(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const json::ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos) << bad << ": " << e.what();
    }
  }
}
