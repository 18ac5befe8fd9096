// The ratings service's own metrics (the per-RPC ones come from services/common/metrics.h):
//   boneyard_ratings_results_total{outcome}   counter: RecordResult calls by outcome —
//       recorded, already_recorded, conflict, invalid, unavailable, error
//   boneyard_ratings_batch_results            histogram: results in one batch transaction
//   boneyard_ratings_commit_seconds{result}   histogram: one batch transaction (ok, error)
//   boneyard_ratings_rerates_total{result}    counter: RerateGame runs (ok, error)
#ifndef BONEYARD_SERVICES_RATINGS_RATINGS_METRICS_H_
#define BONEYARD_SERVICES_RATINGS_RATINGS_METRICS_H_

#include "absl/status/status.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/ratings/result_batcher.h"

namespace boneyard::ratings {

class RatingsMetrics {
 public:
  explicit RatingsMetrics(prometheus::Registry& registry);

  // One RecordResult answer: OK (new or `already_recorded`) or its error.
  void Result(const absl::Status& status, bool already_recorded);
  void Batch(const BatchStats& stats);
  void Rerate(bool ok);

 private:
  prometheus::Family<prometheus::Counter>& results_;
  prometheus::Histogram& batch_results_;
  prometheus::Family<prometheus::Histogram>& commit_seconds_;
  prometheus::Family<prometheus::Counter>& rerates_;
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RATINGS_METRICS_H_
