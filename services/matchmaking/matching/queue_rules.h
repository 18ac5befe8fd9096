// What a matchmaking queue asks of the matches it forms: the format (head-to-head,
// free-for-all tables, or teams), how far apart in skill its players may be and how that widens
// with waiting, and when empty seats are filled with bots. Plain values: the service stores
// them with the queue and hands them to every pass (pass.h).
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHING_QUEUE_RULES_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHING_QUEUE_RULES_H_

#include <algorithm>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::matchmaking {

// The most players a free-for-all table seats (the most any game takes).
inline constexpr int kMaxTablePlayers = 8;

enum class FormatKind {
  // Two players, one against the other.
  kHeadToHead,
  // One table of min_players..max_players, every player for themselves (Mexican Train 2-8).
  kFreeForAll,
  // `teams` teams of `team_size` players (Forty-Two 2x2, Eighty-Four 2x4 or 2x3, Muggins 2x2).
  kTeams,
};

struct Format {
  FormatKind kind = FormatKind::kHeadToHead;
  // kFreeForAll: a full table (max_players) is formed as soon as it can be; a smaller one, never
  // below min_players, once its longest-waiting ticket has waited `short_table_after`.
  int min_players = 2;
  int max_players = 2;
  absl::Duration short_table_after = absl::Seconds(30);
  // kTeams.
  int teams = 2;
  int team_size = 2;

  // Players in a full match.
  int seats() const {
    switch (kind) {
      case FormatKind::kHeadToHead:
        return 2;
      case FormatKind::kFreeForAll:
        return max_players;
      case FormatKind::kTeams:
        return teams * team_size;
    }
    return 0;
  }
  // The largest party a ticket may bring: a team (kTeams), a table less one (kFreeForAll: a
  // party plays each other, with at least one stranger), or one player (kHeadToHead).
  int max_party() const {
    switch (kind) {
      case FormatKind::kHeadToHead:
        return 1;
      case FormatKind::kFreeForAll:
        // A party leaves room for someone else at the table, except at a table of one.
        return max_players == 1 ? 1 : max_players - 1;
      case FormatKind::kTeams:
        return team_size;
    }
    return 0;
  }
};

// How far apart two tickets may be, in the model's skill (mu), as a function of how long each
// has waited: `initial` at once, growing by `per_second` up to `max` (Lichess's widening
// ceiling). Two tickets may meet when their distance is within *both* their windows.
struct Widening {
  double initial = 3.0;
  double per_second = 0.25;
  double max = 25.0;

  double At(absl::Duration wait) const {
    const double seconds = std::max(0.0, absl::ToDoubleSeconds(wait));
    return std::min(max, initial + per_second * seconds);
  }
};

// After `after`, a ticket that has not found enough players is seated with built-in bots in
// the empty seats. Bots are rated as the players they fill in for (the mean of the table's
// humans), so a bot-filled team match is still split for balance.
struct BotFill {
  bool enabled = false;
  absl::Duration after = absl::Seconds(60);
};

struct QueueRules {
  Format format;
  Widening widening;
  BotFill bot_fill;
  // The ratings model whose predicted win chances balance team matches.
  ratings::RatingModelConfig model;
};

// OK, or INVALID_ARGUMENT naming the field (`format`, `window`, `bot_fill.after`, ...):
// 1 <= min_players <= max_players <= 8 (1: solitaire); 2..4 teams of 1..4 players; a
// non-negative, finite window with initial <= max; durations >= 0.
absl::Status ValidateRules(const QueueRules& rules);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHING_QUEUE_RULES_H_
