#include "services/matchmaking/ladder_logic.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/ladder_rules.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/matchmaking_logic.h"

namespace boneyard::matchmaking {
namespace {

// The most events one read sends; a stream behind by more reads again at once.
constexpr int kEventBatch = 500;

absl::Status NoSuchLadder(const std::string& id) {
  return absl::NotFoundError(absl::StrCat("ladders/", id, " does not exist"));
}

absl::StatusOr<std::string> LadderId(absl::string_view name, absl::string_view field) {
  absl::string_view id = name;
  if (!absl::ConsumePrefix(&id, "ladders/") || !CheckLadderId(field, id).ok()) {
    return Invalid(field, absl::StrCat(validation::Quote(name),
                                       " is not of the form \"ladders/{ladder_id}\""));
  }
  return std::string(id);
}

// An opponent's name: "players/{id}" -> {id, ""}; "ladders/{l}/bots/{b}" -> {"", b} (l must be
// `ladder_id`).
absl::StatusOr<std::pair<std::string, std::string>> OpponentOf(absl::string_view name,
                                                               const std::string& ladder_id) {
  if (absl::StartsWith(name, "players/")) {
    absl::StatusOr<std::string> id = ParseName(name, "players", "opponent");
    if (!id.ok()) return id.status();
    return std::make_pair(*id, std::string());
  }
  const std::vector<absl::string_view> parts = absl::StrSplit(name, '/');
  if (parts.size() == 4 && parts[0] == "ladders" && parts[2] == "bots" &&
      CheckLadderId("opponent", parts[1]).ok() && CheckHouseBotId("opponent", parts[3]).ok()) {
    if (parts[1] != ladder_id) {
      return Invalid("opponent",
                     absl::StrCat(validation::Quote(name), " is a bot of another ladder"));
    }
    return std::make_pair(std::string(), std::string(parts[3]));
  }
  return Invalid("opponent", absl::StrCat(validation::Quote(name),
                                          " is not \"players/{id}\" nor "
                                          "\"ladders/{ladder_id}/bots/{bot_id}\""));
}

const v1::HouseBot* FindHouseBot(const v1::Ladder& ladder, absl::string_view bot_id) {
  for (const v1::HouseBot& bot : ladder.house_bots()) {
    if (bot.bot_id() == bot_id) return &bot;
  }
  return nullptr;
}

// The name shown for a stored opponent: a house bot's rating id "house:{l}:{b}" becomes
// "ladders/{l}/bots/{b}"; a pool's key "pool:{l}" "ladders/{l}/pool"; a player id "players/{id}".
std::string OpponentName(const std::string& stored) {
  absl::string_view rest = stored;
  if (absl::ConsumePrefix(&rest, "pool:")) return PoolName(rest);
  if (absl::ConsumePrefix(&rest, kHouseBotPrefix)) {
    const std::pair<absl::string_view, absl::string_view> parts = absl::StrSplit(rest, ':');
    return HouseBotName(parts.first, parts.second);
  }
  return absl::StrCat("players/", stored);
}

std::string Digest(const v1::CreateChallengeRequest& request, const std::string& challenger) {
  return absl::StrCat(request.ladder(), "\n", request.opponent(), "\n", request.rated(), "\n",
                      challenger);
}

v1::LadderMember MemberToProto(const MemberRow& row) {
  v1::LadderMember out;
  out.set_name(absl::StrCat("ladders/", row.ladder_id, "/members/", row.player_id));
  out.set_player(absl::StrCat("players/", row.player_id));
  out.set_display_name(row.display_name);
  out.set_kind(static_cast<v1::PlayerAccount::Kind>(row.kind));
  out.set_rated_vs_bots(row.rated_vs_bots);
  if (!row.accept.empty()) out.mutable_accept()->ParseFromString(row.accept);
  *out.mutable_join_time() = ToTimestamp(row.join_time);
  return out;
}

absl::StatusOr<v1::Ladder> LadderToProto(const LadderRow& row) {
  v1::Ladder out;
  if (!out.ParseFromString(row.settings)) {
    return absl::InternalError(
        absl::StrCat("ladders/", row.ladder_id, ": stored settings do not parse"));
  }
  out.set_name(absl::StrCat("ladders/", row.ladder_id));
  *out.mutable_create_time() = ToTimestamp(row.create_time);
  return out;
}

// One side of an accepted challenge as its match seats it: a player (a person or a bot
// account), or a house bot.
struct SeatOf {
  std::string player_id;  // empty for a house bot
  bool person = false;    // a person (not a bot account)
  const v1::HouseBot* house = nullptr;
};

// The house bot that plays a ladder's fill seats; null when the ladder has none.
const v1::HouseBot* FillBot(const v1::Ladder& ladder) {
  for (const v1::HouseBot& bot : ladder.house_bots()) {
    if (bot.bot_id() == ladder.fill_bot_id()) return &bot;
  }
  return nullptr;
}

// Draws the seats of an accepted challenge's match and keeps the request with the challenge, so
// that a retry creates the same match: the two sides where DrawLadderSeats puts them, the
// ladder's fill bot on every other seat, unrated (no rating id), so that only the two sides'
// ratings move. A person's rating change in a rated game against a bot is weighed by the
// ladder's weight.
absl::Status SetMatchRequest(const v1::Ladder& ladder, const SeatOf& challenger,
                             const SeatOf& opponent, ChallengeRow& r) {
  absl::StatusOr<LadderTable> table = TableOf(ladder);
  if (!table.ok()) {
    return absl::InternalError(absl::StrCat("ladders/", r.ladder_id,
                                            ": its rules no longer make a game: ",
                                            table.status().message()));
  }
  const v1::HouseBot* fill = FillBot(ladder);
  if (table->NeedsFill() && fill == nullptr) {
    return absl::InternalError(absl::StrCat("ladders/", r.ladder_id, " seats ", table->seats,
                                            " but has no fill bot"));
  }
  v1::CreateMatchRequest match;
  match.set_game(ladder.game());
  *match.mutable_rules() = ladder.rules();
  *match.mutable_clock() = ladder.clock();
  match.set_request_id(absl::StrCat("challenge-", r.challenge_id));
  match.set_casual(!r.rated);
  match.set_queue(absl::StrCat("ladders/", r.ladder_id));
  const double weight = HumanVsBotWeight(ladder);
  const bool person_vs_bot = r.rated && challenger.person != opponent.person;
  r.seat_players.clear();
  auto add = [&](const SeatOf& side) {
    if (side.house != nullptr) {
      v1::Bot& bot = *match.add_seats()->mutable_bot();
      bot.set_kind(side.house->kind());
      bot.set_level(side.house->level());
      bot.set_rating_id(side.house->rating_id());
      r.seat_players.push_back(HouseBotName(r.ladder_id, side.house->bot_id()));
      return;
    }
    v1::Player& p = *match.add_seats()->mutable_player();
    p.set_player_id(side.player_id);
    if (side.person && person_vs_bot && weight < 1) p.set_rating_weight(weight);
    r.seat_players.push_back(absl::StrCat("players/", side.player_id));
  };
  absl::BitGen gen;
  const LadderSeats sides = DrawLadderSeats(*table, gen);
  for (int seat = 0; seat < table->seats; ++seat) {
    if (seat == sides.challenger) {
      add(challenger);
    } else if (seat == sides.opponent) {
      add(opponent);
    } else {
      v1::Bot& bot = *match.add_seats()->mutable_bot();
      bot.set_kind(fill->kind());
      bot.set_level(fill->level());
      r.seat_players.push_back(HouseBotName(r.ladder_id, fill->bot_id()));
    }
  }
  r.match_request = match.SerializeAsString();
  return absl::OkStatus();
}

}  // namespace

LadderLogic::LadderLogic(PgMatchmakingStore& players, PgLadderStore& store, LadderOptions options)
    : players_(players),
      store_(store),
      options_(std::move(options)),
      auth_(AuthConfig{options_.operator_token, {}}),
      page_tokens_(PageTokenKey(options_.operator_token)) {}

absl::Status LadderLogic::RequireOperator(const Token& token) {
  return RequireOperatorToken(auth_, players_, token);
}

absl::StatusOr<std::optional<std::string>> LadderLogic::Caller(const Token& token) {
  return CallingPlayer(auth_, players_, token);
}

absl::StatusOr<v1::Ladder> LadderLogic::LoadLadder(const std::string& ladder_id) {
  absl::StatusOr<std::optional<LadderRow>> row = store_.GetLadder(ladder_id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return NoSuchLadder(ladder_id);
  return LadderToProto(**row);
}

void LadderLogic::Changed() {
  absl::MutexLock lock(&mu_);
  ++changes_;
}

int64_t LadderLogic::AwaitChange(int64_t seen, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  auto changed = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return changes_ != seen; };
  mu_.AwaitWithDeadline(absl::Condition(&changed), deadline);
  return changes_;
}

absl::StatusOr<v1::Ladder> LadderLogic::CreateLadder(const Token& token,
                                                     const v1::CreateLadderRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<v1::Ladder> ladder = NormalizedLadder(request.ladder_id(), request.ladder());
  if (!ladder.ok()) return ladder.status();
  LadderRow row{.ladder_id = request.ladder_id(),
                .game = ladder->game(),
                .settings = ladder->SerializeAsString(),
                .create_time = StoredNow()};
  if (absl::Status s = store_.InsertLadder(row); !s.ok()) return s;
  return LadderToProto(row);
}

absl::StatusOr<v1::Ladder> LadderLogic::GetLadder(const v1::GetLadderRequest& request) {
  absl::StatusOr<std::string> id = LadderId(request.name(), "name");
  if (!id.ok()) return id.status();
  return LoadLadder(*id);
}

absl::StatusOr<v1::ListLaddersResponse> LadderLogic::ListLadders(
    const v1::ListLaddersRequest& request) {
  if (absl::Status s = validation::CheckOptionalId("game", request.game()); !s.ok()) return s;
  absl::StatusOr<int> size = validation::PageSize(request.page_size());
  if (!size.ok()) return size.status();
  if (absl::Status s = validation::CheckOptionalId("page_token", request.page_token(),
                                                   validation::kMaxPageTokenBytes);
      !s.ok()) {
    return s;
  }
  const std::vector<std::string> identity = {"ladders", request.game()};
  absl::StatusOr<std::optional<std::vector<std::string>>> cursor =
      page_tokens_.DecodeCursor(request.page_token(), identity, 1);
  if (!cursor.ok()) return cursor.status();
  absl::StatusOr<std::vector<LadderRow>> rows = store_.ListLadders(
      request.game(), cursor->has_value() ? (**cursor)[0] : std::string(), *size + 1);
  if (!rows.ok()) return rows.status();
  v1::ListLaddersResponse response;
  for (int i = 0; i < std::min<int>(*size, rows->size()); ++i) {
    absl::StatusOr<v1::Ladder> ladder = LadderToProto((*rows)[i]);
    if (!ladder.ok()) return ladder.status();
    *response.add_ladders() = *std::move(ladder);
  }
  if (static_cast<int>(rows->size()) > *size) {
    std::vector<std::string> parts = identity;
    parts.push_back((*rows)[*size - 1].ladder_id);
    response.set_next_page_token(page_tokens_.Encode(parts));
  }
  return response;
}

absl::StatusOr<v1::LadderMember> LadderLogic::JoinLadder(const Token& token,
                                                         const v1::JoinLadderRequest& request) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> ladder_id = LadderId(request.ladder(), "ladder");
  if (!ladder_id.ok()) return ladder_id.status();
  std::string player_id;
  if (request.player().empty()) {
    if (!caller->has_value()) return Invalid("player", "the operator must name the player");
    player_id = **caller;
  } else {
    absl::StatusOr<std::string> named = ParseName(request.player(), "players", "player");
    if (!named.ok()) return named.status();
    if (caller->has_value() && **caller != *named) {
      return absl::PermissionDeniedError("only the operator may join another player");
    }
    player_id = *named;
  }
  absl::StatusOr<v1::Ladder> ladder = LoadLadder(*ladder_id);
  if (!ladder.ok()) return ladder.status();
  absl::StatusOr<std::optional<PlayerRow>> player = players_.GetPlayer(player_id);
  if (!player.ok()) return player.status();
  if (!player->has_value()) {
    return absl::NotFoundError(absl::StrCat("players/", player_id, " does not exist"));
  }
  MemberRow row;
  row.ladder_id = *ladder_id;
  row.player_id = player_id;
  row.join_time = StoredNow();
  if ((*player)->kind == v1::PlayerAccount::BOT) {
    if (request.rated_vs_bots()) {
      return Invalid("rated_vs_bots", "is a person's choice; a bot account sets accept rules");
    }
    absl::StatusOr<v1::BotAcceptRules> rules =
        NormalizedAcceptRules(request.accept(), request.has_accept());
    if (!rules.ok()) return rules.status();
    row.accept = rules->SerializeAsString();
  } else {
    if (request.has_accept()) return Invalid("accept", "only a bot account has accept rules");
    row.rated_vs_bots = request.rated_vs_bots();
  }
  absl::StatusOr<MemberRow> stored = store_.UpsertMember(row);
  if (!stored.ok()) return stored.status();
  return MemberToProto(*stored);
}

absl::StatusOr<v1::ListLadderStandingsResponse> LadderLogic::ListLadderStandings(
    const v1::ListLadderStandingsRequest& request) {
  absl::StatusOr<std::string> ladder_id = LadderId(request.ladder(), "ladder");
  if (!ladder_id.ok()) return ladder_id.status();
  absl::StatusOr<int> page_size = validation::PageSize(request.page_size());
  if (!page_size.ok()) return page_size.status();
  if (absl::Status s = validation::CheckOptionalId("page_token", request.page_token(),
                                                   validation::kMaxPageTokenBytes);
      !s.ok()) {
    return s;
  }
  const std::vector<std::string> identity = {"standings", *ladder_id};
  absl::StatusOr<std::optional<std::vector<std::string>>> cursor =
      page_tokens_.DecodeCursor(request.page_token(), identity, 1);
  if (!cursor.ok()) return cursor.status();
  int offset = 0;
  if (cursor->has_value() && (!absl::SimpleAtoi((**cursor)[0], &offset) || offset < 0)) {
    return Invalid("page_token", "is not a page token of this list");
  }
  absl::StatusOr<v1::Ladder> ladder = LoadLadder(*ladder_id);
  if (!ladder.ok()) return ladder.status();
  if (options_.ratings == nullptr) {
    return absl::UnavailableError("no ratings service is configured");
  }
  absl::StatusOr<std::vector<MemberRow>> members = store_.Members(*ladder_id);
  if (!members.ok()) return members.status();

  std::vector<v1::LadderStanding> lines;
  std::vector<std::string> ids;
  for (const MemberRow& m : *members) {
    v1::LadderStanding& line = lines.emplace_back();
    line.set_player(absl::StrCat("players/", m.player_id));
    line.set_display_name(m.display_name);
    line.set_kind(static_cast<v1::PlayerAccount::Kind>(m.kind));
    ids.push_back(m.player_id);
  }
  for (const v1::HouseBot& bot : ladder->house_bots()) {
    v1::LadderStanding& line = lines.emplace_back();
    line.set_player(HouseBotName(*ladder_id, bot.bot_id()));
    line.set_display_name(bot.display_name());
    line.set_kind(v1::PlayerAccount::BOT);
    line.set_house_bot(true);
    ids.push_back(bot.rating_id());
  }
  absl::StatusOr<std::vector<v1::Rating>> ratings = options_.ratings->Get(ladder->game(), ids);
  if (!ratings.ok()) {
    return absl::UnavailableError(
        absl::StrCat("the ratings service is out of reach: ", ratings.status().message()));
  }
  if (ratings->size() != lines.size()) {
    return absl::InternalError("the ratings service answered for other players");
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    const v1::Rating& r = (*ratings)[i];
    lines[i].set_mu(r.mu());
    lines[i].set_sigma(r.sigma());
    lines[i].set_ordinal(r.ordinal());
    lines[i].set_games_played(r.games_played());
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const v1::LadderStanding& a, const v1::LadderStanding& b) {
                     if (a.ordinal() != b.ordinal()) return a.ordinal() > b.ordinal();
                     return a.player() < b.player();
                   });
  const int size = *page_size;
  v1::ListLadderStandingsResponse response;
  for (int i = offset; i < static_cast<int>(lines.size()) && i < offset + size; ++i) {
    lines[i].set_rank(i + 1);
    *response.add_standings() = lines[i];
  }
  if (offset + size < static_cast<int>(lines.size())) {
    std::vector<std::string> parts = identity;
    parts.push_back(absl::StrCat(offset + size));
    response.set_next_page_token(page_tokens_.Encode(parts));
  }
  return response;
}

absl::StatusOr<v1::Challenge> LadderLogic::CreateChallenge(
    const Token& token, const v1::CreateChallengeRequest& request) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> ladder_id = LadderId(request.ladder(), "ladder");
  if (!ladder_id.ok()) return ladder_id.status();
  const bool to_pool = request.opponent() == PoolName(*ladder_id);
  absl::StatusOr<std::pair<std::string, std::string>> opponent =
      to_pool ? std::make_pair(std::string(), std::string())
              : OpponentOf(request.opponent(), *ladder_id);
  if (!opponent.ok()) return opponent.status();
  if (absl::Status s = validation::CheckOptionalId("request_id", request.request_id(),
                                                   validation::kMaxRequestIdBytes);
      !s.ok()) {
    return s;
  }
  std::string challenger_id;
  if (request.challenger().empty()) {
    if (!caller->has_value()) return Invalid("challenger", "the operator must name the challenger");
    challenger_id = **caller;
  } else {
    if (absl::StartsWith(request.challenger(), "ladders/")) {
      return Invalid("challenger", "a house bot does not challenge; it is challenged");
    }
    absl::StatusOr<std::string> named = ParseName(request.challenger(), "players", "challenger");
    if (!named.ok()) return named.status();
    if (caller->has_value() && **caller != *named) {
      return absl::PermissionDeniedError("only the operator may challenge for another player");
    }
    challenger_id = *named;
  }
  if (opponent->first == challenger_id) return Invalid("opponent", "is the challenger");

  absl::StatusOr<v1::Ladder> ladder = LoadLadder(*ladder_id);
  if (!ladder.ok()) return ladder.status();
  // The sides, as the decision sees them.
  auto side_of = [&](const std::string& player_id,
                     absl::string_view role) -> absl::StatusOr<ChallengeSide> {
    absl::StatusOr<std::optional<PlayerRow>> player = players_.GetPlayer(player_id);
    if (!player.ok()) return player.status();
    if (!player->has_value()) {
      return absl::NotFoundError(absl::StrCat(role, ": players/", player_id, " does not exist"));
    }
    absl::StatusOr<std::optional<MemberRow>> member = store_.GetMember(*ladder_id, player_id);
    if (!member.ok()) return member.status();
    if (!member->has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(role, ": players/", player_id,
                                                        " is not a member of ladders/", *ladder_id,
                                                        " (JoinLadder)"));
    }
    ChallengeSide side;
    side.name = absl::StrCat("players/", player_id);
    side.bot = (*player)->kind == v1::PlayerAccount::BOT;
    side.rated_vs_bots = (*member)->rated_vs_bots;
    if (!(*member)->accept.empty()) side.accept.ParseFromString((*member)->accept);
    return side;
  };
  absl::StatusOr<ChallengeSide> challenger = side_of(challenger_id, "challenger");
  if (!challenger.ok()) return challenger.status();
  if (to_pool) return EnterPool(*ladder, *ladder_id, challenger_id, *challenger, request, *caller);
  ChallengeSide opponent_side;
  const v1::HouseBot* house = nullptr;
  std::string opponent_key;
  if (!opponent->second.empty()) {
    house = FindHouseBot(*ladder, opponent->second);
    if (house == nullptr) {
      return absl::NotFoundError(absl::StrCat(
          "opponent: ", HouseBotName(*ladder_id, opponent->second), " does not exist"));
    }
    opponent_side.name = HouseBotName(*ladder_id, house->bot_id());
    opponent_side.bot = opponent_side.house = true;
    opponent_key = house->rating_id();
  } else {
    absl::StatusOr<ChallengeSide> side = side_of(opponent->first, "opponent");
    if (!side.ok()) return side.status();
    opponent_side = *std::move(side);
    opponent_key = opponent->first;
  }
  if (options_.skills != nullptr) {
    challenger->skill = options_.skills->Ratings(ladder->game(), {challenger_id})[challenger_id].mu;
  } else {
    challenger->skill = ratings::SkillRating().mu;
  }

  ChallengeRow row;
  row.challenge_id = absl::BytesToHexString(RandomBytes(8));
  row.ladder_id = *ladder_id;
  row.challenger = challenger_id;
  row.opponent = opponent_key;
  row.rated = request.rated();
  row.bot_vs_bot = challenger->bot && opponent_side.bot;
  row.creator = caller->has_value() ? **caller : std::string("operator");
  row.request_id = request.request_id();
  row.request_digest = Digest(request, challenger_id);
  row.create_time = row.update_time = StoredNow();
  absl::StatusOr<std::pair<ChallengeRow, bool>> stored = store_.CreateChallenge(
      row, [&](const ChallengeCounts& counts, ChallengeRow& r) -> absl::Status {
        ChallengeSide c = *challenger;
        ChallengeSide o = opponent_side;
        c.bot_games_last_day = counts.challenger_bot_games_last_day;
        o.active_matches = counts.opponent_active;
        absl::StatusOr<ChallengeDecision> decision = DecideChallenge(*ladder, r.rated, c, o);
        if (!decision.ok()) return decision.status();
        r.state = decision->state;
        r.decline_reason = decision->reason;
        return SetMatchRequest(
            *ladder, SeatOf{challenger_id, !c.bot},
            SeatOf{house != nullptr ? std::string() : opponent->first, !o.bot, house}, r);
      });
  if (!stored.ok()) return stored.status();
  auto [challenge, repeat] = *std::move(stored);
  if (repeat) {
    if (challenge.request_digest != row.request_digest) {
      return absl::AlreadyExistsError(
          "request_id: used before for another challenge (a different ladder, opponent, rated "
          "or challenger)");
    }
  } else {
    Changed();
  }
  if (challenge.state == kChallengeAccepted && challenge.match_name.empty()) {
    absl::StatusOr<ChallengeRow> created = CreateMatch(challenge);
    // Without execution the challenge stands ACCEPTED; AcceptChallenge creates its match later.
    if (created.ok()) challenge = *std::move(created);
  }
  return ToProto(challenge, caller->has_value() ? *caller : std::optional<std::string>());
}

absl::StatusOr<v1::Challenge> LadderLogic::EnterPool(const v1::Ladder& ladder,
                                                     const std::string& ladder_id,
                                                     const std::string& challenger_id,
                                                     const ChallengeSide& challenger,
                                                     const v1::CreateChallengeRequest& request,
                                                     const std::optional<std::string>& caller) {
  if (!ladder.has_pool_wait()) {
    return absl::FailedPreconditionError(
        absl::StrCat("opponent: ladders/", ladder_id, " has no pool (Ladder.pool_wait is unset)"));
  }
  if (challenger.bot) {
    return absl::FailedPreconditionError(
        absl::StrCat("opponent: the pool is for people; ", challenger.name,
                     " is a bot account, which members challenge"));
  }
  ChallengeRow row;
  row.challenge_id = absl::BytesToHexString(RandomBytes(8));
  row.ladder_id = ladder_id;
  row.challenger = challenger_id;
  row.opponent = PoolKey(ladder_id);
  row.rated = request.rated();
  row.state = kChallengeOffered;
  row.creator = caller.has_value() ? *caller : std::string("operator");
  row.request_id = request.request_id();
  row.request_digest = Digest(request, challenger_id);
  row.create_time = row.update_time = StoredNow();
  // Whoever waited longest for the same kind of game plays the newcomer.
  absl::StatusOr<std::pair<ChallengeRow, bool>> stored =
      store_.JoinPool(row, [&](ChallengeRow& waiting) -> absl::Status {
        waiting.opponent = challenger_id;
        waiting.state = kChallengeAccepted;
        return SetMatchRequest(ladder, SeatOf{waiting.challenger, true},
                               SeatOf{challenger_id, true}, waiting);
      });
  if (!stored.ok()) return stored.status();
  auto [challenge, repeat] = *std::move(stored);
  if (repeat && challenge.request_digest != row.request_digest) {
    return absl::AlreadyExistsError(
        "request_id: used before for another challenge (a different ladder, opponent, rated or "
        "challenger)");
  }
  if (!repeat) Changed();
  if (challenge.state == kChallengeAccepted && challenge.match_name.empty()) {
    absl::StatusOr<ChallengeRow> created = CreateMatch(challenge);
    if (created.ok()) challenge = *std::move(created);
  }
  return ToProto(challenge, caller);
}

absl::Status LadderLogic::FillPools(absl::Time now) {
  absl::StatusOr<std::vector<ChallengeRow>> waiting = store_.WaitingInPools();
  if (!waiting.ok()) return waiting.status();
  std::map<std::string, absl::StatusOr<v1::Ladder>> ladders;
  for (const ChallengeRow& entry : *waiting) {
    auto [it, added] = ladders.try_emplace(entry.ladder_id, absl::UnknownError("unread"));
    if (added) it->second = LoadLadder(entry.ladder_id);
    if (!it->second.ok()) continue;
    const v1::Ladder& ladder = *it->second;
    if (!ladder.has_pool_wait() || ladder.house_bots().empty()) continue;  // people only
    if (now - entry.create_time < FromDuration(ladder.pool_wait())) continue;
    std::vector<std::string> ids = {entry.challenger};
    for (const v1::HouseBot& bot : ladder.house_bots()) ids.push_back(bot.rating_id());
    std::map<std::string, ratings::SkillRating> skills;
    if (options_.skills != nullptr) skills = options_.skills->Ratings(ladder.game(), ids);
    auto skill_of = [&](const std::string& id) {
      auto found = skills.find(id);
      return found == skills.end() ? ratings::SkillRating().mu : found->second.mu;
    };
    std::vector<double> bot_skills;
    for (const v1::HouseBot& bot : ladder.house_bots()) {
      bot_skills.push_back(skill_of(bot.rating_id()));
    }
    const v1::HouseBot* bot = NearestHouseBot(ladder, skill_of(entry.challenger), bot_skills);
    absl::StatusOr<std::optional<MemberRow>> member =
        store_.GetMember(entry.ladder_id, entry.challenger);
    if (!member.ok() || !member->has_value() || bot == nullptr) continue;
    const bool opted_in = (*member)->rated_vs_bots;
    absl::StatusOr<ChallengeRow> filled =
        store_.ChangeChallenge(entry.challenge_id, now, [&](ChallengeRow& r) -> absl::Status {
          if (r.state != kChallengeOffered || r.opponent != PoolKey(r.ladder_id)) {
            return absl::FailedPreconditionError("no longer waiting");  // paired or withdrawn
          }
          r.opponent = bot->rating_id();
          r.rated = r.rated && opted_in;  // rated against a bot only for those who opted in
          r.state = kChallengeAccepted;
          return SetMatchRequest(ladder, SeatOf{r.challenger, true}, SeatOf{"", false, bot}, r);
        });
    if (!filled.ok()) continue;
    Changed();
    // Without execution the challenge stands ACCEPTED; AcceptChallenge creates its match later.
    (void)CreateMatch(*filled);
  }
  return absl::OkStatus();
}

absl::StatusOr<ChallengeRow> LadderLogic::CreateMatch(ChallengeRow row) {
  if (!row.match_name.empty()) return row;
  if (options_.creator == nullptr) {
    return absl::UnavailableError("no execution service is configured to create the match");
  }
  v1::CreateMatchRequest request;
  if (!request.ParseFromString(row.match_request)) {
    return absl::InternalError(
        absl::StrCat("challenges/", row.challenge_id, ": its stored match request does not parse"));
  }
  absl::StatusOr<CreatedMatch> created = options_.creator->CreateMatch(request);
  if (!created.ok()) {
    return absl::UnavailableError(
        absl::StrCat("the match could not be created yet (", created.status().message(),
                     "); the challenge stays ACCEPTED: AcceptChallenge again to retry"));
  }
  const std::string target = options_.creator->target();
  absl::StatusOr<ChallengeRow> stored =
      store_.ChangeChallenge(row.challenge_id, StoredNow(), [&](ChallengeRow& r) {
        if (!r.match_name.empty()) return absl::OkStatus();  // recorded by a retry already
        r.match_name = created->name;
        r.execution_target = target;
        r.seat_tokens = created->seat_tokens;
        r.seat_tokens.resize(r.seat_players.size());
        return absl::OkStatus();
      });
  if (stored.ok()) Changed();
  return stored;
}

absl::StatusOr<ChallengeRow> LadderLogic::LoadChallenge(const std::string& name, const Token& token,
                                                        std::optional<std::string>& caller) {
  absl::StatusOr<std::optional<std::string>> who = Caller(token);
  if (!who.ok()) return who.status();
  caller = *who;
  absl::StatusOr<std::string> id = ParseName(name, "challenges", "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<ChallengeRow>> row = store_.GetChallenge(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return absl::NotFoundError(absl::StrCat(name, " does not exist"));
  if (caller.has_value() && (*row)->challenger != *caller && (*row)->opponent != *caller) {
    return absl::PermissionDeniedError(absl::StrCat(name, " is not yours"));
  }
  return **std::move(row);
}

absl::StatusOr<v1::Challenge> LadderLogic::GetChallenge(const Token& token,
                                                        const v1::GetChallengeRequest& request) {
  std::optional<std::string> caller;
  absl::StatusOr<ChallengeRow> row = LoadChallenge(request.name(), token, caller);
  if (!row.ok()) return row.status();
  return ToProto(*row, caller);
}

absl::StatusOr<v1::Challenge> LadderLogic::AcceptChallenge(
    const Token& token, const v1::AcceptChallengeRequest& request) {
  std::optional<std::string> caller;
  absl::StatusOr<ChallengeRow> row = LoadChallenge(request.name(), token, caller);
  if (!row.ok()) return row.status();
  if (row->state == kChallengeOffered && row->opponent == PoolKey(row->ladder_id)) {
    return absl::FailedPreconditionError(
        absl::StrCat(request.name(),
                     " waits in the pool: whoever enters it next, or a house bot "
                     "after the ladder's pool_wait, plays it"));
  }
  if (row->state == kChallengeOffered) {
    if (caller.has_value() && *caller != row->opponent) {
      return absl::PermissionDeniedError(
          absl::StrCat(request.name(), ": only its opponent accepts a challenge"));
    }
    absl::StatusOr<ChallengeRow> changed =
        store_.ChangeChallenge(row->challenge_id, StoredNow(), [](ChallengeRow& r) {
          if (r.state != kChallengeOffered) {
            return absl::FailedPreconditionError("the challenge was answered meanwhile");
          }
          r.state = kChallengeAccepted;
          return absl::OkStatus();
        });
    if (!changed.ok()) return changed.status();
    Changed();
    row = *std::move(changed);
  } else if (row->state != kChallengeAccepted) {
    return absl::FailedPreconditionError(
        absl::StrCat(request.name(), " is ", v1::Challenge::State_Name(row->state),
                     "; only an OFFERED challenge can be accepted"));
  }
  absl::StatusOr<ChallengeRow> created = CreateMatch(*row);
  if (!created.ok()) return created.status();
  return ToProto(*created, caller);
}

absl::StatusOr<v1::Challenge> LadderLogic::DeclineChallenge(
    const Token& token, const v1::DeclineChallengeRequest& request) {
  if (absl::Status s =
          validation::CheckTextChars("reason", request.reason(), kMaxDeclineReasonChars);
      !s.ok()) {
    return s;
  }
  std::optional<std::string> caller;
  absl::StatusOr<ChallengeRow> row = LoadChallenge(request.name(), token, caller);
  if (!row.ok()) return row.status();
  // The operator may also end an ACCEPTED challenge whose match will never report (aborted).
  const bool by_operator = !caller.has_value();
  const bool by_challenger = caller.has_value() && *caller == row->challenger;
  absl::StatusOr<ChallengeRow> changed =
      store_.ChangeChallenge(row->challenge_id, StoredNow(), [&](ChallengeRow& r) {
        const bool open =
            r.state == kChallengeOffered || (by_operator && r.state == kChallengeAccepted);
        if (!open) {
          return absl::FailedPreconditionError(
              absl::StrCat(request.name(), " is ", v1::Challenge::State_Name(r.state),
                           "; only an OFFERED challenge can be declined"));
        }
        r.state = by_challenger || by_operator ? kChallengeCancelled : kChallengeDeclined;
        r.decline_reason = request.reason();
        return absl::OkStatus();
      });
  if (!changed.ok()) return changed.status();
  Changed();
  return ToProto(*changed, caller);
}

absl::StatusOr<std::string> LadderLogic::Watcher(const Token& token) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  if (!caller->has_value()) {
    return absl::PermissionDeniedError("WatchEvents is a player's stream: use a player's token");
  }
  return **caller;
}

absl::Status LadderLogic::ReadEvents(const std::string& player, bool open_only, Batch& batch) {
  absl::StatusOr<std::vector<ChallengeRow>> rows =
      store_.Events(player, batch.sequence, open_only, kEventBatch);
  if (!rows.ok()) return rows.status();
  for (const ChallengeRow& row : *rows) {
    *batch.events.emplace_back().mutable_challenge() = ToProto(row, player);
    // The open ones may be numbered anywhere: the stream goes on from the clock read before.
    if (!open_only) batch.sequence = std::max(batch.sequence, row.sequence);
  }
  batch.more = !open_only && static_cast<int>(rows->size()) >= kEventBatch;
  return absl::OkStatus();
}

absl::StatusOr<LadderLogic::Batch> LadderLogic::FirstEvents(const std::string& player,
                                                            int64_t after) {
  if (after < 0) return Invalid("after_sequence", absl::StrCat(after, " is negative"));
  Batch batch;
  batch.sequence = after;
  if (after == 0) {
    // Read first: a change after it is sent again by the next read, never missed.
    absl::StatusOr<int64_t> latest = store_.LatestSequence();
    if (!latest.ok()) return latest.status();
    batch.sequence = *latest;
  }
  if (absl::Status s = ReadEvents(player, /*open_only=*/after == 0, batch); !s.ok()) return s;
  return batch;
}

absl::StatusOr<LadderLogic::Batch> LadderLogic::EventsAfter(const std::string& player,
                                                            int64_t after) {
  Batch batch;
  batch.sequence = after;
  if (absl::Status s = ReadEvents(player, /*open_only=*/false, batch); !s.ok()) return s;
  return batch;
}

absl::StatusOr<LadderLogic::WatchedEvents> LadderLogic::ReadWatched(
    const std::vector<std::string>& players, const std::vector<int64_t>& after, int limit) {
  absl::StatusOr<PgLadderStore::WatchedChanges> changes = store_.ChangesOf(players, after, limit);
  if (!changes.ok()) return changes.status();
  WatchedEvents out;
  out.latest = changes->latest;
  out.truncated = changes->truncated;
  for (const auto& [player, row] : changes->rows) {
    WatchedEvent& event = out.events.emplace_back();
    event.player = player;
    event.sequence = row.sequence;
    *event.event.mutable_challenge() = ToProto(row, player);
  }
  return out;
}

absl::StatusOr<std::optional<std::string>> LadderLogic::RecordGameResult(
    const std::string& match_name, const std::string& result, absl::Time end_time) {
  absl::StatusOr<std::optional<std::string>> id = store_.ChallengeOfMatch(match_name);
  if (!id.ok()) return id.status();
  if (!id->has_value()) return absl::NotFoundError("no ladder challenge led to this match");
  std::optional<std::string> before;
  absl::StatusOr<ChallengeRow> changed =
      store_.ChangeChallenge(**id, StoredNow(), [&](ChallengeRow& r) {
        if (!r.result.empty()) {
          before = r.result;
          return absl::OkStatus();
        }
        r.state = kChallengeFinished;
        r.result = result;
        r.end_time = absl::FromUnixMicros(absl::ToUnixMicros(end_time));
        return absl::OkStatus();
      });
  if (!changed.ok()) return changed.status();
  Changed();
  return before;
}

v1::Challenge LadderLogic::ToProto(const ChallengeRow& row,
                                   const std::optional<std::string>& viewer) const {
  v1::Challenge out;
  out.set_name(absl::StrCat("challenges/", row.challenge_id));
  out.set_ladder(absl::StrCat("ladders/", row.ladder_id));
  out.set_challenger(absl::StrCat("players/", row.challenger));
  out.set_opponent(OpponentName(row.opponent));
  out.set_rated(row.rated);
  out.set_state(static_cast<v1::Challenge::State>(row.state));
  out.set_decline_reason(row.decline_reason);
  out.set_match(row.match_name);
  out.set_execution_target(row.execution_target);
  if (!row.match_name.empty()) {
    const std::string mine = viewer.has_value() ? absl::StrCat("players/", *viewer) : "";
    for (size_t seat = 0; seat < row.seat_players.size(); ++seat) {
      v1::ChallengeSeat& s = *out.add_seats();
      s.set_player(row.seat_players[seat]);
      s.set_seat(static_cast<int>(seat));
      if (!mine.empty() && row.seat_players[seat] == mine && seat < row.seat_tokens.size()) {
        s.set_seat_token(row.seat_tokens[seat]);
      }
    }
  }
  if (!row.result.empty()) out.mutable_result()->ParseFromString(row.result);
  out.set_sequence(row.sequence);
  *out.mutable_create_time() = ToTimestamp(row.create_time);
  *out.mutable_update_time() = ToTimestamp(row.update_time);
  return out;
}

}  // namespace boneyard::matchmaking
