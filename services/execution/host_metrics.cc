#include "services/execution/host_metrics.h"

namespace boneyard::execution {
namespace {

prometheus::Counter& Count(prometheus::Registry& registry, const char* name, const char* help,
                           const std::map<std::string, std::string>& labels = {}) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add(labels);
}

}  // namespace

HostMetrics::HostMetrics(prometheus::Registry& registry)
    : live_matches(prometheus::BuildGauge()
                       .Name("boneyard_matches_live")
                       .Help("Matches being played in this process")
                       .Register(registry)
                       .Add({})),
      live_matches_by_game(prometheus::BuildGauge()
                               .Name("boneyard_matches_live_by_game")
                               .Help("Matches being played in this process, by game")
                               .Register(registry)),
      matches_created(Count(registry, "boneyard_matches_created_total", "Matches created")),
      matches_recovered(Count(registry, "boneyard_matches_recovered_total",
                              "Unfinished matches reloaded from the event log at start-up")),
      matches_finished(Count(registry, "boneyard_matches_ended_total", "Matches that ended",
                             {{"state", "finished"}})),
      matches_aborted(Count(registry, "boneyard_matches_ended_total", "Matches that ended",
                            {{"state", "aborted"}})),
      events_played(Count(registry, "boneyard_events_total", "Durable match events by reason",
                          {{"reason", "played"}})),
      events_timeout_auto_play(Count(registry, "boneyard_events_total",
                                     "Durable match events by reason",
                                     {{"reason", "timeout_auto_play"}})),
      events_timeout_forfeit(Count(registry, "boneyard_events_total",
                                   "Durable match events by reason",
                                   {{"reason", "timeout_forfeit"}})),
      events_abort(Count(registry, "boneyard_events_total", "Durable match events by reason",
                         {{"reason", "operator_abort"}})),
      rejected_invalid(Count(registry, "boneyard_actions_rejected_total",
                             "Actions not played, by status code", {{"code", "INVALID_ARGUMENT"}})),
      rejected_precondition(Count(registry, "boneyard_actions_rejected_total",
                                  "Actions not played, by status code",
                                  {{"code", "FAILED_PRECONDITION"}})),
      rejected_stale(Count(registry, "boneyard_actions_rejected_total",
                           "Actions not played, by status code", {{"code", "ABORTED"}})),
      commit_failures(Count(registry, "boneyard_event_commit_failures_total",
                            "Events the database did not take (not applied)")),
      action_seconds(prometheus::BuildHistogram()
                         .Name("boneyard_action_seconds")
                         .Help("From a player's action reaching its match to its event being "
                               "durable and applied")
                         .Register(registry)
                         .Add({}, prometheus::Histogram::BucketBoundaries{0.0005, 0.001, 0.002,
                                                                          0.005, 0.01, 0.02, 0.05,
                                                                          0.1, 0.25, 0.5, 1, 2.5})),
      bot_moves(Count(registry, "boneyard_bot_moves_total", "Moves chosen by built-in bots")),
      bot_think_seconds(prometheus::BuildHistogram()
                            .Name("boneyard_bot_think_seconds")
                            .Help("From a built-in bot's turn to its move chosen, queueing for "
                                  "the bot pool included, by level")
                            .Register(registry)),
      bot_over_budget(Count(registry, "boneyard_bot_over_budget_total",
                            "Built-in bot moves that ran over the think-time budget")),
      views_sent(Count(registry, "boneyard_views_sent_total",
                       "Seat and spectator views queued to streams")),
      flood_limited_seat(Count(registry, "boneyard_flood_limited_total",
                               "Requests refused by a flood limit, by who sent them",
                               {{"by", "seat"}})),
      flood_limited_watcher(Count(registry, "boneyard_flood_limited_total",
                                  "Requests refused by a flood limit, by who sent them",
                                  {{"by", "spectator"}})) {
  // Every level's series made here, so the bot threads only observe (Family::Add locks).
  const prometheus::Histogram::BucketBoundaries buckets = {
      0.001, 0.005, 0.01, 0.02, 0.03, 0.05, 0.06, 0.1, 0.11, 0.2, 0.21, 0.4, 0.41, 0.5, 1, 2};
  for (int level = 0; level < kLevels; ++level) {
    think_by_level_[level] = &bot_think_seconds.Add({{"level", std::to_string(level)}}, buckets);
  }
}

prometheus::Histogram& HostMetrics::BotThink(int level) {
  return *think_by_level_[level >= 0 && level < kLevels ? level : 0];
}

}  // namespace boneyard::execution
