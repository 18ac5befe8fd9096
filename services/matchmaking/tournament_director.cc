#include "services/matchmaking/tournament_director.h"

#include <spdlog/spdlog.h>

#include <map>
#include <utility>
#include <vector>

#include "boneyard/v1/execution.pb.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {

TournamentDirector::TournamentDirector(PgTournamentStore& store, MatchCreator& creator,
                                       DirectorOptions options)
    : store_(store),
      creator_(creator),
      options_(options),
      loop_(options_.interval, [this](absl::Time started) {
        absl::StatusOr<DirectorReport> report = RunPass(started);
        if (!report.ok()) spdlog::warn("director: pass failed: {}", report.status().ToString());
      }) {}

TournamentDirector::~TournamentDirector() { Stop(); }

absl::StatusOr<DirectorReport> TournamentDirector::RunPass(absl::Time now) {
  DirectorReport report;
  absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> running =
      store_.RunningTournaments();
  if (!running.ok()) return running.status();
  std::map<std::string, Settled> settled;
  for (const auto& [id, version] : *running) {
    ++report.tournaments;
    // PlanStep is a function of the stored facts and the time: an event unchanged since a pass
    // that decided nothing for it has nothing to decide now, until its next decision time, and
    // is not read again.
    if (auto it = settled_.find(id);
        it != settled_.end() && it->second.version == version && now < it->second.until) {
      settled.insert(*it);
      ++report.unchanged;
      continue;
    }
    bool changed = false;
    absl::StatusOr<TournamentData> data =
        store_.Change(id, [&](const TournamentData& d) -> absl::StatusOr<TournamentChanges> {
          absl::StatusOr<TournamentChanges> c = PlanStep(d, now);
          changed = c.ok() && !c->empty();
          return c;
        });
    if (!data.ok()) {
      ++report.failed;
      spdlog::warn("director: tournaments/{}: {}", id, data.status().ToString());
      continue;
    }
    if (changed) {
      ++report.changed;
    } else {
      settled[id] = {.version = data->tournament.version,
                     .until = NextDecisionTime(*data, now).value_or(absl::InfiniteFuture())};
    }
  }
  settled_ = std::move(settled);  // finished events drop out
  absl::StatusOr<std::vector<GameRow>> pending =
      store_.PendingGames(options_.max_creations_per_pass);
  if (!pending.ok()) return pending.status();
  for (const GameRow& game : *pending) {
    if (refused_.count(game.request_id)) continue;
    v1::CreateMatchRequest request;
    if (!request.ParseFromString(game.request)) {
      return absl::InternalError(absl::StrCat(game.request_id, ": stored request unreadable"));
    }
    absl::StatusOr<CreatedMatch> created = creator_.CreateMatch(request);
    if (created.ok()) {
      if (absl::Status s = store_.RecordGameCreated(game.request_id, created->name,
                                                    creator_.target(), created->seat_tokens);
          !s.ok()) {
        return s;
      }
      ++report.created;
      continue;
    }
    if (RefusedForGood(created.status())) {
      refused_.insert(game.request_id);
      ++report.refused;
      spdlog::error(
          "director: execution refused {} for good ({}); the operator may set the "
          "pairing's result",
          game.request_id, created.status().ToString());
      continue;
    }
    if (report.retry++ == 0) {
      spdlog::warn("director: creating {} failed ({}); retried next pass", game.request_id,
                   created.status().ToString());
    }
    break;  // execution is out of reach: the rest would fail the same way
  }
  return report;
}

void TournamentDirector::Start() { loop_.Start(); }

void TournamentDirector::Stop() { loop_.Stop(); }

void TournamentDirector::Wake() { loop_.Wake(); }

}  // namespace boneyard::matchmaking
