#include "services/matchmaking/matchmaker_metrics.h"

namespace boneyard::matchmaking {
namespace {

prometheus::Family<prometheus::Counter>& Counters(prometheus::Registry& registry,
                                                  const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

prometheus::Family<prometheus::Gauge>& Gauges(prometheus::Registry& registry, const char* name,
                                              const char* help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

prometheus::Family<prometheus::Histogram>& Histograms(prometheus::Registry& registry,
                                                      const char* name, const char* help) {
  return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

const char* PhaseName(MatchmakerMetrics::Phase phase) {
  switch (phase) {
    case MatchmakerMetrics::Phase::kRead:
      return "read";
    case MatchmakerMetrics::Phase::kMatch:
      return "match";
    case MatchmakerMetrics::Phase::kClaim:
      return "claim";
    case MatchmakerMetrics::Phase::kCreate:
      return "create";
    case MatchmakerMetrics::Phase::kTotal:
      break;
  }
  return "total";
}

const char* OutcomeName(MatchmakerMetrics::Outcome outcome) {
  switch (outcome) {
    case MatchmakerMetrics::Outcome::kFormed:
      return "formed";
    case MatchmakerMetrics::Outcome::kClaimed:
      return "claimed";
    case MatchmakerMetrics::Outcome::kLost:
      return "lost";
    case MatchmakerMetrics::Outcome::kCreated:
      return "created";
    case MatchmakerMetrics::Outcome::kRefused:
      break;
  }
  return "refused";
}

}  // namespace

MatchmakerMetrics::MatchmakerMetrics(prometheus::Registry& registry)
    : passes_(Counters(registry, "boneyard_matchmaker_passes_total", "Matchmaking passes run")
                  .Add({})),
      pass_failures_(Counters(registry, "boneyard_matchmaker_pass_failures_total",
                              "Passes that stopped early (the database out of reach)")
                         .Add({})),
      pass_seconds_(Histograms(registry, "boneyard_matchmaker_pass_seconds",
                               "Time spent in a pass, by phase (summed over the queues)")),
      matches_(Counters(registry, "boneyard_matchmaker_matches_total",
                        "Matches by what became of them: formed by the matcher, claimed with "
                        "their tickets, lost to a ticket gone meanwhile, created on execution, "
                        "refused by execution for good")),
      creation_retries_(Counters(registry, "boneyard_matchmaker_creation_retries_total",
                                 "Match creations left for a later pass: execution out of reach")
                            .Add({})),
      expired_(Counters(registry, "boneyard_matchmaker_tickets_expired_total",
                        "Tickets ended EXPIRED after the queue's max_wait")),
      searching_(Gauges(registry, "boneyard_matchmaker_tickets_searching",
                        "Tickets searching at the last pass")),
      oldest_wait_(Gauges(registry, "boneyard_matchmaker_oldest_wait_seconds",
                          "The longest wait of a searching ticket at the last pass")),
      ticket_wait_(Histograms(registry, "boneyard_matchmaker_ticket_wait_seconds",
                              "From a ticket's creation to its match being claimed")),
      win_chance_(Histograms(registry, "boneyard_matchmaker_win_chance",
                             "The first side's predicted win chance in two-sided matches")),
      bot_seats_(Counters(registry, "boneyard_matchmaker_bot_seats_total",
                          "Seats of formed matches filled with built-in bots")) {
  for (Phase phase : {Phase::kRead, Phase::kMatch, Phase::kClaim, Phase::kCreate, Phase::kTotal}) {
    phase_children_[phase] = &pass_seconds_.Add(
        {{"phase", PhaseName(phase)}},
        prometheus::Histogram::BucketBoundaries{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2,
                                                0.5, 1, 2, 5});
  }
}

prometheus::Counter& MatchmakerMetrics::QueueCounter(
    prometheus::Family<prometheus::Counter>& family, const std::string& queue,
    const std::map<std::string, std::string>& more) {
  std::map<std::string, std::string> labels = more;
  labels["queue"] = queue;
  return family.Add(labels);
}

void MatchmakerMetrics::PassRan(bool ok) {
  passes_.Increment();
  if (!ok) pass_failures_.Increment();
}

void MatchmakerMetrics::Timed(Phase phase, absl::Duration duration) {
  phase_children_.at(phase)->Observe(absl::ToDoubleSeconds(duration));
}

void MatchmakerMetrics::Matches(const std::string& queue, Outcome outcome, int count) {
  if (count <= 0) return;
  QueueCounter(matches_, queue, {{"outcome", OutcomeName(outcome)}}).Increment(count);
}

void MatchmakerMetrics::CreationRetried() { creation_retries_.Increment(); }

void MatchmakerMetrics::Expired(const std::string& queue, int count) {
  if (count > 0) QueueCounter(expired_, queue).Increment(count);
}

void MatchmakerMetrics::Waiting(const std::string& queue, int searching, absl::Duration oldest) {
  searching_.Add({{"queue", queue}}).Set(searching);
  oldest_wait_.Add({{"queue", queue}}).Set(absl::ToDoubleSeconds(oldest));
  gauged_.insert(queue);
}

void MatchmakerMetrics::KeepQueues(const std::set<std::string>& queues) {
  for (auto it = gauged_.begin(); it != gauged_.end();) {
    if (queues.contains(*it)) {
      ++it;
      continue;
    }
    searching_.Remove(&searching_.Add({{"queue", *it}}));
    oldest_wait_.Remove(&oldest_wait_.Add({{"queue", *it}}));
    it = gauged_.erase(it);
  }
}

void MatchmakerMetrics::TicketMatched(const std::string& queue, absl::Duration waited) {
  ticket_wait_
      .Add({{"queue", queue}},
           prometheus::Histogram::BucketBoundaries{0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120,
                                                   300, 600})
      .Observe(absl::ToDoubleSeconds(waited));
}

void MatchmakerMetrics::Balance(const std::string& queue, double first_side_chance) {
  win_chance_
      .Add({{"queue", queue}},
           prometheus::Histogram::BucketBoundaries{0.3, 0.35, 0.4, 0.45, 0.475, 0.5, 0.525, 0.55,
                                                   0.6, 0.65, 0.7})
      .Observe(first_side_chance);
}

void MatchmakerMetrics::BotSeats(const std::string& queue, int seats) {
  if (seats > 0) QueueCounter(bot_seats_, queue).Increment(seats);
}

}  // namespace boneyard::matchmaking
