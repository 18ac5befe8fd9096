// The edge's validation layer (services/common/validation.h): limits, character sets, enums,
// Durations, and error messages that name the field and quote only a short prefix.
#include "services/common/validation.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::validation {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(Quote, ShortValuesWhole) {
  EXPECT_EQ(Quote("ann"), "\"ann\"");
  EXPECT_EQ(Quote(""), "\"\"");
  EXPECT_EQ(Quote("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
}

TEST(Quote, LongValuesAreCutAndSized) {
  const std::string quoted = Quote(std::string(1 << 20, 'x'));
  EXPECT_EQ(quoted, absl::StrCat("\"", std::string(kQuotedBytes, 'x'), "\"… (1048576 bytes)"));
}

TEST(Quote, ControlCharactersAndBadBytesAreEscapedAndMultibyteCharactersKeptWhole) {
  EXPECT_EQ(Quote(std::string("a\0b\n", 4)), "\"a\\u0000b\\u000a\"");
  EXPECT_EQ(Quote("caf\xc3"), "\"caf\\xc3\"");
  // 31 bytes of 'x' and then a 2-byte character: it does not fit in 32, so it is left out.
  std::string value(31, 'x');
  value += "é";
  EXPECT_EQ(Quote(value), absl::StrCat("\"", std::string(31, 'x'), "\"… (33 bytes)"));
}

// Free text is checked as UTF-8: valid sequences pass, malformed ones name the byte.
TEST(Utf8, AcceptsValidAndRefusesMalformedSequences) {
  const auto valid = [](absl::string_view text) { return CheckText("t", text, 100).ok(); };
  EXPECT_TRUE(valid("plain"));
  EXPECT_TRUE(valid("café 漢字 🂡"));
  EXPECT_FALSE(valid("\xc3"));              // truncated
  EXPECT_FALSE(valid("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(valid("\xe0\x80\xaf"));      // overlong, 3 bytes
  EXPECT_FALSE(valid("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(valid("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(valid("\x80"));              // a lone continuation byte
  EXPECT_THAT(std::string(CheckText("t", "ab\xc3", 100).message()),
              HasSubstr("is not valid UTF-8 (byte 2)"));
}

TEST(PageSize, DefaultClampAndNegative) {
  EXPECT_EQ(*PageSize(0), kDefaultPageSize);
  EXPECT_EQ(*PageSize(7), 7);
  EXPECT_EQ(*PageSize(1'000'000), kMaxPageSize);
  const absl::Status negative = PageSize(-1).status();
  EXPECT_EQ(negative.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(negative.message(), "page_size: -1 is negative");
}

TEST(CheckId, RefusesEmptyLongControlSpaceAndBadUtf8) {
  EXPECT_TRUE(CheckId("player_id", "ann").ok());
  EXPECT_TRUE(CheckId("player_id", "Zoë_42-x.y@z").ok());
  EXPECT_TRUE(CheckId("player_id", std::string(kMaxIdBytes, 'a')).ok());
  for (const std::string& bad :
       {std::string(), std::string(kMaxIdBytes + 1, 'a'), std::string("a\0b", 3),
        std::string("a\tb"), std::string("a b"), std::string("a\xc2\xa0" "b"),
        std::string("\xff"), std::string("a\x7f"), std::string("a\xc2\x85")}) {
    const absl::Status status = CheckId("seats[0].player.player_id", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << Quote(bad);
    EXPECT_THAT(std::string(status.message()), StartsWith("seats[0].player.player_id: "));
  }
  EXPECT_TRUE(CheckOptionalId("game", "").ok());
  EXPECT_FALSE(CheckOptionalId("game", "a b").ok());
}

TEST(CheckId, TheMessageIsSmallWhateverTheValue) {
  const absl::Status status = CheckId("player_id", std::string(1 << 20, 'p'));
  EXPECT_LT(status.message().size(), 120u);
  EXPECT_THAT(std::string(status.message()), HasSubstr("longer than 64 bytes"));
  EXPECT_THAT(std::string(status.message()), HasSubstr("1048576 bytes"));
}

TEST(CheckText, AllowsSpacesTabsAndNewlinesOnly) {
  EXPECT_TRUE(CheckText("reason", "", 10).ok());
  EXPECT_TRUE(CheckText("reason", "two words\n\tand more", 100).ok());
  EXPECT_FALSE(CheckText("reason", std::string("a\0", 2), 10).ok());
  EXPECT_FALSE(CheckText("reason", "a\r", 10).ok());
  EXPECT_FALSE(CheckText("reason", "eleven byte", 10).ok());
  EXPECT_FALSE(CheckText("reason", "\xfe", 10).ok());
}

TEST(CheckEnum, KnownValuesOnly) {
  EXPECT_TRUE(CheckEnum("state", v1::Match::FINISHED).ok());
  EXPECT_TRUE(CheckEnum("state", v1::Match::STATE_UNSPECIFIED).ok());
  const absl::Status status = CheckEnum("state", static_cast<v1::Match::State>(99));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "state: 99 is not a State value");
  EXPECT_FALSE(
      CheckEnum("clock.timeout_policy", static_cast<v1::ClockSettings::TimeoutPolicy>(-1)).ok());
}

TEST(CheckDuration, TheProtobufRules) {
  auto duration = [](int64_t seconds, int32_t nanos) {
    google::protobuf::Duration d;
    d.set_seconds(seconds);
    d.set_nanos(nanos);
    return d;
  };
  EXPECT_TRUE(CheckDuration("d", duration(0, 0)).ok());
  EXPECT_TRUE(CheckDuration("d", duration(5, 500)).ok());
  EXPECT_TRUE(CheckDuration("d", duration(-5, -500)).ok());
  EXPECT_TRUE(CheckDuration("d", duration(0, -999'999'999)).ok());
  EXPECT_TRUE(CheckDuration("d", duration(315'576'000'000, 999'999'999)).ok());
  EXPECT_FALSE(CheckDuration("d", duration(315'576'000'001, 0)).ok());
  EXPECT_FALSE(CheckDuration("d", duration(-315'576'000'001, 0)).ok());
  EXPECT_FALSE(CheckDuration("d", duration(0, 1'000'000'000)).ok());
  EXPECT_FALSE(CheckDuration("d", duration(-1, 5)).ok());
  EXPECT_FALSE(CheckDuration("d", duration(1, -5)).ok());
}

TEST(CheckTimestamp, YearsOneToNineThousandNineHundredNinetyNineAndNanosInRange) {
  auto at = [](int64_t seconds, int32_t nanos) {
    google::protobuf::Timestamp t;
    t.set_seconds(seconds);
    t.set_nanos(nanos);
    return t;
  };
  EXPECT_TRUE(CheckTimestamp("t", at(0, 0)).ok());
  EXPECT_TRUE(CheckTimestamp("t", at(-62'135'596'800, 0)).ok());           // 0001-01-01
  EXPECT_TRUE(CheckTimestamp("t", at(253'402'300'799, 999'999'999)).ok());  // 9999-12-31
  EXPECT_THAT(CheckTimestamp("close", at(253'402'300'800, 0)).message(),
              StartsWith("close: seconds 253402300800 is outside the years 0001 to 9999"));
  EXPECT_FALSE(CheckTimestamp("t", at(-62'135'596'801, 0)).ok());
  EXPECT_THAT(CheckTimestamp("t", at(5, -1)).message(), HasSubstr("nanos -1"));
  EXPECT_FALSE(CheckTimestamp("t", at(5, 1'000'000'000)).ok());
}

TEST(CheckNonNegativeDuration, RefusesNegativeAndOverTheBound) {
  google::protobuf::Duration d;
  EXPECT_TRUE(CheckNonNegativeDuration("d", d, absl::Hours(1)).ok());
  d.set_seconds(3600);
  EXPECT_TRUE(CheckNonNegativeDuration("d", d, absl::Hours(1)).ok());
  d.set_nanos(1);
  EXPECT_THAT(CheckNonNegativeDuration("per_move", d, absl::Hours(1)).message(),
              StartsWith("per_move: "));
  d.set_seconds(-60);
  d.set_nanos(0);
  EXPECT_THAT(CheckNonNegativeDuration("d", d, absl::Hours(1)).message(), HasSubstr("negative"));
  d.set_seconds(-1);
  d.set_nanos(5);  // invalid before anything else: mixed signs
  EXPECT_THAT(CheckNonNegativeDuration("d", d, absl::Hours(1)).message(),
              HasSubstr("different signs"));
}

TEST(CheckResourceId, LettersDigitsDashAndUnderscoreOnly) {
  EXPECT_TRUE(CheckResourceId("id", "Spring-cup_2026").ok());
  for (const std::string& bad : std::vector<std::string>{"", "50%", "a/b", "..", "a.b", "c u p", "caf\xc3\xa9",
                                "cup\xe2\x80\xae", std::string(65, 'a')}) {
    EXPECT_THAT(CheckResourceId("tournament_id", bad).message(), StartsWith("tournament_id: "))
        << bad;
  }
}

TEST(CheckDisplayName, CountsCharactersAndRefusesBlankEdgesAndLineBreaks) {
  EXPECT_TRUE(CheckDisplayName("n", "Thursday Swiss", 80).ok());
  EXPECT_TRUE(CheckDisplayName("n", std::string(80, 'x'), 80).ok());
  // 80 two-byte letters are 80 characters, not 160.
  std::string accents;
  for (int i = 0; i < 80; ++i) accents += "\xc3\xa9";
  EXPECT_TRUE(CheckDisplayName("n", accents, 80).ok());
  EXPECT_THAT(CheckDisplayName("name", std::string(81, 'x'), 80).message(),
              HasSubstr("must have 1 to 80 characters, not 81"));
  EXPECT_FALSE(CheckDisplayName("n", "", 80).ok());
  EXPECT_THAT(CheckDisplayName("n", "   ", 80).message(), HasSubstr("white space"));
  EXPECT_FALSE(CheckDisplayName("n", " x", 80).ok());
  EXPECT_FALSE(CheckDisplayName("n", "x\xe3\x80\x80", 80).ok());  // ideographic space
  EXPECT_THAT(CheckDisplayName("n", "a\tb", 80).message(), HasSubstr("tab"));
  EXPECT_FALSE(CheckDisplayName("n", "a\x01" "b", 80).ok());
  EXPECT_FALSE(CheckDisplayName("n", "\xff", 80).ok());
}

TEST(CheckTextChars, CountsCharactersNotBytes) {
  EXPECT_TRUE(CheckTextChars("reason", "", 200).ok());
  EXPECT_TRUE(CheckTextChars("reason", std::string(200, 'n'), 200).ok());
  std::string two_byte;
  for (int i = 0; i < 200; ++i) two_byte += "\xc3\xa9";
  EXPECT_TRUE(CheckTextChars("reason", two_byte, 200).ok());
  EXPECT_THAT(CheckTextChars("reason", std::string(201, 'n'), 200).message(),
              HasSubstr("longer than 200 characters (201)"));
  EXPECT_THAT(CheckTextChars("reason", std::string(1 << 20, 'n'), 200).message(),
              HasSubstr("bytes"));  // refused by size before it is counted
}

TEST(CheckCount, AtMostTheLimit) {
  EXPECT_TRUE(CheckCount("tiebreaks", 16, 16).ok());
  EXPECT_THAT(CheckCount("tiebreaks", 10000, 16).message(),
              StartsWith("tiebreaks: 10000 items; at most 16"));
}

}  // namespace
}  // namespace boneyard::validation
