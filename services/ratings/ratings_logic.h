// The ratings service's logic, with no gRPC in it: the token checks, request validation, page
// tokens and the glue between the store (reads, on the caller's thread) and the batcher
// (writes, answered on the writer). The gRPC handlers (ratings_service.cc) only decode, call
// and encode; tests drive this class directly as well.
//
// Tokens are the call's bearer token (nullopt when it had none). RecordResult needs the
// results token, RerateGame the operator token; the reads need none. A missing or unknown
// token is UNAUTHENTICATED, a known one that does not grant the call PERMISSION_DENIED.
#ifndef BONEYARD_SERVICES_RATINGS_RATINGS_LOGIC_H_
#define BONEYARD_SERVICES_RATINGS_RATINGS_LOGIC_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "boneyard/v1/ratings.pb.h"
#include "engine/core/registry.h"
#include "services/common/page_token.h"
#include "services/common/tokens.h"
#include "services/ratings/pg_rating_store.h"
#include "services/ratings/ratings_metrics.h"
#include "services/ratings/result_batcher.h"

namespace boneyard::ratings {

// A rating whose sigma is above this has not settled (Rating.provisional). With OpenSkill's
// defaults (sigma 25/3, Plackett-Luce) a player's sigma falls below 6 after about 12
// one-on-one matches against settled players, 14 against newcomers.
inline constexpr double kDefaultProvisionalSigma = 6.0;

// The most players one BatchGetRatings asks for.
inline constexpr int kMaxBatchGetPlayers = 1000;

struct RatingsOptions {
  std::string operator_token;  // RerateGame
  std::string results_token;   // RecordResult (the execution service's)
  double provisional_sigma = kDefaultProvisionalSigma;
};

template <class T>
using Callback = std::function<void(absl::StatusOr<T>)>;

class RatingsLogic {
 public:
  // Everything given must outlive the logic; `metrics` may be null.
  RatingsLogic(PgRatingStore& store, ResultBatcher& batcher, const GameRegistry& registry,
               RatingsOptions options, RatingsMetrics* metrics);

  RatingsLogic(const RatingsLogic&) = delete;
  RatingsLogic& operator=(const RatingsLogic&) = delete;

  // Checks the token and the request at once (`done` gets the error on this thread), then
  // queues the result; `done` runs on the writer after the commit.
  void RecordResult(const std::optional<std::string>& token,
                    const v1::RecordResultRequest& request,
                    Callback<v1::RecordResultResponse> done);
  // Checks the token and the request, then re-rates on the writer between batches.
  void RerateGame(const std::optional<std::string>& token, const v1::RerateGameRequest& request,
                  Callback<v1::RerateGameResponse> done);

  // Reads: they block on the database.
  absl::StatusOr<v1::Rating> GetRating(const v1::GetRatingRequest& request);
  absl::StatusOr<v1::BatchGetRatingsResponse> BatchGetRatings(
      const v1::BatchGetRatingsRequest& request);
  absl::StatusOr<v1::ListLeaderboardResponse> ListLeaderboard(
      const v1::ListLeaderboardRequest& request);
  absl::StatusOr<v1::ListRatingHistoryResponse> ListRatingHistory(
      const v1::ListRatingHistoryRequest& request);

 private:
  absl::Status RequireResultsToken(const std::optional<std::string>& token) const;
  // The game's spec: INVALID_ARGUMENT for an unknown game or, when `rated` is asked, a
  // solitaire game.
  absl::StatusOr<const GameSpec*> FindGame(const std::string& game, bool rated) const;
  bool Provisional(double sigma) const { return sigma > options_.provisional_sigma; }

  PgRatingStore& store_;
  ResultBatcher& batcher_;
  const GameRegistry& registry_;
  const RatingsOptions options_;
  const Authenticator auth_;
  const PageTokens page_tokens_;
  RatingsMetrics* const metrics_;
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RATINGS_LOGIC_H_
