#include "services/ratings/ratings_logic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "services/common/page_token.h"
#include "services/common/validation.h"
#include "services/ratings/model_config.h"
#include "services/ratings/rating_update.h"

namespace boneyard::ratings {
namespace {


absl::Status BadCursor() {
  return absl::InvalidArgumentError(
      "page_token: not issued by this service; pass next_page_token unchanged");
}

}  // namespace

RatingsLogic::RatingsLogic(PgRatingStore& store, ResultBatcher& batcher,
                           const GameRegistry& registry, RatingsOptions options,
                           RatingsMetrics* metrics)
    : store_(store),
      batcher_(batcher),
      registry_(registry),
      options_(std::move(options)),
      auth_(AuthConfig{options_.operator_token, {options_.results_token}}),
      page_tokens_(PageTokenKey(options_.operator_token)),
      metrics_(metrics) {}

absl::Status RatingsLogic::RequireResultsToken(const std::optional<std::string>& token) const {
  switch (auth_.Classify(token)) {
    case Authenticator::Role::kService:
      return absl::OkStatus();
    case Authenticator::Role::kNone:
      return absl::UnauthenticatedError("missing bearer token");
    case Authenticator::Role::kOperator:
      return absl::PermissionDeniedError("RecordResult needs the results token");
    case Authenticator::Role::kOther:
      break;
  }
  return absl::UnauthenticatedError("unknown token");
}

absl::StatusOr<const GameSpec*> RatingsLogic::FindGame(const std::string& game,
                                                       bool rated) const {
  const GameSpec* spec = registry_.Find(game);
  if (spec == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("game: unknown game ", validation::Quote(game)));
  }
  if (rated && IsSolitaire(*spec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game: ", game, " is a solitaire game: it has no ratings, only its leaderboard"));
  }
  return spec;
}

void RatingsLogic::RecordResult(const std::optional<std::string>& token,
                                const v1::RecordResultRequest& request,
                                Callback<v1::RecordResultResponse> done) {
  if (absl::Status allowed = RequireResultsToken(token); !allowed.ok()) return done(allowed);
  absl::StatusOr<ValidResult> result = ValidateResult(request, registry_);
  if (!result.ok()) {
    if (metrics_ != nullptr) metrics_->Result(result.status(), false);
    return done(result.status());
  }
  batcher_.Record(*std::move(result), [this, done = std::move(done)](RecordOutcome outcome) {
    if (metrics_ != nullptr) {
      metrics_->Result(outcome.status(), outcome.ok() && outcome->already_recorded());
    }
    done(std::move(outcome));
  });
}

void RatingsLogic::RerateGame(const std::optional<std::string>& token,
                              const v1::RerateGameRequest& request,
                              Callback<v1::RerateGameResponse> done) {
  // The results token is a service token: PERMISSION_DENIED, like any known token.
  if (absl::Status allowed = auth_.RequireOperator(token, false); !allowed.ok()) {
    return done(allowed);
  }
  absl::StatusOr<const GameSpec*> spec = FindGame(request.game(), /*rated=*/true);
  if (!spec.ok()) return done(spec.status());
  std::optional<RatingModelConfig> model;
  if (request.has_model()) {
    absl::StatusOr<RatingModelConfig> parsed = ModelFromProto(request.model());
    if (!parsed.ok()) return done(parsed.status());
    model = *parsed;
  }
  batcher_.RunExclusive([this, game = request.game(), model,
                         done = std::move(done)](absl::Status status) {
    if (!status.ok()) return done(status);
    absl::StatusOr<RerateSummary> summary = store_.Rerate(game, model);
    if (metrics_ != nullptr) metrics_->Rerate(summary.ok());
    if (!summary.ok()) return done(summary.status());
    v1::RerateGameResponse response;
    response.set_results(summary->results);
    response.set_players(summary->players);
    *response.mutable_model() = ModelToProto(summary->model);
    done(std::move(response));
  });
}

absl::StatusOr<v1::Rating> RatingsLogic::GetRating(const v1::GetRatingRequest& request) {
  if (absl::Status s = CheckPlayerId(request.player_id(), "player_id"); !s.ok()) return s;
  absl::StatusOr<const GameSpec*> spec = FindGame(request.game(), /*rated=*/true);
  if (!spec.ok()) return spec.status();
  absl::StatusOr<std::optional<v1::Rating>> stored =
      store_.GetRating(request.game(), request.player_id());
  if (!stored.ok()) return stored.status();
  v1::Rating rating;
  if (stored->has_value()) {
    rating = **stored;
  } else {
    absl::StatusOr<RatingModelConfig> model = store_.ModelOf(request.game());
    if (!model.ok()) return model.status();
    rating = RatingToProto(request.game(), request.player_id(),
                           PlayerRating{InitialRating(*model), 0});
  }
  rating.set_provisional(Provisional(rating.sigma()));
  return rating;
}

absl::StatusOr<v1::BatchGetRatingsResponse> RatingsLogic::BatchGetRatings(
    const v1::BatchGetRatingsRequest& request) {
  if (request.player_ids_size() > kMaxBatchGetPlayers) {
    return absl::InvalidArgumentError(absl::StrCat("player_ids: more than ",
                                                   kMaxBatchGetPlayers, " players"));
  }
  for (int i = 0; i < request.player_ids_size(); ++i) {
    if (absl::Status s = CheckPlayerId(request.player_ids(i), absl::StrCat("player_ids[", i, "]"));
        !s.ok()) {
      return s;
    }
  }
  absl::StatusOr<const GameSpec*> spec = FindGame(request.game(), /*rated=*/true);
  if (!spec.ok()) return spec.status();
  const std::vector<std::string> players(request.player_ids().begin(),
                                         request.player_ids().end());
  absl::StatusOr<std::map<std::string, v1::Rating>> stored =
      store_.GetRatings(request.game(), players);
  if (!stored.ok()) return stored.status();
  std::optional<RatingModelConfig> model;  // read once, if anyone is new
  v1::BatchGetRatingsResponse response;
  for (const std::string& player : players) {
    v1::Rating& rating = *response.add_ratings();
    auto it = stored->find(player);
    if (it != stored->end()) {
      rating = it->second;
    } else {
      if (!model.has_value()) {
        absl::StatusOr<RatingModelConfig> read = store_.ModelOf(request.game());
        if (!read.ok()) return read.status();
        model = *read;
      }
      rating = RatingToProto(request.game(), player, PlayerRating{InitialRating(*model), 0});
    }
    rating.set_provisional(Provisional(rating.sigma()));
  }
  return response;
}

absl::StatusOr<v1::ListLeaderboardResponse> RatingsLogic::ListLeaderboard(
    const v1::ListLeaderboardRequest& request) {
  absl::StatusOr<const GameSpec*> spec = FindGame(request.game(), /*rated=*/false);
  if (!spec.ok()) return spec.status();
  const bool solitaire = IsSolitaire(**spec);
  if (request.all_results() && !solitaire) {
    return absl::InvalidArgumentError(absl::StrCat(
        "all_results: only for solitaire games; ", request.game(), " is rated"));
  }
  absl::StatusOr<int> page_size = validation::PageSize(request.page_size());
  if (!page_size.ok()) return page_size.status();

  const std::vector<std::string> identity = {"v1", "leaderboard", request.game(),
                                             request.all_results() ? "all" : "best"};
  absl::StatusOr<std::optional<std::vector<std::string>>> parts =
      page_tokens_.DecodeCursor(request.page_token(), identity, solitaire ? 4 : 2);
  if (!parts.ok()) return parts.status();
  std::optional<LeaderboardCursor> after;
  if (parts->has_value()) {
    const std::vector<std::string>& p = **parts;
    LeaderboardCursor cursor;
    const bool parsed =
        solitaire ? absl::SimpleAtoi(p[0], &cursor.tiles_left) &&
                        absl::SimpleAtoi(p[1], &cursor.pips_left) &&
                        absl::SimpleAtoi(p[2], &cursor.duration_millis)
                  : absl::SimpleAtod(p[0], &cursor.ordinal) && std::isfinite(cursor.ordinal);
    if (!parsed) return BadCursor();
    cursor.id = p.back();
    after = std::move(cursor);
  }

  absl::StatusOr<LeaderboardPage> page =
      solitaire ? store_.ListSolitaire(request.game(), request.all_results(), after, *page_size)
                : store_.ListRatings(request.game(), after, *page_size);
  if (!page.ok()) return page.status();
  v1::ListLeaderboardResponse response;
  for (v1::LeaderboardEntry& entry : page->entries) {
    if (entry.has_rating()) {
      entry.mutable_rating()->set_provisional(Provisional(entry.rating().sigma()));
    }
    *response.add_entries() = std::move(entry);
  }
  if (page->next.has_value()) {
    std::vector<std::string> token = identity;
    const LeaderboardCursor& next = *page->next;
    if (solitaire) {
      token.push_back(absl::StrCat(next.tiles_left));
      token.push_back(absl::StrCat(next.pips_left));
      token.push_back(absl::StrCat(next.duration_millis));
    } else {
      token.push_back(absl::StrFormat("%.17g", next.ordinal));
    }
    token.push_back(next.id);
    response.set_next_page_token(page_tokens_.Encode(token));
  }
  return response;
}

absl::StatusOr<v1::ListRatingHistoryResponse> RatingsLogic::ListRatingHistory(
    const v1::ListRatingHistoryRequest& request) {
  if (absl::Status s = CheckPlayerId(request.player_id(), "player_id"); !s.ok()) return s;
  absl::StatusOr<const GameSpec*> spec = FindGame(request.game(), /*rated=*/true);
  if (!spec.ok()) return spec.status();
  absl::StatusOr<int> page_size = validation::PageSize(request.page_size());
  if (!page_size.ok()) return page_size.status();
  const std::vector<std::string> identity = {"v1", "history", request.game(),
                                             request.player_id()};
  absl::StatusOr<std::optional<std::vector<std::string>>> parts =
      page_tokens_.DecodeCursor(request.page_token(), identity, 1);
  if (!parts.ok()) return parts.status();
  std::optional<int64_t> before;
  if (parts->has_value()) {
    int64_t seq = 0;
    if (!absl::SimpleAtoi((**parts)[0], &seq)) return BadCursor();
    before = seq;
  }
  absl::StatusOr<HistoryPage> page =
      store_.ListHistory(request.game(), request.player_id(), before, *page_size);
  if (!page.ok()) return page.status();
  v1::ListRatingHistoryResponse response;
  for (v1::RatingChange& change : page->changes) *response.add_changes() = std::move(change);
  if (page->next_before.has_value()) {
    std::vector<std::string> token = identity;
    token.push_back(absl::StrCat(*page->next_before));
    response.set_next_page_token(page_tokens_.Encode(token));
  }
  return response;
}

}  // namespace boneyard::ratings
