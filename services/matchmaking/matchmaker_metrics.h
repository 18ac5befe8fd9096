// The matchmaker's Prometheus metrics: what its passes do and how long players wait. The
// operators' dashboard (queues page) and alerts read them; per-queue series are labelled with
// the queue id, which only the operator creates, so their number stays small.
//
//   boneyard_matchmaker_passes_total                       counter   passes run
//   boneyard_matchmaker_pass_failures_total                counter   passes that stopped early
//   boneyard_matchmaker_pass_seconds{phase}                histogram read / match / claim /
//                                                                    create / total
//   boneyard_matchmaker_matches_total{queue, outcome}      counter   formed, claimed, lost,
//                                                                    created, refused
//   boneyard_matchmaker_creation_retries_total             counter   creations left for a
//                                                                    later pass (execution down)
//   boneyard_matchmaker_tickets_expired_total{queue}       counter
//   boneyard_matchmaker_tickets_searching{queue}           gauge     at the last pass
//   boneyard_matchmaker_oldest_wait_seconds{queue}         gauge     at the last pass
//   boneyard_matchmaker_ticket_wait_seconds{queue}         histogram from a ticket's creation
//                                                                    to its match's claim
//   boneyard_matchmaker_win_chance{queue}                  histogram the first side's predicted
//                                                                    chance, two-sided matches
//   boneyard_matchmaker_bot_seats_total{queue}             counter   seats filled with bots
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_METRICS_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_METRICS_H_

#include <map>
#include <set>
#include <string>

#include "absl/time/time.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace boneyard::matchmaking {

class MatchmakerMetrics {
 public:
  enum class Phase { kRead, kMatch, kClaim, kCreate, kTotal };
  enum class Outcome { kFormed, kClaimed, kLost, kCreated, kRefused };

  explicit MatchmakerMetrics(prometheus::Registry& registry);

  MatchmakerMetrics(const MatchmakerMetrics&) = delete;
  MatchmakerMetrics& operator=(const MatchmakerMetrics&) = delete;

  void PassRan(bool ok);
  void Timed(Phase phase, absl::Duration duration);
  void Matches(const std::string& queue, Outcome outcome, int count);
  void CreationRetried();
  void Expired(const std::string& queue, int count);
  // The queue as the last pass found it: `searching` tickets, the oldest waiting `oldest`.
  void Waiting(const std::string& queue, int searching, absl::Duration oldest);
  // Drops the gauges of queues not in `queues` (deleted ones), so they stop being reported.
  void KeepQueues(const std::set<std::string>& queues);
  // A claimed match: each ticket's wait, the first side's chance (two-sided), its bot seats.
  void TicketMatched(const std::string& queue, absl::Duration waited);
  void Balance(const std::string& queue, double first_side_chance);
  void BotSeats(const std::string& queue, int seats);

 private:
  // Each family's child for `queue`, made on first use.
  prometheus::Counter& QueueCounter(prometheus::Family<prometheus::Counter>& family,
                                    const std::string& queue,
                                    const std::map<std::string, std::string>& more = {});

  prometheus::Counter& passes_;
  prometheus::Counter& pass_failures_;
  prometheus::Family<prometheus::Histogram>& pass_seconds_;
  prometheus::Family<prometheus::Counter>& matches_;
  prometheus::Counter& creation_retries_;
  prometheus::Family<prometheus::Counter>& expired_;
  prometheus::Family<prometheus::Gauge>& searching_;
  prometheus::Family<prometheus::Gauge>& oldest_wait_;
  prometheus::Family<prometheus::Histogram>& ticket_wait_;
  prometheus::Family<prometheus::Histogram>& win_chance_;
  prometheus::Family<prometheus::Counter>& bot_seats_;
  // Family::Add takes a lock and hashes the labels; the per-phase children are kept here.
  std::map<Phase, prometheus::Histogram*> phase_children_;
  // The queues with gauges: only the pass thread calls Waiting and KeepQueues.
  std::set<std::string> gauged_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_METRICS_H_
