// A finished match's result as the ratings service uses it: RecordResult's request checked
// against everything ratings.proto lists, and reduced to what rating needs (teams of seats with
// their shared ranks, the player in each seat) plus what storing needs (the canonical result
// for conflict detection, the request for RerateGame's replay, a solitaire game's figures).
// No gRPC, no database.
//
//   absl::StatusOr<ValidResult> result = ValidateResult(request, DefaultRegistry());
//   if (!result.ok()) return result.status();  // INVALID_ARGUMENT naming the field
#ifndef BONEYARD_SERVICES_RATINGS_MATCH_RESULT_H_
#define BONEYARD_SERVICES_RATINGS_MATCH_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "engine/core/registry.h"

namespace boneyard::ratings {

// A solitaire game's result (Castle Rock's `result.details`), ranked on its leaderboards by
// tiles left, then pips left, then duration.
struct SolitaireFigures {
  int tiles_left = 0;
  int pips_left = 0;
  int64_t duration_millis = 0;  // create_time to end_time
  bool won = false;
};

struct ValidResult {
  std::string match_id;  // the {id} of "matches/{id}"
  std::string game;
  absl::Time end_time;  // to the microsecond
  // By seat: whom the seat's rating change belongs to: the player id, a built-in bot's
  // `rating_id` (a ladder's house bot), or empty for a built-in bot rated as nobody.
  std::vector<std::string> player_ids;
  // By seat: how much of the change counts, in (0, 1] (`Player.rating_weight`, 0 read as 1).
  std::vector<double> weights;
  // By seat: the rank, 1 = best.
  std::vector<int> seat_ranks;
  // The sides: result.teams, or one team per seat. Each team's seats, ascending, and its rank.
  std::vector<std::vector<int>> teams;
  std::vector<double> team_ranks;
  // Set for a solitaire game (one seat, not rated).
  std::optional<SolitaireFigures> solitaire;
  // The canonical result: a v1.Match holding only name, game, seats, result, create_time and
  // end_time, serialized deterministically. Two deliveries are the same result exactly when
  // these bytes are equal.
  std::string canonical;
  // The request as received (serialized), which RerateGame replays.
  std::string request;
};

// Whether `spec` is a solitaire game (one seat): its results are listed, not rated.
bool IsSolitaire(const GameSpec& spec);

// "matches/{id}" → id: 1 to 64 characters of [a-z0-9_-] (execution's match ids).
// INVALID_ARGUMENT naming `field` otherwise.
absl::StatusOr<std::string> ParseMatchName(absl::string_view name, absl::string_view field);

// Checks `request` (ratings.proto, RecordResult) and reduces it. INVALID_ARGUMENT naming the
// field for: no match, a state other than FINISHED, no result, a bad name, a game `registry`
// does not know, no seats or a seat count the game does not take, a seat without an occupant
// or with an empty player id, player ids / scores / ranks not one per seat or not agreeing
// with the seats, a rank below 1, teams that do not cover every seat exactly once or whose
// members do not share a rank, fewer than two sides in a rated game, the same player in two
// seats, a player id holding a NUL character, a missing or invalid end_time, and for a
// solitaire game missing or invalid details (tiles_left, pips_left: non-negative integers;
// won: a bool) or an end before the creation.
absl::StatusOr<ValidResult> ValidateResult(const v1::RecordResultRequest& request,
                                           const GameRegistry& registry);

// For people: the canonical result of ValidResult::canonical in one line ("game muggins,
// ended 2026-11-22T01:00:00Z, seats [ann, bot, bob], ranks [1, 2, 1], scores [61, 40, 61],
// teams [[0, 2], [1]]"), or a note that it does not parse.
std::string DescribeCanonical(absl::string_view canonical);

// A player id as the service accepts it: non-empty, without NUL characters. INVALID_ARGUMENT
// naming `field` otherwise.
absl::Status CheckPlayerId(absl::string_view player_id, absl::string_view field);

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_MATCH_RESULT_H_
