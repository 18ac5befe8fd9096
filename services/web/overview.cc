#include "services/web/overview.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/client/prometheus_text.h"
#include "spdlog/spdlog.h"

namespace boneyard::web {
namespace {

using client::Bucket;
using client::HistogramBuckets;
using client::HistogramQuantile;
using client::MetricSample;
using client::SumOf;

constexpr const char* kServices[] = {"execution", "matchmaking", "ratings"};

std::string TimeText(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// A /metrics page's samples; none when it is not configured or cannot be read (the overview
// shows what it has).
std::vector<MetricSample> Scrape(const std::string& url) {
  if (url.empty()) return {};
  absl::StatusOr<std::vector<MetricSample>> samples = client::ScrapeMetrics(url);
  return samples.ok() ? *std::move(samples) : std::vector<MetricSample>();
}

}  // namespace

Overview::Overview(Backends& backends, OverviewOptions options)
    : backends_(backends), options_(std::move(options)) {}

Overview::~Overview() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void Overview::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void Overview::Loop() {
  while (true) {
    SampleNow();
    absl::MutexLock lock(&mu_);
    const absl::Time wake = absl::Now() + options_.interval;
    while (!stopping_ && absl::Now() < wake) {
      mu_.AwaitWithDeadline(absl::Condition(&stopping_), wake);
    }
    if (stopping_) return;
  }
}

nlohmann::json Overview::Sample() {
  const absl::Time now = absl::Now();
  nlohmann::json out = {{"time", TimeText(now)}};

  nlohmann::json services = nlohmann::json::array();
  for (const char* name : kServices) {
    services.push_back({{"name", name}, {"serving", backends_.Serving(name)}});
  }
  out["services"] = std::move(services);

  const std::vector<MetricSample> execution = Scrape(options_.execution_metrics_url);
  // Execution counts its live matches by game itself: no listing of matches here.
  nlohmann::json live = nlohmann::json::object();
  int live_total = 0;
  for (const MetricSample& sample : execution) {
    if (sample.name != "boneyard_matches_live_by_game" || sample.value <= 0) continue;
    const int count = static_cast<int>(sample.value);
    live[sample.labels.count("game") ? sample.labels.at("game") : ""] = count;
    live_total += count;
  }
  out["live_matches"] = std::move(live);
  const Counters counters{
      .time = now,
      .events = SumOf(execution, "boneyard_events_total"),
      .finished = SumOf(execution, "boneyard_matches_ended_total", {{"state", "finished"}})};
  double actions_per_second = 0;
  double finished_per_minute = 0;
  {
    absl::MutexLock lock(&mu_);
    if (previous_.has_value() && !execution.empty()) {
      const double seconds = absl::ToDoubleSeconds(now - previous_->time);
      if (seconds > 0) {
        actions_per_second = std::max(0.0, counters.events - previous_->events) / seconds;
        finished_per_minute = 60 * std::max(0.0, counters.finished - previous_->finished) / seconds;
      }
    }
    if (!execution.empty()) previous_ = counters;
  }
  out["actions_per_second"] = actions_per_second;
  out["finished_per_minute"] = finished_per_minute;
  out["results_parked"] = SumOf(execution, "boneyard_outbox_parked_total");
  // Results execution has not delivered to ratings yet: how far leaderboards lag the matches.
  out["ratings_backlog"] = SumOf(execution, "boneyard_outbox_pending", {{"receiver", "ratings"}});

  const std::vector<MetricSample> matchmaking = Scrape(options_.matchmaking_metrics_url);
  nlohmann::json queues = nlohmann::json::array();
  int searching_total = 0;
  if (absl::StatusOr<v1::ListQueuesResponse> listed = backends_.ListQueues(); listed.ok()) {
    for (const v1::Queue& q : listed->queues()) {
      const std::string id = q.name().substr(q.name().find('/') + 1);
      // The matchmaker labels its gauges with the queue's id.
      const double searching =
          SumOf(matchmaking, "boneyard_matchmaker_tickets_searching", {{"queue", id}});
      searching_total += static_cast<int>(searching);
      const std::vector<Bucket> waits =
          HistogramBuckets(matchmaking, "boneyard_matchmaker_ticket_wait_seconds", {{"queue", id}});
      nlohmann::json balance = nlohmann::json::array();
      double below = 0;
      for (const Bucket& b :
           HistogramBuckets(matchmaking, "boneyard_matchmaker_win_chance", {{"queue", id}})) {
        if (std::isinf(b.le)) continue;
        balance.push_back({{"le", b.le}, {"matches", b.count - below}});
        below = b.count;
      }
      queues.push_back(
          {{"queue", q.name()},
           {"display_name", q.display_name()},
           {"game", q.game()},
           {"searching", searching},
           {"oldest_wait_seconds",
            SumOf(matchmaking, "boneyard_matchmaker_oldest_wait_seconds", {{"queue", id}})},
           // Since the matchmaking service started (its metrics are counters).
           {"wait_p50_seconds", HistogramQuantile(waits, 0.5)},
           {"wait_p95_seconds", HistogramQuantile(waits, 0.95)},
           {"matches_created", SumOf(matchmaking, "boneyard_matchmaker_matches_total",
                                     {{"queue", id}, {"outcome", "created"}})},
           {"bot_seats",
            SumOf(matchmaking, "boneyard_matchmaker_bot_seats_total", {{"queue", id}})},
           {"win_chance", std::move(balance)}});
    }
  }
  out["queues"] = std::move(queues);

  const nlohmann::json point = {{"time", out["time"]},
                                {"live_matches", live_total},
                                {"actions_per_second", actions_per_second},
                                {"finished_per_minute", finished_per_minute},
                                {"searching", searching_total}};
  absl::MutexLock lock(&mu_);
  history_.push_back(point);
  const std::size_t keep =
      static_cast<std::size_t>(std::max<int64_t>(1, options_.history / options_.interval));
  while (history_.size() > keep) history_.pop_front();
  out["history"] = nlohmann::json(history_);
  return out;
}

void Overview::SampleNow() {
  std::string json = Sample().dump();
  std::vector<std::shared_ptr<EventSink>> to;
  {
    absl::MutexLock lock(&mu_);
    latest_ = json;
    for (auto& [id, sink] : listeners_) to.push_back(sink);
  }
  for (auto& sink : to) sink->Send("overview", json);
}

std::string Overview::Json() {
  {
    absl::MutexLock lock(&mu_);
    if (!latest_.empty()) return latest_;
  }
  SampleNow();
  absl::MutexLock lock(&mu_);
  return latest_;
}

void Overview::Subscribe(std::shared_ptr<EventSink> sink) {
  const std::string latest = Json();
  int id;
  {
    absl::MutexLock lock(&mu_);
    id = next_listener_++;
    listeners_[id] = sink;
  }
  sink->Send("overview", latest);
  sink->OnClose([this, id] {
    absl::MutexLock lock(&mu_);
    listeners_.erase(id);
  });
}

}  // namespace boneyard::web
