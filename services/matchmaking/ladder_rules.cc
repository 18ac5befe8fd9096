#include "services/matchmaking/ladder_rules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "absl/random/distributions.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/matchmaking_logic.h"

namespace boneyard::matchmaking {
namespace {

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

absl::Status CheckShortId(absl::string_view field, absl::string_view id, int max_chars) {
  if (id.empty() || static_cast<int>(id.size()) > max_chars ||
      !std::all_of(id.begin(), id.end(), IsIdChar)) {
    return Invalid(field, absl::StrCat(validation::Quote(id), " is not 1-", max_chars,
                                       " characters of [a-z0-9_-]"));
  }
  return absl::OkStatus();
}

// The rules checked, and made to seat two players where the game has a "players" option and
// they do not say otherwise; then the game they make must seat at least two, in at most two
// teams (a ladder match is one side against the other). The table they make.
absl::StatusOr<LadderTable> CheckTable(v1::Ladder& ladder, const GameSpec& spec) {
  for (const auto& [name, value] : ladder.rules()) {
    if (absl::Status s = validation::CheckId("ladder.rules (an option name)", name); !s.ok()) {
      return s;
    }
    if (value.kind_case() == v1::RuleValue::kStringValue) {
      if (absl::Status s =
              validation::CheckId(absl::StrCat("ladder.rules.", name), value.string_value());
          !s.ok()) {
        return s;
      }
    }
  }
  const bool has_players = std::any_of(spec.options.begin(), spec.options.end(),
                                       [](const OptionSpec& o) { return o.name == "players"; });
  if (has_players && !ladder.rules().contains("players")) {
    (*ladder.mutable_rules())["players"].set_int_value(2);
  }
  absl::StatusOr<LadderTable> table = TableOf(ladder);
  if (!table.ok()) return table.status();
  if (table->seats < 2) {
    return Invalid("ladder.rules",
                   absl::StrCat(spec.name, " under these rules seats ", table->seats,
                                "; a ladder match is one player against another"));
  }
  if (table->teams.size() > 2) {
    return Invalid("ladder.rules",
                   absl::StrCat(spec.name, " under these rules has ", table->teams.size(),
                                " teams; a ladder match is one side against the other"));
  }
  return table;
}

// The fill bot named where the table has seats beyond the two sides', and only there.
absl::Status CheckFillBot(const v1::Ladder& ladder, const LadderTable& table) {
  if (!table.NeedsFill()) {
    if (ladder.fill_bot_id().empty()) return absl::OkStatus();
    return Invalid("ladder.fill_bot_id",
                   "is set, but the rules seat two players: there is no seat to fill");
  }
  if (ladder.fill_bot_id().empty()) {
    return Invalid("ladder.fill_bot_id",
                   absl::StrCat("is required: the rules seat ", table.seats,
                                table.teams.empty() ? "" : " in two teams",
                                ", and a house bot plays every seat but the two sides'"));
  }
  for (const v1::HouseBot& bot : ladder.house_bots()) {
    if (bot.bot_id() == ladder.fill_bot_id()) return absl::OkStatus();
  }
  return Invalid("ladder.fill_bot_id", absl::StrCat(validation::Quote(ladder.fill_bot_id()),
                                                    " is not one of the ladder's house bots"));
}

absl::Status CheckClock(const v1::ClockSettings& clock) {
  if (absl::Status s = validation::CheckNonNegativeDuration(
          "ladder.clock.per_move", clock.per_move(), validation::kMaxPerMove);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = validation::CheckEnum("ladder.clock.timeout_policy", clock.timeout_policy());
      !s.ok()) {
    return s;
  }
  if (clock.timeout_policy() != v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED &&
      FromDuration(clock.per_move()) == absl::ZeroDuration()) {
    return Invalid("ladder.clock.timeout_policy", "is set without ladder.clock.per_move");
  }
  return absl::OkStatus();
}

absl::Status CompleteHouseBots(const std::string& ladder_id, v1::Ladder& ladder) {
  if (ladder.house_bots_size() > kMaxHouseBots) {
    return Invalid("ladder.house_bots",
                   absl::StrCat(ladder.house_bots_size(), " house bots; at most ", kMaxHouseBots));
  }
  std::set<std::string> ids;
  const std::vector<std::string> kinds = DefaultBots().BotsFor(ladder.game());
  for (int i = 0; i < ladder.house_bots_size(); ++i) {
    v1::HouseBot& bot = *ladder.mutable_house_bots(i);
    const std::string field = absl::StrCat("ladder.house_bots[", i, "]");
    if (absl::Status s = CheckShortId(field + ".bot_id", bot.bot_id(), kMaxHouseBotIdChars);
        !s.ok()) {
      return s;
    }
    if (!ids.insert(bot.bot_id()).second) {
      return Invalid(field + ".bot_id",
                     absl::StrCat(validation::Quote(bot.bot_id()), " is given twice"));
    }
    if (absl::Status s = validation::CheckId(field + ".kind", bot.kind()); !s.ok()) return s;
    if (std::find(kinds.begin(), kinds.end(), bot.kind()) == kinds.end()) {
      return Invalid(field + ".kind",
                     absl::StrCat(ladder.game(), " has no bot ", validation::Quote(bot.kind())));
    }
    if (absl::Status s = DefaultBots().CheckLevel(ladder.game(), bot.kind(), bot.level());
        !s.ok()) {
      return Invalid(field + ".level", s.message());
    }
    if (bot.display_name().empty()) {
      bot.set_display_name(bot.level() == 0 ? bot.kind()
                                            : absl::StrCat(bot.kind(), " level ", bot.level()));
    } else if (absl::Status s = CheckDisplayName(bot.display_name()); !s.ok()) {
      return Invalid(field + ".display_name", absl::StripPrefix(s.message(), "display_name: "));
    }
    bot.set_rating_id(HouseRatingId(ladder_id, bot.bot_id()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckLadderId(absl::string_view field, absl::string_view id) {
  return CheckShortId(field, id, kMaxLadderIdChars);
}

absl::Status CheckHouseBotId(absl::string_view field, absl::string_view id) {
  return CheckShortId(field, id, kMaxHouseBotIdChars);
}

std::string HouseRatingId(absl::string_view ladder_id, absl::string_view bot_id) {
  return absl::StrCat(kHouseBotPrefix, ladder_id, ":", bot_id);
}

std::string HouseBotName(absl::string_view ladder_id, absl::string_view bot_id) {
  return absl::StrCat("ladders/", ladder_id, "/bots/", bot_id);
}

std::string PoolName(absl::string_view ladder_id) {
  return absl::StrCat("ladders/", ladder_id, "/pool");
}

std::string PoolKey(absl::string_view ladder_id) { return absl::StrCat("pool:", ladder_id); }

const v1::HouseBot* NearestHouseBot(const v1::Ladder& ladder, double skill,
                                    const std::vector<double>& bot_skills) {
  const v1::HouseBot* best = nullptr;
  double best_gap = 0;
  for (int i = 0; i < ladder.house_bots_size() && i < static_cast<int>(bot_skills.size()); ++i) {
    const double gap = std::abs(bot_skills[i] - skill);
    if (best == nullptr || gap < best_gap) {
      best = &ladder.house_bots(i);
      best_gap = gap;
    }
  }
  return best;
}

absl::StatusOr<v1::Ladder> NormalizedLadder(const std::string& ladder_id,
                                            const v1::Ladder& ladder) {
  if (absl::Status s = CheckLadderId("ladder_id", ladder_id); !s.ok()) return s;
  v1::Ladder out = ladder;
  out.clear_name();
  out.clear_create_time();
  if (absl::Status s = CheckDisplayName(out.display_name()); !s.ok()) {
    return Invalid("ladder.display_name", absl::StripPrefix(s.message(), "display_name: "));
  }
  if (absl::Status s = validation::CheckId("ladder.game", out.game()); !s.ok()) return s;
  const GameSpec* spec = DefaultRegistry().Find(out.game());
  if (spec == nullptr) {
    return Invalid("ladder.game", absl::StrCat("unknown game ", validation::Quote(out.game())));
  }
  absl::StatusOr<LadderTable> table = CheckTable(out, *spec);
  if (!table.ok()) return table.status();
  if (absl::Status s = CheckClock(out.clock()); !s.ok()) return s;
  if (absl::Status s = CompleteHouseBots(ladder_id, out); !s.ok()) return s;
  if (absl::Status s = CheckFillBot(out, *table); !s.ok()) return s;
  if (out.has_pool_wait()) {
    if (absl::Status s = validation::CheckDuration("ladder.pool_wait", out.pool_wait()); !s.ok()) {
      return s;
    }
    const absl::Duration wait = FromDuration(out.pool_wait());
    if (wait < kMinPoolWait || wait > kMaxPoolWait) {
      return Invalid("ladder.pool_wait",
                     absl::StrCat(absl::FormatDuration(wait), " is not within [",
                                  absl::FormatDuration(kMinPoolWait), ", ",
                                  absl::FormatDuration(kMaxPoolWait), "]"));
    }
  }
  const double weight = out.human_vs_bot_weight();
  if (!(weight >= 0 && weight <= 1)) {  // negated so that NaN fails too
    return Invalid("ladder.human_vs_bot_weight", absl::StrCat(weight, " is not within [0, 1]"));
  }
  if (out.has_bot_vs_bot_daily_cap() &&
      (out.bot_vs_bot_daily_cap() < 0 || out.bot_vs_bot_daily_cap() > kMaxBotVsBotDailyCap)) {
    return Invalid(
        "ladder.bot_vs_bot_daily_cap",
        absl::StrCat(out.bot_vs_bot_daily_cap(), " is not within [0, ", kMaxBotVsBotDailyCap, "]"));
  }
  return out;
}

absl::StatusOr<LadderTable> TableOf(const v1::Ladder& ladder) {
  const GameSpec* spec = DefaultRegistry().Find(ladder.game());
  if (spec == nullptr) {
    return Invalid("ladder.game", absl::StrCat("unknown game ", validation::Quote(ladder.game())));
  }
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(ladder.rules(), *spec);
  if (!values.ok()) return Invalid("ladder.rules", values.status().message());
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(spec->name, *values);
  if (!game.ok()) return Invalid("ladder.rules", game.status().message());
  return LadderTable{.seats = (*game)->num_seats(), .teams = (*game)->teams()};
}

LadderSeats DrawLadderSeats(const LadderTable& table, absl::BitGenRef gen) {
  if (table.teams.size() == 2) {
    const int first = absl::Uniform(gen, 0, 2);
    auto seat_in = [&](const std::vector<int>& team) {
      return team[absl::Uniform<size_t>(gen, 0, team.size())];
    };
    return LadderSeats{.challenger = seat_in(table.teams[first]),
                       .opponent = seat_in(table.teams[1 - first])};
  }
  const int challenger = absl::Uniform(gen, 0, table.seats);
  // One of the other seats: a draw over seats - 1, shifted past the challenger's.
  int opponent = absl::Uniform(gen, 0, table.seats - 1);
  if (opponent >= challenger) ++opponent;
  return LadderSeats{.challenger = challenger, .opponent = opponent};
}

double HumanVsBotWeight(const v1::Ladder& ladder) {
  return ladder.human_vs_bot_weight() == 0 ? 1.0 : ladder.human_vs_bot_weight();
}

int BotVsBotDailyCap(const v1::Ladder& ladder) {
  return ladder.has_bot_vs_bot_daily_cap() ? ladder.bot_vs_bot_daily_cap()
                                           : kDefaultBotVsBotDailyCap;
}

absl::StatusOr<v1::BotAcceptRules> NormalizedAcceptRules(const v1::BotAcceptRules& rules,
                                                         bool given) {
  v1::BotAcceptRules out;
  if (!given) {
    out.set_accept_casual(true);
    out.set_max_concurrent(1);
    return out;
  }
  out = rules;
  for (const auto& [field, value] : {std::pair{"accept.min_skill", rules.min_skill()},
                                     std::pair{"accept.max_skill", rules.max_skill()}}) {
    if (!std::isfinite(value)) return Invalid(field, "is not a finite number");
  }
  if (rules.max_skill() != 0 && rules.min_skill() > rules.max_skill()) {
    return Invalid("accept.min_skill",
                   absl::StrCat(rules.min_skill(), " is above max_skill ", rules.max_skill()));
  }
  if (rules.max_concurrent() < 0 || rules.max_concurrent() > kMaxConcurrentLimit) {
    return Invalid(
        "accept.max_concurrent",
        absl::StrCat(rules.max_concurrent(), " is not within [0, ", kMaxConcurrentLimit, "]"));
  }
  if (out.max_concurrent() == 0) out.set_max_concurrent(1);
  if (!rules.accept_rated() && !rules.accept_casual()) {
    return Invalid("accept", "accepts neither rated nor casual games");
  }
  return out;
}

absl::StatusOr<ChallengeDecision> DecideChallenge(const v1::Ladder& ladder, bool rated,
                                                  const ChallengeSide& challenger,
                                                  const ChallengeSide& opponent) {
  if (rated && challenger.bot != opponent.bot) {
    const ChallengeSide& person = challenger.bot ? opponent : challenger;
    if (!person.rated_vs_bots) {
      return absl::FailedPreconditionError(
          absl::StrCat("rated: ", person.name,
                       " has not opted in to rated games against bots on this ladder (JoinLadder "
                       "rated_vs_bots)"));
    }
  }
  if (challenger.bot && opponent.bot) {
    const int cap = BotVsBotDailyCap(ladder);
    if (challenger.bot_games_last_day >= cap) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "bot_vs_bot_daily_cap: ", challenger.name, " started ", challenger.bot_games_last_day,
          " games against bots in the last 24 hours; the ladder allows ", cap));
    }
  }
  ChallengeDecision decision;
  if (opponent.house) {
    decision.state = kChallengeAccepted;
    return decision;
  }
  if (!opponent.bot) return decision;  // a person answers for themselves
  const v1::BotAcceptRules& rules = opponent.accept;
  auto decline = [&decision](std::string reason) {
    decision.state = kChallengeDeclined;
    decision.reason = std::move(reason);
    return decision;
  };
  if (rated && !rules.accept_rated()) return decline("it does not play rated games");
  if (!rated && !rules.accept_casual()) return decline("it does not play casual games");
  if (rules.min_skill() != 0 || rules.max_skill() != 0) {
    if (challenger.skill < rules.min_skill()) {
      return decline(absl::StrCat("the challenger's skill ", challenger.skill,
                                  " is below its minimum ", rules.min_skill()));
    }
    if (rules.max_skill() != 0 && challenger.skill > rules.max_skill()) {
      return decline(absl::StrCat("the challenger's skill ", challenger.skill,
                                  " is above its maximum ", rules.max_skill()));
    }
  }
  const int limit = std::max(1, rules.max_concurrent());
  if (opponent.active_matches >= limit) {
    return decline(absl::StrCat("it is playing its limit of ", limit, " ladder matches"));
  }
  decision.state = rules.answer_myself() ? kChallengeOffered : kChallengeAccepted;
  return decision;
}

}  // namespace boneyard::matchmaking
