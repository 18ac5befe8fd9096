#include "services/matchmaking/queue_settings.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"

namespace boneyard::matchmaking {
namespace {

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

absl::Status CheckWait(absl::string_view field, const google::protobuf::Duration& d) {
  return validation::CheckNonNegativeDuration(field, d, absl::InfiniteDuration());
}

// The game made from the queue's rules for `players` seats: its error names the option.
absl::StatusOr<std::shared_ptr<const Game>> GameFor(const GameSpec& spec,
                                                    std::map<std::string, OptionValue> values,
                                                    int players) {
  const bool has_players = std::any_of(spec.options.begin(), spec.options.end(),
                                       [](const OptionSpec& o) { return o.name == "players"; });
  if (has_players) values["players"] = static_cast<int64_t>(players);
  absl::StatusOr<std::shared_ptr<const Game>> game = DefaultRegistry().CreateGame(spec.name, values);
  if (!game.ok()) return Invalid("queue.rules", game.status().message());
  if ((*game)->num_seats() != players) {
    return Invalid("queue.format", absl::StrCat(spec.name, " under these rules seats ",
                                                (*game)->num_seats(), ", not ", players));
  }
  return game;
}

// The engine can seat `format` (already in range: ValidateRules): every table size makes a game
// under the queue's rules, with the format's team shape for a team format and none otherwise.
absl::Status CheckSeats(const Format& format, const GameSpec& spec,
                        const std::map<std::string, OptionValue>& values) {
  const int fewest =
      format.kind == FormatKind::kFreeForAll ? format.min_players : format.seats();
  // Matches are created with the queue's rules as written: a `players` other than every table
  // the format forms would have execution refuse them, and their tickets cancelled.
  if (auto players = values.find("players"); players != values.end()) {
    const int64_t* given = std::get_if<int64_t>(&players->second);
    if (given == nullptr || fewest != format.seats() || *given != format.seats()) {
      return Invalid("queue.rules.players",
                     "is set by queue.format (the table each match is formed for); leave it out");
    }
  }
  for (int players = fewest; players <= format.seats(); ++players) {
    absl::StatusOr<std::shared_ptr<const Game>> game = GameFor(spec, values, players);
    if (!game.ok()) return game.status();
    const Teams& shape = (*game)->teams();
    if (format.kind != FormatKind::kTeams) {
      if (!shape.empty()) {
        return Invalid("queue.format", absl::StrCat(spec.name, " is played in teams"));
      }
      continue;
    }
    const bool fits = static_cast<int>(shape.size()) == format.teams &&
                      std::all_of(shape.begin(), shape.end(), [&](const std::vector<int>& t) {
                        return static_cast<int>(t.size()) == format.team_size;
                      });
    if (!fits) {
      return Invalid("queue.format.teams",
                     absl::StrCat(spec.name, " under these rules is not played by ",
                                  format.teams, " teams of ", format.team_size));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckBots(const v1::Queue& queue) {
  const std::vector<std::string> kinds = DefaultBots().BotsFor(queue.game());
  auto check_kind = [&](const std::string& field, const std::string& bot) {
    if (std::find(kinds.begin(), kinds.end(), bot) != kinds.end()) return absl::OkStatus();
    return Invalid(field, absl::StrCat(queue.game(), " has no bot ", validation::Quote(bot)));
  };
  const v1::BotFill& fill = queue.bot_fill();
  if (!fill.bot_kind().empty()) {
    if (absl::Status s = check_kind("queue.bot_fill.bot_kind", fill.bot_kind()); !s.ok()) {
      return s;
    }
  }
  if (fill.levels_size() > kMaxBotLevels) {
    return Invalid("queue.bot_fill.levels", absl::StrCat("has ", fill.levels_size(),
                                                         " levels; at most ", kMaxBotLevels));
  }
  for (int i = 0; i < fill.levels_size(); ++i) {
    const v1::BotLevel& level = fill.levels(i);
    const std::string field = absl::StrCat("queue.bot_fill.levels[", i, "]");
    if (!std::isfinite(level.min_skill())) {
      return Invalid(field + ".min_skill", "must be a finite number");
    }
    if (i > 0 && level.min_skill() <= fill.levels(i - 1).min_skill()) {
      return Invalid(field + ".min_skill", "must be above the previous level's");
    }
    if (absl::Status s = check_kind(field + ".bot_kind", level.bot_kind()); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckQueueSettings(const v1::Queue& queue) {
  if (absl::Status s = validation::CheckDisplayName("queue.display_name", queue.display_name(),
                                                    kMaxQueueDisplayNameChars);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = validation::CheckId("queue.game", queue.game()); !s.ok()) return s;
  const GameSpec* spec = DefaultRegistry().Find(queue.game());
  if (spec == nullptr) {
    return Invalid("queue.game", absl::StrCat("unknown game ", validation::Quote(queue.game())));
  }
  for (const auto& [name, value] : queue.rules()) {
    if (absl::Status s = validation::CheckId("queue.rules (an option name)", name); !s.ok()) {
      return s;
    }
    if (value.kind_case() == v1::RuleValue::kStringValue) {
      if (absl::Status s = validation::CheckId(absl::StrCat("queue.rules.", name),
                                               value.string_value());
          !s.ok()) {
        return s;
      }
    }
  }
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(queue.rules(), *spec);
  if (!values.ok()) return Invalid("queue.rules", values.status().message());
  if (queue.format().kind_case() == v1::QueueFormat::KIND_NOT_SET) {
    return Invalid("queue.format", "set one of head_to_head, free_for_all, teams");
  }
  const v1::ClockSettings& clock = queue.clock();
  for (const auto& [field, duration] :
       std::initializer_list<std::pair<const char*, const google::protobuf::Duration*>>{
           {"queue.format.free_for_all.short_table_after",
            &queue.format().free_for_all().short_table_after()},
           {"queue.bot_fill.after", &queue.bot_fill().after()},
           {"queue.max_wait", &queue.max_wait()}}) {
    if (absl::Status s = CheckWait(field, *duration); !s.ok()) return s;
  }
  if (absl::Status s = validation::CheckNonNegativeDuration("queue.clock.per_move",
                                                            clock.per_move(),
                                                            validation::kMaxPerMove);
      !s.ok()) {
    return s;
  }
  // The ranges are the matching library's; the engine then checks it can seat them.
  const QueueRules rules = MatchingRulesOf(queue);
  if (absl::Status s = ValidateRules(rules); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("queue.", s.message()));
  }
  if (absl::Status s = CheckSeats(rules.format, *spec, *values); !s.ok()) return s;

  if (absl::Status s = validation::CheckEnum("queue.clock.timeout_policy", clock.timeout_policy());
      !s.ok()) {
    return s;
  }
  if (clock.timeout_policy() != v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED &&
      FromDuration(clock.per_move()) == absl::ZeroDuration()) {
    return Invalid("queue.clock.timeout_policy", "is set without queue.clock.per_move");
  }
  return CheckBots(queue);
}

absl::StatusOr<Teams> SeatTeams(const v1::Queue& queue, int players) {
  const GameSpec* spec = DefaultRegistry().Find(queue.game());
  if (spec == nullptr) return Invalid("queue.game", "unknown game");
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(queue.rules(), *spec);
  if (!values.ok()) return Invalid("queue.rules", values.status().message());
  absl::StatusOr<std::shared_ptr<const Game>> game = GameFor(*spec, *values, players);
  if (!game.ok()) return game.status();
  return (*game)->teams();
}

std::string FillBotKind(const v1::Queue& queue, double players_skill) {
  const v1::BotFill& fill = queue.bot_fill();
  if (!fill.levels().empty()) {
    std::string kind = fill.levels(0).bot_kind();
    for (const v1::BotLevel& level : fill.levels()) {
      if (players_skill >= level.min_skill()) kind = level.bot_kind();
    }
    return kind;
  }
  if (!fill.bot_kind().empty()) return fill.bot_kind();
  // Players who have lost more than they won meet the random bot every game has; the others
  // the game's own bot, which plays better (until issue 23's calibrated levels).
  const ratings::SkillRating initial = ratings::InitialRating(MatchingRulesOf(queue).model);
  if (players_skill < initial.mu - MatchingRulesOf(queue).model.beta) return "random";
  for (const std::string& kind : DefaultBots().BotsFor(queue.game())) {
    if (kind != "random") return kind;
  }
  return "random";
}

QueueRules MatchingRulesOf(const v1::Queue& queue) {
  QueueRules rules;
  const v1::QueueFormat& format = queue.format();
  if (format.has_free_for_all()) {
    rules.format = {.kind = FormatKind::kFreeForAll,
                    .min_players = format.free_for_all().min_players(),
                    .max_players = format.free_for_all().max_players(),
                    .short_table_after = FromDuration(format.free_for_all().short_table_after())};
  } else if (format.has_teams()) {
    rules.format = {.kind = FormatKind::kTeams,
                    .teams = format.teams().teams(),
                    .team_size = format.teams().team_size()};
  }
  rules.widening = {.initial = queue.window().initial(),
                    .per_second = queue.window().per_second(),
                    .max = queue.window().max()};
  rules.bot_fill = {.enabled = queue.bot_fill().enabled(),
                    .after = FromDuration(queue.bot_fill().after())};
  return rules;
}

}  // namespace boneyard::matchmaking
