// A ladder's settings checked and completed, a bot account's accept rules, and the decision a
// challenge gets (ladder.proto) — the parts of the LadderService with no gRPC, no database and
// no clock in them, so that each rule is tested on its own (tests/services/matchmaking/
// ladder_rules_test.cc).
//
// The rules people who play bots ask for live here: a rated game between a person and a bot
// only for a person who opted in; bot-versus-bot games capped per bot and day; a bot account's
// own rules (rated or casual, the challenger's skill, how many matches at once).
#ifndef BONEYARD_SERVICES_MATCHMAKING_LADDER_RULES_H_
#define BONEYARD_SERVICES_MATCHMAKING_LADDER_RULES_H_

#include <string>
#include <vector>

#include "absl/random/bit_gen_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/strings/string_view.h"
#include "boneyard/v1/ladder.pb.h"

namespace boneyard::matchmaking {

// Ladder ids are short, so that "house:{ladder}:{bot}" stays an id (at most 64 bytes).
inline constexpr int kMaxLadderIdChars = 32;
inline constexpr int kMaxHouseBotIdChars = 24;
inline constexpr int kMaxHouseBots = 16;
inline constexpr int kDefaultBotVsBotDailyCap = 20;
inline constexpr int kMaxBotVsBotDailyCap = 10000;
inline constexpr int kMaxConcurrentLimit = 1000;
inline constexpr int kMaxDeclineReasonChars = 200;

// v1.Challenge.State as stored.
inline constexpr int kChallengeOffered = 1;
inline constexpr int kChallengeAccepted = 2;
inline constexpr int kChallengeDeclined = 3;
inline constexpr int kChallengeCancelled = 4;
inline constexpr int kChallengeFinished = 5;

// 1-32 characters of [a-z0-9_-]; INVALID_ARGUMENT naming `field` otherwise.
absl::Status CheckLadderId(absl::string_view field, absl::string_view id);

// 1-24 characters of [a-z0-9_-]; INVALID_ARGUMENT naming `field` otherwise.
absl::Status CheckHouseBotId(absl::string_view field, absl::string_view id);

// "house:{ladder_id}:{bot_id}".
std::string HouseRatingId(absl::string_view ladder_id, absl::string_view bot_id);
// "ladders/{ladder_id}/bots/{bot_id}".
std::string HouseBotName(absl::string_view ladder_id, absl::string_view bot_id);

// The pool of a ladder: its name as an opponent, "ladders/{ladder_id}/pool", and the key a waiting
// pool challenge stores as its opponent, "pool:{ladder_id}".
std::string PoolName(absl::string_view ladder_id);
std::string PoolKey(absl::string_view ladder_id);
inline constexpr absl::Duration kMinPoolWait = absl::Seconds(1);
inline constexpr absl::Duration kMaxPoolWait = absl::Hours(1);

// The house bot that takes a pool seat: the one whose skill (`bot_skills`, by house bot, as
// `ladder.house_bots()`) is nearest `skill`, the first of equals; null when there is none.
const v1::HouseBot* NearestHouseBot(const v1::Ladder& ladder, double skill,
                                    const std::vector<double>& bot_skills);

// `ladder` checked (INVALID_ARGUMENT naming the field, under "ladder.") and completed: the house
// bots' rating ids and display names filled in, the output-only fields cleared.
absl::StatusOr<v1::Ladder> NormalizedLadder(const std::string& ladder_id, const v1::Ladder& ladder);

// The table a ladder's rules make: its seats and its teams (none: every seat for itself).
struct LadderTable {
  int seats = 2;
  std::vector<std::vector<int>> teams;

  // Whether seats are left for the ladder's fill bot: more than the two sides' own.
  bool NeedsFill() const { return seats > 2; }
};

// The table of a ladder's rules, as NormalizedLadder completed them (INVALID_ARGUMENT naming
// "ladder.rules" when they make no game).
absl::StatusOr<LadderTable> TableOf(const v1::Ladder& ladder);

// Where a ladder match seats its two sides, drawn from `gen`: in a team game one seat of each
// team (which team is whose, and which of its seats, at random), otherwise two different seats
// of the table. The fill bot plays every other seat.
struct LadderSeats {
  int challenger = 0;
  int opponent = 1;
};
LadderSeats DrawLadderSeats(const LadderTable& table, absl::BitGenRef gen);

// The ladder's weight of a person's change against a bot (0 read as 1) and its daily cap.
double HumanVsBotWeight(const v1::Ladder& ladder);
int BotVsBotDailyCap(const v1::Ladder& ladder);

// A bot account's rules checked (INVALID_ARGUMENT naming "accept.") and completed
// (max_concurrent 0 read as 1). Unset (`given` false): casual games only, of any challenger,
// one at a time, accepted at once.
absl::StatusOr<v1::BotAcceptRules> NormalizedAcceptRules(const v1::BotAcceptRules& rules,
                                                         bool given);

// One side of a challenge as the decision sees it.
struct ChallengeSide {
  std::string name;  // "players/{id}" or a house bot's name, for messages
  bool bot = false;  // a bot account or a house bot
  bool house = false;
  bool rated_vs_bots = false;  // a person's opt-in
  v1::BotAcceptRules accept;   // a bot account's rules
  double skill = 0;            // mu in the ladder's game
  int active_matches = 0;      // its ladder challenges ACCEPTED and not finished
  int bot_games_last_day = 0;  // games it started against bots in the last 24 hours
};

struct ChallengeDecision {
  int state = kChallengeOffered;  // OFFERED, ACCEPTED or DECLINED
  std::string reason;             // why DECLINED
};

// What a challenge from `challenger` to `opponent` becomes on `ladder`: FAILED_PRECONDITION for a
// rated game between a person and a bot the person did not opt in to; RESOURCE_EXHAUSTED for a
// bot over the daily cap of games against bots; otherwise ACCEPTED (a house bot, or a bot
// account whose rules allow it and who does not answer itself), DECLINED with the rule that
// refused, or OFFERED.
absl::StatusOr<ChallengeDecision> DecideChallenge(const v1::Ladder& ladder, bool rated,
                                                  const ChallengeSide& challenger,
                                                  const ChallengeSide& opponent);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LADDER_RULES_H_
