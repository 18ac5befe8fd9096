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
double SumOf(const std::vector<MetricSample> &samples, absl::string_view name,
             const std::map<std::string, std::string> &match = {});

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_PROMETHEUS_TEXT_H_
