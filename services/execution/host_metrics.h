// The match host's Prometheus metrics (served on the service's /metrics page).
#ifndef BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_
#define BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_

#include <array>

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace boneyard::execution {

struct HostMetrics {
  explicit HostMetrics(prometheus::Registry& registry);
  HostMetrics(const HostMetrics&) = delete;
  HostMetrics& operator=(const HostMetrics&) = delete;

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
  // From a bot's turn (its move handed to the bot pool) to its move chosen, queueing included:
  // the think time a person across the table waits. By level as created (label `level`: 0 for
  // a kind's default — the search bot's is 3 — and for the kinds without levels), since each
  // level has a budget of its own.
  prometheus::Family<prometheus::Histogram>& bot_think_seconds;
  prometheus::Histogram& BotThink(int level);
  prometheus::Counter& bot_over_budget;
  prometheus::Counter& views_sent;
  // Requests refused by a flood limit: a seat's rejected actions and hellos past its rate, a
  // spectator past a match's limit.
  prometheus::Counter& flood_limited_seat;
  prometheus::Counter& flood_limited_watcher;

 private:
  static constexpr int kLevels = 6;                               // 0 and the search bot's 1-5
  std::array<prometheus::Histogram*, kLevels> think_by_level_{};  // set in the constructor
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_HOST_METRICS_H_
