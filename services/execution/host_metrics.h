// The match host's Prometheus metrics (served on the service's /metrics page).
#ifndef BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_
#define BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace boneyard::execution {

struct HostMetrics {
  explicit HostMetrics(prometheus::Registry& registry);

  prometheus::Gauge& live_matches;
  // The same by game (label `game`): the operators' overview shows live matches per game.
  prometheus::Family<prometheus::Gauge>& live_matches_by_game;
  prometheus::Counter& matches_created;
  prometheus::Counter& matches_recovered;
  prometheus::Counter& matches_finished;
  prometheus::Counter& matches_aborted;
  // Events by reason.
  prometheus::Counter& events_played;
  prometheus::Counter& events_timeout_auto_play;
  prometheus::Counter& events_timeout_forfeit;
  prometheus::Counter& events_abort;
  // Rejected actions by code.
  prometheus::Counter& rejected_invalid;
  prometheus::Counter& rejected_precondition;
  prometheus::Counter& rejected_stale;
  // An event the database did not take (the action was not applied).
  prometheus::Counter& commit_failures;
  // From a player's action arriving at its match to its event being durable and applied.
  prometheus::Histogram& action_seconds;
  prometheus::Counter& bot_moves;
  prometheus::Counter& bot_over_budget;
  prometheus::Counter& views_sent;
  // Requests refused by a flood limit: a seat's rejected actions and hellos past its rate, a
  // spectator past a match's limit.
  prometheus::Counter& flood_limited_seat;
  prometheus::Counter& flood_limited_watcher;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_
