#include "services/client/prometheus_text.h"

#include <httplib.h>

#include <cmath>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace boneyard::client {
namespace {

// `a="x",b="y\"z"` → {a: x, b: y"z}; false when malformed.
bool ParseLabels(absl::string_view text, std::map<std::string, std::string>& labels) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t equals = text.find('=', i);
    if (equals == absl::string_view::npos || equals + 1 >= text.size() || text[equals + 1] != '"') {
      return false;
    }
    std::string key(absl::StripAsciiWhitespace(text.substr(i, equals - i)));
    std::string value;
    std::size_t j = equals + 2;
    for (; j < text.size() && text[j] != '"'; ++j) {
      if (text[j] == '\\' && j + 1 < text.size()) {
        ++j;
        value.push_back(text[j] == 'n' ? '\n' : text[j]);
      } else {
        value.push_back(text[j]);
      }
    }
    if (j >= text.size()) return false;
    labels[std::move(key)] = std::move(value);
    i = j + 1;
    if (i < text.size() && text[i] == ',') ++i;
  }
  return true;
}

}  // namespace

std::vector<MetricSample> ParsePrometheusText(absl::string_view text) {
  std::vector<MetricSample> samples;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    MetricSample sample;
    absl::string_view rest;
    const std::size_t brace = line.find('{');
    const std::size_t space = line.find(' ');
    if (brace != absl::string_view::npos && brace < space) {
      const std::size_t close = line.rfind('}');
      if (close == absl::string_view::npos || close < brace) continue;
      sample.name = std::string(line.substr(0, brace));
      if (!ParseLabels(line.substr(brace + 1, close - brace - 1), sample.labels)) continue;
      rest = line.substr(close + 1);
    } else {
      if (space == absl::string_view::npos) continue;
      sample.name = std::string(line.substr(0, space));
      rest = line.substr(space);
    }
    std::vector<absl::string_view> fields =
        absl::StrSplit(absl::StripAsciiWhitespace(rest), ' ', absl::SkipEmpty());
    if (fields.empty() || !absl::SimpleAtod(fields[0], &sample.value)) continue;
    samples.push_back(std::move(sample));
  }
  return samples;
}

double SumOf(const std::vector<MetricSample>& samples, absl::string_view name,
             const std::map<std::string, std::string>& match) {
  double sum = 0;
  for (const MetricSample& s : samples) {
    if (s.name != name) continue;
    bool matches = true;
    for (const auto& [key, value] : match) {
      auto it = s.labels.find(key);
      if (it == s.labels.end() || it->second != value) matches = false;
    }
    if (matches) sum += s.value;
  }
  return sum;
}

std::vector<Bucket> HistogramBuckets(const std::vector<MetricSample>& samples,
                                     absl::string_view name,
                                     const std::map<std::string, std::string>& match) {
  std::map<double, double> by_bound;
  const std::string bucket_name = absl::StrCat(name, "_bucket");
  for (const MetricSample& s : samples) {
    if (s.name != bucket_name) continue;
    auto le = s.labels.find("le");
    if (le == s.labels.end()) continue;
    bool matches = true;
    for (const auto& [key, value] : match) {
      auto it = s.labels.find(key);
      if (it == s.labels.end() || it->second != value) matches = false;
    }
    if (!matches) continue;
    double bound = std::numeric_limits<double>::infinity();
    if (le->second != "+Inf" && !absl::SimpleAtod(le->second, &bound)) continue;
    by_bound[bound] += s.value;
  }
  std::vector<Bucket> out;
  for (const auto& [le, count] : by_bound) out.push_back(Bucket{.le = le, .count = count});
  return out;
}

double HistogramQuantile(const std::vector<Bucket>& buckets, double q) {
  if (buckets.empty() || buckets.back().count <= 0) return 0;
  const double rank = q * buckets.back().count;
  double lower = 0;
  double below = 0;
  for (const Bucket& b : buckets) {
    if (b.count >= rank) {
      if (std::isinf(b.le)) return lower;
      const double in_bucket = b.count - below;
      return in_bucket <= 0 ? b.le : lower + (b.le - lower) * (rank - below) / in_bucket;
    }
    lower = b.le;
    below = b.count;
  }
  return lower;
}

absl::StatusOr<std::vector<MetricSample>> ScrapeMetrics(const std::string& url) {
  constexpr absl::string_view kScheme = "http://";
  if (!absl::StartsWith(url, kScheme)) {
    return absl::InvalidArgumentError(absl::StrCat("'", url, "' is not an http:// URL"));
  }
  const size_t slash = url.find('/', kScheme.size());
  const std::string origin = url.substr(0, slash);
  const std::string path = slash == std::string::npos ? "/" : url.substr(slash);
  httplib::Client client(origin);
  client.set_connection_timeout(2);
  client.set_read_timeout(5);
  httplib::Result result = client.Get(path);
  if (!result) {
    return absl::UnavailableError(
        absl::StrCat("GET ", url, ": ", httplib::to_string(result.error())));
  }
  if (result->status != 200) {
    return absl::UnavailableError(absl::StrCat("GET ", url, ": HTTP ", result->status));
  }
  return ParsePrometheusText(result->body);
}

}  // namespace boneyard::client
