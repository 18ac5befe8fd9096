// The web service's small parsers and mappings: percent-decoding, query
// strings, cookies, the Prometheus text the overview reads, and gRPC codes as
// HTTP statuses.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/web/json_wire.h"
#include "services/web/url.h"

namespace boneyard::web {
namespace {

TEST(PercentDecodeTest, DecodesEscapesAndKeepsMalformedOnesAsWritten) {
  EXPECT_EQ(PercentDecode("/api/matches%2Fx"), "/api/matches/x");
  EXPECT_EQ(PercentDecode("a%zzb%2"), "a%zzb%2");
  EXPECT_EQ(PercentDecode("a+b"), "a+b");
  EXPECT_EQ(PercentDecode("a+b", /*plus_is_space=*/true), "a b");
  EXPECT_EQ(PercentDecode("%"), "%");
}

TEST(ParseQueryTest, SplitsPairsAndKeepsTheLastOfARepeatedKey) {
  const auto q = ParseQuery("state=ACTIVE&game=mexican%5Ftrain&flag&state=FINISHED&&x=a+b");
  EXPECT_EQ(q.at("state"), "FINISHED");
  EXPECT_EQ(q.at("game"), "mexican_train");
  EXPECT_EQ(q.at("flag"), "");
  EXPECT_EQ(q.at("x"), "a b");
  EXPECT_EQ(q.size(), 4u);
}

TEST(CheckTargetTest, RefusesBadUtf8AndControlCharactersNamingThePart) {
  EXPECT_TRUE(CheckTarget("/api/players/\xc3\xa9t\xc3\xa9", {{"game", "muggins"}}).ok());
  EXPECT_TRUE(CheckTarget("/", {}).ok());
  EXPECT_THAT(CheckTarget(PercentDecode("/api/leaderboard/%FF"), {}).message(),
              ::testing::StartsWith("path: "));
  EXPECT_THAT(CheckTarget("/a\nb", {}).message(), ::testing::StartsWith("path: "));
  EXPECT_THAT(CheckTarget("/api/x", ParseQuery("page_token=%FF")).message(),
              ::testing::StartsWith("query parameter \"page_token\": "));
  EXPECT_THAT(CheckTarget("/api/x", ParseQuery("%C3=1")).message(),
              ::testing::StartsWith("a query parameter's name: "));
  EXPECT_FALSE(CheckTarget("/api/x", ParseQuery("game=a%00b")).ok());
}

TEST(CookieValueTest, FindsTheNamedCookieOnly) {
  EXPECT_EQ(CookieValue("a=1; boneyard_session=xyz; b=2", "boneyard_session"), "xyz");
  EXPECT_EQ(CookieValue("boneyard_session_old=1", "boneyard_session"), std::nullopt);
  EXPECT_EQ(CookieValue("", "boneyard_session"), std::nullopt);
  EXPECT_EQ(CookieValue("novalue; s=", "s"), "");
}

TEST(JsonWireTest, GrpcCodesMapToTheirHttpStatusesWithTheMessageKept) {
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kInvalidArgument), 400);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kFailedPrecondition), 400);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kUnauthenticated), 401);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kPermissionDenied), 403);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kNotFound), 404);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kAborted), 409);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kAlreadyExists), 409);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kResourceExhausted), 429);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kUnavailable), 503);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kDeadlineExceeded), 504);
  EXPECT_EQ(HttpStatusOf(absl::StatusCode::kInternal), 500);
  const HttpResponse r = ErrorResponse(absl::FailedPreconditionError("6-4 \"does\" not fit"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":{"code":"FAILED_PRECONDITION","message":"6-4 \"does\" not fit"}})");
  // A message that is not UTF-8 still gives valid JSON.
  EXPECT_THAT(ErrorJson(absl::InvalidArgumentError("bad \xff byte")), ::testing::HasSubstr("bad"));
}

}  // namespace
}  // namespace boneyard::web
