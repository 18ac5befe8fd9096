// Reading the services' /metrics pages (the load tool's and the web overview's): the
// Prometheus text format, sums by label, histogram quantiles, and fetching a page.
#include "services/client/prometheus_text.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::client {
namespace {

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

TEST(PrometheusTextTest, HistogramQuantilesInterpolateWithinTheirBucket) {
  const auto samples = ParsePrometheusText(
      "w_bucket{queue=\"q\",le=\"1\"} 50\n"
      "w_bucket{queue=\"q\",le=\"2\"} 90\n"
      "w_bucket{queue=\"q\",le=\"+Inf\"} 100\n"
      "w_bucket{queue=\"other\",le=\"1\"} 7\n");
  const std::vector<Bucket> buckets = HistogramBuckets(samples, "w", {{"queue", "q"}});
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(HistogramQuantile(buckets, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(HistogramQuantile(buckets, 0.7), 1.5);
  EXPECT_DOUBLE_EQ(HistogramQuantile(buckets, 0.95), 2.0);  // in +Inf: the last finite bound
  EXPECT_EQ(HistogramQuantile({}, 0.5), 0);
}

TEST(ScrapeMetricsTest, AURLThatIsNotHttpOrCannotBeReadIsAnError) {
  EXPECT_EQ(ScrapeMetrics("ftp://127.0.0.1:1/metrics").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ScrapeMetrics("http://127.0.0.1:1/metrics").status().code(),
            absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace boneyard::client
