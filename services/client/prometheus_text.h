// The services' /metrics pages from a client: fetched over HTTP and read from the Prometheus
// text exposition format (names, labels, values; comments and timestamps skipped). The load
// tool reads a service's memory there; the web app's overview its rates, waits and backlog.
#ifndef BONEYARD_SERVICES_CLIENT_PROMETHEUS_TEXT_H_
#define BONEYARD_SERVICES_CLIENT_PROMETHEUS_TEXT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace boneyard::client {

struct MetricSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Malformed lines are skipped.
std::vector<MetricSample> ParsePrometheusText(absl::string_view text);

// GET `url` (http://host:port/path) and parse it. INVALID_ARGUMENT for a URL that is not
// http://, UNAVAILABLE when the page cannot be read (unreachable, not HTTP 200).
absl::StatusOr<std::vector<MetricSample>> ScrapeMetrics(const std::string& url);

// The sum of every sample named `name` whose labels include `match` (all of them when empty).
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

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_PROMETHEUS_TEXT_H_
