// The web service's small parsers and mappings: percent-decoding, query
// strings, cookies, the Prometheus text the overview reads, and gRPC codes as
// HTTP statuses.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/web/json_wire.h"
#include "services/web/prometheus_text.h"
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

TEST(CookieValueTest, FindsTheNamedCookieOnly) {
  EXPECT_EQ(CookieValue("a=1; boneyard_session=xyz; b=2", "boneyard_session"), "xyz");
  EXPECT_EQ(CookieValue("boneyard_session_old=1", "boneyard_session"), std::nullopt);
  EXPECT_EQ(CookieValue("", "boneyard_session"), std::nullopt);
  EXPECT_EQ(CookieValue("novalue; s=", "s"), "");
}

TEST(PrometheusTextTest, ReadsNamesLabelsAndValuesAndSkipsTheRest) {
  const auto samples = ParsePrometheusText(
      "# HELP boneyard_events_total Events\n"
      "# TYPE boneyard_events_total counter\n"
      "boneyard_events_total{reason=\"played\"} 3277\n"
      "boneyard_events_total{reason=\"operator_abort\"} 3\n"
      "boneyard_matches_live 14\n"
      "boneyard_odd{q=\"a \\\"quoted\\\" one\",x=\"1\"} 2.5 1700000000\n"
      "broken{label=\"unterminated} 1\n"
      "no_value\n");
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_EQ(SumOf(samples, "boneyard_events_total"), 3280);
  EXPECT_EQ(SumOf(samples, "boneyard_events_total", {{"reason", "operator_abort"}}), 3);
  EXPECT_EQ(SumOf(samples, "boneyard_matches_live"), 14);
  EXPECT_EQ(samples[3].labels.at("q"), "a \"quoted\" one");
  EXPECT_EQ(SumOf(samples, "boneyard_odd", {{"x", "1"}}), 2.5);
  EXPECT_EQ(SumOf(samples, "missing"), 0);
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
