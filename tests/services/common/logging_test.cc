#include "services/common/logging.h"

#include <memory>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spdlog/sinks/ostream_sink.h"
#include "spdlog/spdlog.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

TEST(ParseLogLevelTest, KnowsTheSixLevels) {
  EXPECT_EQ(ParseLogLevel("trace").value(), spdlog::level::trace);
  EXPECT_EQ(ParseLogLevel("debug").value(), spdlog::level::debug);
  EXPECT_EQ(ParseLogLevel("info").value(), spdlog::level::info);
  EXPECT_EQ(ParseLogLevel("WARN").value(), spdlog::level::warn);
  EXPECT_EQ(ParseLogLevel("error").value(), spdlog::level::err);
  EXPECT_EQ(ParseLogLevel("off").value(), spdlog::level::off);
  EXPECT_EQ(ParseLogLevel("verbose").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseLogLevel("").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(InitLoggingTest, RejectsAnUnknownLevelAndChangesNothing) {
  std::shared_ptr<spdlog::logger> before = spdlog::default_logger();
  absl::Status status = InitLogging("execution", "loud");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("loud"));
  EXPECT_EQ(spdlog::default_logger(), before);
}

TEST(InitLoggingTest, SetsTheDefaultLoggerAndLevel) {
  ASSERT_TRUE(InitLogging("execution", "warn").ok());
  EXPECT_EQ(spdlog::default_logger()->name(), "execution");
  EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::warn);
  ASSERT_TRUE(InitLogging("execution", "info").ok());
  EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::info);
}

// A flood of log lines (protobuf writes one per malformed request) is cut to `limit` a window;
// the next line let through says how many were dropped.
TEST(LogRateLimiterTest, LetsLimitThroughPerWindowAndCountsTheRest) {
  LogRateLimiter limiter(3, absl::Minutes(1));
  const absl::Time t0 = absl::FromUnixSeconds(1'700'000'000);
  int admitted = 0;
  int64_t suppressed = -1;
  for (int i = 0; i < 100; ++i) admitted += limiter.Admit(t0 + absl::Milliseconds(i), suppressed);
  EXPECT_EQ(admitted, 3);
  EXPECT_EQ(suppressed, 0);
  ASSERT_TRUE(limiter.Admit(t0 + absl::Minutes(1), suppressed));
  EXPECT_EQ(suppressed, 97);
  ASSERT_TRUE(limiter.Admit(t0 + absl::Minutes(1) + absl::Seconds(1), suppressed));
  EXPECT_EQ(suppressed, 0);
}

TEST(LogfmtValueTest, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(LogfmtValue("abc"), "abc");
  EXPECT_EQ(LogfmtValue("matches/8f3c"), "matches/8f3c");
  EXPECT_EQ(LogfmtValue(""), "\"\"");
  EXPECT_EQ(LogfmtValue("two words"), "\"two words\"");
  EXPECT_EQ(LogfmtValue("a=b"), "\"a=b\"");
  EXPECT_EQ(LogfmtValue("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(LogfmtValue("back\\slash"), "\"back\\\\slash\"");
  EXPECT_EQ(LogfmtValue("line\nbreak"), "\"line\\nbreak\"");
  EXPECT_EQ(LogfmtValue(std::string("nul\0", 4)), "\"nul\\x00\"");
}

TEST(LogFieldsTest, FormatsValuesOfEveryKind) {
  LogFields fields = Fields()
                         .Add("s", std::string("x y"))
                         .Add("c", "lit")
                         .Add("v", absl::string_view("sv"))
                         .Add("i", 42)
                         .Add("u", uint64_t{7})
                         .Add("d", 1.5)
                         .Add("b", true)
                         .Add("t", absl::Milliseconds(250))
                         .Add("st", absl::NotFoundError("no match"));
  EXPECT_EQ(fields.text(),
            " s=\"x y\" c=lit v=sv i=42 u=7 d=1.5 b=true t=250ms st=\"NOT_FOUND: no match\"");
}

// Logs through a logger with the logfmt formatter into a string.
class LogfmtFormatterTest : public ::testing::Test {
 protected:
  LogfmtFormatterTest()
      : logger_("test", std::make_shared<spdlog::sinks::ostream_sink_st>(out_)) {
    logger_.set_formatter(NewLogfmtFormatter("execution"));
    logger_.set_level(spdlog::level::trace);
  }

  std::ostringstream out_;
  spdlog::logger logger_;
};

TEST_F(LogfmtFormatterTest, WritesOneLogfmtLine) {
  logger_.info("match created {}",
               Fields().Add("match", "8f3c").Add("game", "fives").Add("note", "two words"));
  EXPECT_THAT(out_.str(),
              MatchesRegex("ts=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z "
                           "level=info service=execution msg=\"match created\" match=8f3c "
                           "game=fives note=\"two words\"\n"));
}

TEST_F(LogfmtFormatterTest, QuotesTheMessageAndNamesLevels) {
  logger_.warn("said \"{}\"", "hello");
  logger_.error("no fields");
  logger_.debug("d");
  const std::string out = out_.str();
  EXPECT_THAT(out, HasSubstr(" level=warn service=execution msg=\"said \\\"hello\\\"\"\n"));
  EXPECT_THAT(out, HasSubstr(" level=error service=execution msg=\"no fields\"\n"));
  EXPECT_THAT(out, HasSubstr(" level=debug service=execution msg=\"d\"\n"));
}

}  // namespace
}  // namespace boneyard
