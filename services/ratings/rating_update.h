// One result applied to a game's ratings in memory: the step RecordResult's batches and
// RerateGame's replay share. No gRPC, no database.
#ifndef BONEYARD_SERVICES_RATINGS_RATING_UPDATE_H_
#define BONEYARD_SERVICES_RATINGS_RATING_UPDATE_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "boneyard/v1/ratings.pb.h"
#include "services/ratings/match_result.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {

// A player's standing in one game.
struct PlayerRating {
  SkillRating skill;
  int games_played = 0;
};

// One game's players' ratings, by player id. A player missing from it has the model's
// initial rating and no games.
using RatingTable = absl::flat_hash_map<std::string, PlayerRating>;

// A player's standing as the schema's Rating: name, ids, mu, sigma, ordinal, games played
// (not `provisional` nor `update_time`).
v1::Rating RatingToProto(const std::string& game, const std::string& player_id,
                         const PlayerRating& rating);

// Rates `result` (a rated game's, as ValidateResult made it) with `model`: each side is rated
// as a team at its rank; bot seats take part at the initial rating and are not kept, unless
// they carry a rating id (a ladder's house bot), which is rated as a player. A seat with a
// weight below 1 moves that share of its change (mu and sigma alike). Updates
// the players' entries of `table` (games_played + 1) and returns their changes, by seat.
// INVALID_ARGUMENT from the model (Rate) leaves `table` unchanged.
absl::StatusOr<std::vector<v1::RatingChange>> ApplyResult(const RatingModelConfig& model,
                                                          const ValidResult& result,
                                                          RatingTable& table);

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RATING_UPDATE_H_
