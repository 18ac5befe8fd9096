// The edge's validation layer (services/common/validation.h): limits, character sets, enums,
// Durations, and error messages that name the field and quote only a short prefix.
#include "services/common/validation.h"

#include <string>

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

}  // namespace
}  // namespace boneyard::validation
