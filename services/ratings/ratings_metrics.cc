#include "services/ratings/ratings_metrics.h"

namespace boneyard::ratings {
namespace {

const prometheus::Histogram::BucketBoundaries& SecondsBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5};
  return *buckets;
}

const char* OutcomeName(const absl::Status& status, bool already_recorded) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return already_recorded ? "already_recorded" : "recorded";
    case absl::StatusCode::kAlreadyExists:
      return "conflict";
    case absl::StatusCode::kInvalidArgument:
      return "invalid";
    case absl::StatusCode::kUnavailable:
      return "unavailable";
    default:
      return "error";
  }
}

}  // namespace

RatingsMetrics::RatingsMetrics(prometheus::Registry& registry)
    : results_(prometheus::BuildCounter()
                   .Name("boneyard_ratings_results_total")
                   .Help("RecordResult calls, by outcome.")
                   .Register(registry)),
      batch_results_(prometheus::BuildHistogram()
                         .Name("boneyard_ratings_batch_results")
                         .Help("Results applied by one batch transaction.")
                         .Register(registry)
                         .Add({}, prometheus::Histogram::BucketBoundaries{
                                      1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})),
      commit_seconds_(prometheus::BuildHistogram()
                          .Name("boneyard_ratings_commit_seconds")
                          .Help("Duration of one batch transaction, by result.")
                          .Register(registry)),
      rerates_(prometheus::BuildCounter()
                   .Name("boneyard_ratings_rerates_total")
                   .Help("RerateGame runs, by result.")
                   .Register(registry)) {}

void RatingsMetrics::Result(const absl::Status& status, bool already_recorded) {
  results_.Add({{"outcome", OutcomeName(status, already_recorded)}}).Increment();
}

void RatingsMetrics::Batch(const BatchStats& stats) {
  commit_seconds_.Add({{"result", stats.ok ? "ok" : "error"}}, SecondsBuckets())
      .Observe(absl::ToDoubleSeconds(stats.latency));
  if (stats.ok) batch_results_.Observe(stats.results);
}

void RatingsMetrics::Rerate(bool ok) { rerates_.Add({{"result", ok ? "ok" : "error"}}).Increment(); }

}  // namespace boneyard::ratings
