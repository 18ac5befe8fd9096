// A queue's settings (v1.Queue) checked against the engine — the game exists, its rules resolve,
// it can seat the format (every table size of a free-for-all; teams of the format's shape for a
// team format, none otherwise), the bot exists — and turned into the matching library's rules.
// No gRPC, no database.
#ifndef BONEYARD_SERVICES_MATCHMAKING_QUEUE_SETTINGS_H_
#define BONEYARD_SERVICES_MATCHMAKING_QUEUE_SETTINGS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "boneyard/v1/matchmaking.pb.h"
#include "engine/core/game.h"
#include "services/matchmaking/matching/queue_rules.h"

namespace boneyard::matchmaking {

// A queue's display name: 1 to this many characters.
inline constexpr int kMaxQueueDisplayNameChars = 80;

// OK, or INVALID_ARGUMENT naming the field (`queue.game`, `queue.rules.target`,
// `queue.format`, ...). `name` and the timestamps are not looked at.
absl::Status CheckQueueSettings(const v1::Queue& queue);

// The matching library's rules for a queue that passed CheckQueueSettings.
QueueRules MatchingRulesOf(const v1::Queue& queue);

// The engine's teams (seats by team; empty without teams) of a `players`-seat match under a
// queue's rules.
absl::StatusOr<Teams> SeatTeams(const v1::Queue& queue, int players);

// The most levels a queue's bot fill has.
inline constexpr int kMaxBotLevels = 16;

// The built-in bot that fills a queue's empty seats at a table whose human players' mean skill
// (mu) is `players_skill`: by the queue's levels, else its one bot kind, else the game's random
// bot below the initial skill less one beta and the game's own bot above (v1.BotFill).
std::string FillBotKind(const v1::Queue& queue, double players_skill);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_QUEUE_SETTINGS_H_
