// Reads the Prometheus text exposition format the services' /metrics pages
// serve: enough for the overview's numbers (names, labels, values; comments and
// timestamps skipped).
#ifndef BONEYARD_SERVICES_WEB_PROMETHEUS_TEXT_H_
#define BONEYARD_SERVICES_WEB_PROMETHEUS_TEXT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace boneyard::web {

struct MetricSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Malformed lines are skipped.
std::vector<MetricSample> ParsePrometheusText(absl::string_view text);

// The sum of every sample named `name` whose labels include `match` (all of
// them when empty).
double SumOf(const std::vector<MetricSample>& samples, absl::string_view name,
             const std::map<std::string, std::string>& match = {});

// A histogram's cumulative buckets (`NAME_bucket` samples whose labels include `match`), by
// upper bound ascending; +Inf last.
struct Bucket {
  double le = 0;
  double count = 0;  // observations <= le
};
std::vector<Bucket> HistogramBuckets(const std::vector<MetricSample>& samples,
                                     absl::string_view name,
                                     const std::map<std::string, std::string>& match = {});

// The q-quantile (0..1) estimated as Prometheus's histogram_quantile does: linear within the
// bucket that holds it; 0 without observations; the last finite bound when it falls in +Inf.
double HistogramQuantile(const std::vector<Bucket>& buckets, double q);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_PROMETHEUS_TEXT_H_
