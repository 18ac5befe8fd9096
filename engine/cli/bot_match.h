// One match between bots, as `simulate` and `match-bots` play it. Reproducible from the match
// seed: the bot in seat s is seeded with DeriveSeed(seed, kBotSeedStream + s) and a search
// bot's worlds at decision d with DeriveSeed(seed, kWorldSeedStream + d).
#ifndef BONEYARD_ENGINE_CLI_BOT_MATCH_H_
#define BONEYARD_ENGINE_CLI_BOT_MATCH_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/records/record.h"
#include "nlohmann/json.hpp"

namespace boneyard::cli {

inline constexpr uint64_t kBotSeedStream = 1000;
inline constexpr uint64_t kWorldSeedStream = uint64_t{1} << 32;

struct BotMatchOptions {
  int64_t max_actions = 0;  // stop there: the match counts as unfinished
  bool keep_record = false;
  bool time_seats = false;  // fill seat_seconds (two clock reads a decision, so only on request)
  // Actions (their text) played first, for whichever seat is to play, before any bot chooses:
  // a forced opening (match-bots --forced-bid). Each must be legal when it comes.
  std::vector<std::string> opening;
};

struct MatchOutcome {
  bool finished = false;  // false: stopped at max_actions, no result
  std::vector<int> scores;
  std::vector<int> ranks;
  int64_t decisions = 0;
  std::vector<int64_t> seat_decisions;  // per seat
  std::vector<double> seat_seconds;     // per seat, with time_seats
  nlohmann::json details;
  std::optional<Record> record;
};

// The duplicate arrangements of two sides (0 = A, 1 = B) over a game's seats, each the side in
// every seat, so that both sides hold every hand over a deal's arrangements: in a team game A
// as each team in turn; with every seat for itself, A in seat k and B in every other seat, for
// each k; a solitaire's one seat played by A, then by B.
std::vector<std::vector<int>> SideArrangements(const Game& game);

// Runs work(i) once for every i in [0, count) on up to `jobs` threads (each index claimed by
// one); the first error stops the others from claiming more and is returned. What the bot
// commands play their matches on; results go to per-index slots, so they come out the same for
// any number of jobs.
absl::Status ForEachIndex(int64_t count, int jobs,
                          const std::function<absl::Status(int64_t)>& work);

// Plays one match, seat s choosing with the bot named seats[s] ("kind" or "kind:level"). An
// error is always an internal one when the names were checked before: a bot or a game breaking
// its contract.
absl::StatusOr<MatchOutcome> PlayBotMatch(const Game& game, const std::vector<std::string>& seats,
                                          uint64_t match_seed, const BotMatchOptions& options);

}  // namespace boneyard::cli

#endif  // BONEYARD_ENGINE_CLI_BOT_MATCH_H_
