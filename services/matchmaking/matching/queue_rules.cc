#include "services/matchmaking/matching/queue_rules.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace boneyard::matchmaking {
namespace {

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

bool NonNegative(double value) { return std::isfinite(value) && value >= 0; }

}  // namespace

absl::Status ValidateRules(const QueueRules& rules) {
  const Format& format = rules.format;
  switch (format.kind) {
    case FormatKind::kHeadToHead:
      break;
    case FormatKind::kFreeForAll:
      // A table of one is solitaire (Castle Rock): each ticket is seated alone at once.
      if (format.min_players < 1 || format.min_players > format.max_players ||
          format.max_players > kMaxTablePlayers) {
        return Invalid("format", absl::StrCat("a table seats 1 <= min_players <= max_players <= ",
                                              kMaxTablePlayers));
      }
      if (format.short_table_after < absl::ZeroDuration()) {
        return Invalid("format.short_table_after", "is negative");
      }
      break;
    case FormatKind::kTeams:
      if (format.teams < 2 || format.teams > 4 || format.team_size < 1 ||
          format.team_size > 4) {
        return Invalid("format", "2 to 4 teams of 1 to 4 players");
      }
      break;
    default:
      return Invalid("format.kind", "is unknown");
  }
  const Widening& widening = rules.widening;
  if (!NonNegative(widening.initial) || !NonNegative(widening.per_second) ||
      !NonNegative(widening.max) || widening.initial > widening.max) {
    return Invalid("window", "finite, not negative, and initial <= max");
  }
  if (rules.bot_fill.after < absl::ZeroDuration()) {
    return Invalid("bot_fill.after", "is negative");
  }
  return ratings::ValidateConfig(rules.model);
}

}  // namespace boneyard::matchmaking
