#include "services/matchmaking/tournament_logic.h"

#include <algorithm>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/bots/bot.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/tournament/trf.h"
#include "services/matchmaking/tournament_arena.h"
#include "services/matchmaking/tournament_league.h"
#include "services/matchmaking/tournament_plan.h"
#include "services/matchmaking/tournament_tables.h"

namespace boneyard::matchmaking {
namespace {

// A tournament's id, when the operator chooses one, goes into paths and URLs
// ("tournaments/{id}", /tournaments/{id} on the web): letters, digits, '-' and '_' only.
absl::Status CheckNewTournamentId(const std::string& id) {
  if (id.empty()) return absl::OkStatus();
  return validation::CheckResourceId("tournament_id", id);
}

// The largest TRF file ImportTournament reads: 1,024 entrants of 99 rounds need about 1.1 MB.
constexpr size_t kMaxTrfBytes = 2 << 20;
// The most half-point byes an entrant may ask for.
constexpr int kMaxByeRounds = kMaxSwissRounds;

absl::StatusOr<std::string> TournamentId(absl::string_view name, absl::string_view field) {
  return ParseName(name, "tournaments", field);
}

// "tournaments/{id}/{collection}/{n}" -> (id, n).
absl::StatusOr<std::pair<std::string, int>> ChildName(absl::string_view name,
                                                      absl::string_view collection,
                                                      absl::string_view field) {
  const std::vector<absl::string_view> parts = absl::StrSplit(name, '/');
  int n = 0;
  if (parts.size() != 4 || parts[0] != "tournaments" || parts[2] != collection ||
      !absl::SimpleAtoi(parts[3], &n) || n < 1 || absl::StrCat(n) != parts[3] ||
      !validation::CheckId(field, parts[1]).ok()) {
    return Invalid(field, absl::StrCat(validation::Quote(name),
                                       " is not of the form "
                                       "\"tournaments/{id}/",
                                       collection, "/{number}\""));
  }
  return std::make_pair(std::string(parts[1]), n);
}

absl::Status CheckBot(absl::string_view field, const std::string& game, const v1::Bot& bot) {
  if (absl::Status s = validation::CheckId(absl::StrCat(field, ".kind"), bot.kind()); !s.ok()) {
    return s;
  }
  const std::vector<std::string> kinds = DefaultBots().BotsFor(game);
  if (std::find(kinds.begin(), kinds.end(), bot.kind()) == kinds.end()) {
    return Invalid(absl::StrCat(field, ".kind"),
                   absl::StrCat(game, " has no bot ", validation::Quote(bot.kind())));
  }
  if (absl::Status s = DefaultBots().CheckLevel(game, bot.kind(), bot.level()); !s.ok()) {
    return Invalid(absl::StrCat(field, ".level"), s.message());
  }
  return absl::OkStatus();
}

// A numbered list's cursor (entrants, rounds): 0 for the first page. The cursor is ours
// (signed), so anything else was not issued for this list.
absl::StatusOr<int> AfterNumber(const std::string& after) {
  int number = 0;
  if (!after.empty() && !absl::SimpleAtoi(after, &number)) {
    return Invalid("page_token", "is not a page token of this list");
  }
  return number;
}

absl::StatusOr<v1::Tournament> Resource(const TournamentData& data) {
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  return TournamentOf(data.tournament, *settings);
}

}  // namespace

TournamentLogic::TournamentLogic(PgMatchmakingStore& players, PgTournamentStore& store,
                                 TournamentOptions options)
    : players_(players),
      store_(store),
      options_(std::move(options)),
      auth_(AuthConfig{options_.operator_token, {}}),
      page_tokens_(PageTokenKey(options_.operator_token)) {}

absl::StatusOr<std::optional<std::string>> TournamentLogic::Viewer(const Token& token) {
  if (!token.has_value() || token->empty()) return std::optional<std::string>();
  if (auth_.Classify(token) == Authenticator::Role::kOperator) {
    return std::optional<std::string>();
  }
  absl::StatusOr<std::optional<std::string>> player =
      players_.PlayerWithTokenHash(TokenHash(*token));
  if (!player.ok()) return player.status();
  if (!player->has_value()) return absl::UnauthenticatedError("unknown token");
  return player;
}

absl::Status TournamentLogic::RequireOperator(const Token& token) {
  return RequireOperatorToken(auth_, players_, token);
}

absl::StatusOr<std::optional<std::string>> TournamentLogic::Caller(const Token& token) {
  return CallingPlayer(auth_, players_, token);
}

absl::StatusOr<TournamentLogic::ListPage> TournamentLogic::OpenPage(
    int page_size, int default_size, int max_size, const std::string& page_token,
    std::vector<std::string> identity) const {
  if (page_size < 0) return Invalid("page_size", absl::StrCat(page_size, " is negative"));
  if (absl::Status s =
          validation::CheckOptionalId("page_token", page_token, validation::kMaxPageTokenBytes);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::optional<std::vector<std::string>>> cursor =
      page_tokens_.DecodeCursor(page_token, identity, 1);
  if (!cursor.ok()) return cursor.status();
  return ListPage{.size = page_size == 0 ? default_size : std::min(page_size, max_size),
                  .after = cursor->has_value() ? (**cursor)[0] : std::string(),
                  .identity = std::move(identity)};
}

std::string TournamentLogic::NextPageToken(const ListPage& page, const std::string& last) const {
  std::vector<std::string> parts = page.identity;
  parts.push_back(last);
  return page_tokens_.Encode(parts);
}

absl::StatusOr<TournamentData> TournamentLogic::Load(const std::string& id) {
  absl::StatusOr<TournamentData> data = store_.Load(id);
  if (absl::IsNotFound(data.status())) {
    return absl::NotFoundError(absl::StrCat("tournaments/", id, " does not exist"));
  }
  return data;
}

absl::StatusOr<TournamentData> TournamentLogic::Change(const std::string& id,
                                                       const PgTournamentStore::Decide& d) {
  absl::StatusOr<TournamentData> data = store_.Change(id, d);
  if (absl::IsNotFound(data.status()) && data.status().message() == "no such tournament") {
    return absl::NotFoundError(absl::StrCat("tournaments/", id, " does not exist"));
  }
  return data;
}

absl::StatusOr<v1::Tournament> TournamentLogic::CreateTournament(
    const Token& token, const v1::CreateTournamentRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  if (absl::Status s = CheckNewTournamentId(request.tournament_id()); !s.ok()) return s;
  if (absl::Status s = CheckTournamentSettings(request.tournament()); !s.ok()) return s;
  v1::Tournament settings = NormalizedSettings(request.tournament());
  const std::string id = request.tournament_id().empty() ? absl::BytesToHexString(RandomBytes(8))
                                                         : request.tournament_id();
  TournamentRow row;
  row.tournament_id = id;
  row.game = settings.game();
  row.state = kTournamentRegistration;
  row.create_time = StoredNow();
  if (settings.duplicate()) row.deal_secret = NewSecretToken();
  if (settings.has_league() && !settings.league().previous_season().empty()) {
    // The next season: the previous one's entrants registered now, in their new order.
    absl::StatusOr<std::vector<EntrantRow>> carried = NextSeason(settings, row.create_time);
    if (!carried.ok()) return carried.status();
    settings.mutable_league()->set_carried_entrants(static_cast<int>(carried->size()));
    row.settings = settings.SerializeAsString();
    if (absl::Status s = store_.InsertImported(row, *carried, TournamentChanges{}); !s.ok()) {
      return s;
    }
    row.entrant_count = static_cast<int>(carried->size());
    return TournamentOf(row, settings);
  }
  row.settings = settings.SerializeAsString();
  if (absl::Status s = store_.InsertTournament(row); !s.ok()) return s;
  return TournamentOf(row, settings);
}

absl::StatusOr<std::vector<EntrantRow>> TournamentLogic::NextSeason(
    const v1::Tournament& settings, absl::Time now) {
  constexpr absl::string_view kField = "tournament.league.previous_season";
  absl::StatusOr<std::string> previous_id =
      TournamentId(settings.league().previous_season(), std::string(kField));
  if (!previous_id.ok()) return previous_id.status();
  absl::StatusOr<TournamentData> previous = Load(*previous_id);
  if (!previous.ok()) return previous.status();
  absl::StatusOr<v1::Tournament> before = SettingsOf(previous->tournament);
  if (!before.ok()) return before.status();
  if (!IsLeague(*before) || before->game() != settings.game() ||
      before->team_size() != settings.team_size()) {
    return Invalid(kField, "is not a league of this game and team size");
  }
  if (previous->tournament.state != kTournamentFinished) {
    return absl::FailedPreconditionError(
        absl::StrCat(kField, ": ", settings.league().previous_season(), " has not finished"));
  }
  absl::StatusOr<std::vector<EntrantRow>> carried =
      NextSeasonEntrants(*previous, settings.league().promotion(), now);
  if (!carried.ok()) return carried.status();
  if (static_cast<int>(carried->size()) > settings.max_entrants()) {
    return Invalid("tournament.max_entrants", "is below the previous season's entrants");
  }
  return carried;
}

absl::StatusOr<v1::Tournament> TournamentLogic::GetTournament(
    const v1::GetTournamentRequest& request) {
  absl::StatusOr<std::string> id = TournamentId(request.name(), "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<TournamentRow>> row = store_.GetTournament(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value())
    return absl::NotFoundError(absl::StrCat(request.name(), " does not exist"));
  absl::StatusOr<v1::Tournament> settings = SettingsOf(**row);
  if (!settings.ok()) return settings.status();
  return TournamentOf(**row, *settings);
}

absl::StatusOr<v1::ListTournamentsResponse> TournamentLogic::ListTournaments(
    const v1::ListTournamentsRequest& request) {
  if (absl::Status s = validation::CheckEnum("state", request.state()); !s.ok()) return s;
  absl::StatusOr<ListPage> page = OpenPage(request.page_size(), 50, 100, request.page_token(),
                                           {"tournaments", absl::StrCat(request.state())});
  if (!page.ok()) return page.status();
  // One more than the page: whether there is a next page.
  absl::StatusOr<std::vector<TournamentRow>> rows =
      store_.ListTournaments(request.state(), page->after, page->size + 1);
  if (!rows.ok()) return rows.status();
  v1::ListTournamentsResponse response;
  for (int i = 0; i < std::min<int>(page->size, rows->size()); ++i) {
    absl::StatusOr<v1::Tournament> settings = SettingsOf((*rows)[i]);
    if (!settings.ok()) return settings.status();
    *response.add_tournaments() = TournamentOf((*rows)[i], *settings);
  }
  if (static_cast<int>(rows->size()) > page->size) {
    response.set_next_page_token(NextPageToken(*page, (*rows)[page->size - 1].tournament_id));
  }
  return response;
}

absl::StatusOr<v1::Entrant> TournamentLogic::Register(const std::string& tournament,
                                                      EntrantRow entrant, bool as_team,
                                                      absl::string_view players_field) {
  absl::StatusOr<std::string> id = TournamentId(tournament, "tournament");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<TournamentRow>> row = store_.GetTournament(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return absl::NotFoundError(absl::StrCat(tournament, " does not exist"));
  absl::StatusOr<v1::Tournament> settings = SettingsOf(**row);
  if (!settings.ok()) return settings.status();
  if (settings->has_registration_close_time() &&
      absl::Now() >= FromTimestamp(settings->registration_close_time())) {
    return absl::FailedPreconditionError("registration is closed");
  }
  // Open until its close time, a Swiss takes late entries after its start too; an arena takes
  // them until its window closes.
  const std::optional<absl::Time> arena_close = ArenaCloseTime(**row, *settings);
  if (arena_close && absl::Now() >= *arena_close) {
    return absl::FailedPreconditionError("registration is closed: the arena's time is up");
  }
  const bool late =
      IsArena(*settings) ||
      (settings->format() == v1::Tournament::SWISS && settings->has_registration_close_time());
  if (as_team != (settings->team_size() > 1)) {
    return settings->team_size() == 1
               ? Invalid("tournament", "is for single players; use RegisterPlayer")
               : Invalid("tournament", absl::StrCat("is for teams of ", settings->team_size(),
                                                    "; use RegisterTeam"));
  }
  const size_t size = entrant.players.size();
  if (as_team && size > 0 && size != static_cast<size_t>(settings->team_size())) {
    return Invalid(players_field,
                   absl::StrCat("a team here has ", settings->team_size(), " players, not ", size));
  }
  if (!entrant.bot.empty()) {
    v1::Bot bot;
    bot.ParseFromString(entrant.bot);
    if (absl::Status s = CheckBot("bot", settings->game(), bot); !s.ok()) return s;
  }
  for (int r : entrant.bye_rounds) {
    if (settings->format() != v1::Tournament::SWISS || AtTables(*settings)) {
      return Invalid("bye_rounds", "half-point byes are for two-sided SWISS events");
    }
    if (r < 1 || r > settings->rounds()) {
      return Invalid("bye_rounds",
                     absl::StrCat(r, " is not a round of the event (1-", settings->rounds(), ")"));
    }
  }
  // Names and ratings of the players, who must exist.
  std::vector<std::string> names;
  for (const std::string& player : entrant.players) {
    absl::StatusOr<std::optional<PlayerRow>> p = players_.GetPlayer(player);
    if (!p.ok()) return p.status();
    if (!p->has_value())
      return absl::NotFoundError(absl::StrCat("players/", player, " does not exist"));
    names.push_back((*p)->display_name);
  }
  if (!entrant.players.empty()) {
    entrant.display_name = absl::StrJoin(names, " & ");
    if (options_.ratings != nullptr) {
      const auto ratings = options_.ratings->Ratings(settings->game(), entrant.players);
      double sum = 0;
      for (const std::string& player : entrant.players) {
        auto it = ratings.find(player);
        sum += it == ratings.end() ? ratings::SkillRating{}.mu : it->second.mu;
      }
      entrant.rating = sum / entrant.players.size();
    }
  }
  absl::StatusOr<EntrantRow> stored =
      store_.InsertEntrant(*id, std::move(entrant), settings->max_entrants(), late, StoredNow());
  if (absl::IsNotFound(stored.status())) {
    return absl::NotFoundError(absl::StrCat(tournament, " does not exist"));
  }
  if (!stored.ok()) return stored.status();
  return EntrantOf(*id, *stored);
}

absl::StatusOr<v1::Entrant> TournamentLogic::RegisterPlayer(
    const Token& token, const v1::RegisterPlayerRequest& request) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  if (request.bye_rounds_size() > kMaxByeRounds) return Invalid("bye_rounds", "too many");
  EntrantRow entrant;
  entrant.bye_rounds.assign(request.bye_rounds().begin(), request.bye_rounds().end());
  std::sort(entrant.bye_rounds.begin(), entrant.bye_rounds.end());
  entrant.bye_rounds.erase(std::unique(entrant.bye_rounds.begin(), entrant.bye_rounds.end()),
                           entrant.bye_rounds.end());
  if (request.has_bot()) {
    if (caller->has_value()) {
      return absl::PermissionDeniedError("bot entrants are the operator's");
    }
    if (!request.player_id().empty()) return Invalid("bot", "is set with player_id");
    entrant.bot = request.bot().SerializeAsString();
    entrant.display_name = absl::StrCat(request.bot().kind(), " bot #");
    return Register(request.tournament(), std::move(entrant), /*as_team=*/false);
  }
  std::string player = request.player_id();
  if (player.empty()) {
    if (!caller->has_value()) return Invalid("player_id", "the operator must name the player");
    player = **caller;
  } else {
    if (absl::Status s = validation::CheckId("player_id", player); !s.ok()) return s;
    if (caller->has_value() && **caller != player) {
      return absl::PermissionDeniedError("a player registers only themself");
    }
  }
  entrant.players = {player};
  return Register(request.tournament(), std::move(entrant), /*as_team=*/false);
}

absl::StatusOr<v1::Entrant> TournamentLogic::RegisterTeam(const Token& token,
                                                          const v1::RegisterTeamRequest& request) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  EntrantRow entrant;
  const int set = (request.player_ids_size() > 0) + !request.party().empty() + request.has_bot();
  if (set != 1) return Invalid("player_ids", "set exactly one of player_ids, party, bot");
  if (request.has_bot()) {
    if (caller->has_value()) return absl::PermissionDeniedError("bot entrants are the operator's");
    entrant.bot = request.bot().SerializeAsString();
    entrant.display_name = absl::StrCat(request.bot().kind(), " bots #");
    return Register(request.tournament(), std::move(entrant), /*as_team=*/true);
  }
  if (!request.party().empty()) {
    absl::StatusOr<std::string> party = ParseName(request.party(), "parties", "party");
    if (!party.ok()) return party.status();
    absl::StatusOr<std::optional<PartyRow>> row = players_.GetParty(*party);
    if (!row.ok()) return row.status();
    if (!row->has_value())
      return absl::NotFoundError(absl::StrCat(request.party(), " does not exist"));
    if (caller->has_value() && (*row)->leader != **caller) {
      return absl::PermissionDeniedError("only the party's leader registers it");
    }
    entrant.players = (*row)->members;
  } else {
    if (caller->has_value()) {
      return absl::PermissionDeniedError("a player registers a team as the party they lead");
    }
    if (request.player_ids_size() > 8) return Invalid("player_ids", "too many players");
    for (int i = 0; i < request.player_ids_size(); ++i) {
      if (absl::Status s =
              validation::CheckId(absl::StrCat("player_ids[", i, "]"), request.player_ids(i));
          !s.ok()) {
        return s;
      }
      entrant.players.push_back(request.player_ids(i));
    }
    std::vector<std::string> sorted = entrant.players;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      return Invalid("player_ids", "names a player twice");
    }
  }
  return Register(request.tournament(), std::move(entrant), /*as_team=*/true,
                  request.party().empty() ? "player_ids" : "party");
}

absl::StatusOr<v1::Entrant> TournamentLogic::WithdrawPlayer(
    const Token& token, const v1::WithdrawPlayerRequest& request) {
  absl::StatusOr<std::optional<std::string>> caller = Caller(token);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::pair<std::string, int>> name =
      ChildName(request.entrant(), "entrants", "entrant");
  if (!name.ok()) return name.status();
  // Named copies: a lambda may not capture a structured binding before C++20's P1091 (clang).
  const std::string id = name->first;
  const int number = name->second;
  std::optional<EntrantRow> before;
  absl::StatusOr<TournamentData> data =
      Change(id, [&](const TournamentData& d) -> absl::StatusOr<TournamentChanges> {
        for (const EntrantRow& e : d.entrants) {
          if (e.number == number) before = e;
        }
        if (!before) return absl::NotFoundError(absl::StrCat(request.entrant(), " does not exist"));
        if (caller->has_value() && std::find(before->players.begin(), before->players.end(),
                                             **caller) == before->players.end()) {
          return absl::PermissionDeniedError("a player withdraws only their own entry");
        }
        return PlanWithdraw(d, number, caller->value_or("operator"));
      });
  if (!data.ok()) return data.status();
  Changed();
  for (const EntrantRow& e : data->entrants) {
    if (e.number == number) return EntrantOf(id, e);
  }
  v1::Entrant gone = EntrantOf(id, *before);  // removed before the start
  gone.set_withdrawn(true);
  return gone;
}

absl::StatusOr<v1::ListEntrantsResponse> TournamentLogic::ListEntrants(
    const v1::ListEntrantsRequest& request) {
  absl::StatusOr<std::string> id = TournamentId(request.tournament(), "tournament");
  if (!id.ok()) return id.status();
  absl::StatusOr<ListPage> page = OpenPage(request.page_size(), 100, kMaxTournamentEntrants,
                                           request.page_token(), {"entrants", *id});
  if (!page.ok()) return page.status();
  absl::StatusOr<int> after = AfterNumber(page->after);
  if (!after.ok()) return after.status();
  absl::StatusOr<std::optional<TournamentRow>> row = store_.GetTournament(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) {
    return absl::NotFoundError(absl::StrCat(request.tournament(), " does not exist"));
  }
  absl::StatusOr<std::vector<EntrantRow>> rows = store_.ListEntrants(*id, *after, page->size + 1);
  if (!rows.ok()) return rows.status();
  v1::ListEntrantsResponse response;
  for (int i = 0; i < std::min<int>(page->size, rows->size()); ++i) {
    *response.add_entrants() = EntrantOf(*id, (*rows)[i]);
  }
  if (static_cast<int>(rows->size()) > page->size) {
    response.set_next_page_token(
        NextPageToken(*page, absl::StrCat((*rows)[page->size - 1].number)));
  }
  return response;
}

absl::StatusOr<v1::Tournament> TournamentLogic::StartTournament(
    const Token& token, const v1::StartTournamentRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<std::string> id = TournamentId(request.name(), "name");
  if (!id.ok()) return id.status();
  const absl::Time now = StoredNow();
  absl::StatusOr<TournamentData> data = Change(*id, [&](const TournamentData& d) {
    absl::StatusOr<TournamentChanges> c = PlanStart(d, now);
    if (c.ok()) c->audit.push_back({"operator", "start", ""});
    return c;
  });
  if (!data.ok()) return data.status();
  Changed();
  return Resource(*data);
}

absl::StatusOr<v1::Tournament> TournamentLogic::AdvanceTournament(
    const Token& token, const v1::AdvanceTournamentRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<std::string> id = TournamentId(request.name(), "name");
  if (!id.ok()) return id.status();
  const absl::Time now = StoredNow();
  absl::StatusOr<TournamentData> data =
      Change(*id, [&](const TournamentData& d) { return PlanAdvance(d, now); });
  if (!data.ok()) return data.status();
  Changed();
  return Resource(*data);
}

absl::StatusOr<v1::ListRoundsResponse> TournamentLogic::ListRounds(
    const Token& token, const v1::ListRoundsRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = Viewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<std::string> id = TournamentId(request.tournament(), "tournament");
  if (!id.ok()) return id.status();
  // A token is for one order: "after" is the last round given, going the way asked.
  const bool newest = request.newest_first();
  absl::StatusOr<ListPage> page = OpenPage(request.page_size(), 100, 100, request.page_token(),
                                           {newest ? "rounds-newest" : "rounds", *id});
  if (!page.ok()) return page.status();
  absl::StatusOr<int> after = AfterNumber(page->after);
  if (!after.ok()) return after.status();
  absl::StatusOr<TournamentData> data = Load(*id);
  if (!data.ok()) return data.status();
  v1::ListRoundsResponse response;
  auto add = [&](const RoundRow& r) {
    if (response.rounds_size() == page->size) {
      response.set_next_page_token(
          NextPageToken(*page, absl::StrCat(newest ? r.round + 1 : r.round - 1)));
      return false;
    }
    *response.add_rounds() = RoundOf(*data, r.round, *viewer);
    return true;
  };
  if (newest) {
    for (auto r = data->rounds.rbegin(); r != data->rounds.rend(); ++r) {
      if (*after > 0 && r->round >= *after) continue;
      if (!add(*r)) break;
    }
    return response;
  }
  for (const RoundRow& r : data->rounds) {
    if (r.round <= *after) continue;
    if (!add(r)) break;
  }
  return response;
}

absl::StatusOr<v1::Round> TournamentLogic::GetPairings(const Token& token,
                                                       const v1::GetPairingsRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = Viewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<std::pair<std::string, int>> name = ChildName(request.round(), "rounds", "round");
  if (!name.ok()) return name.status();
  absl::StatusOr<TournamentData> data = Load(name->first);
  if (!data.ok()) return data.status();
  // Every round that has a row, as ListRounds lists them: a league writes its whole season's
  // fixtures at the start, and its rounds to come are SCHEDULED, with their dates.
  const bool listed = std::any_of(data->rounds.begin(), data->rounds.end(),
                                  [&](const RoundRow& r) { return r.round == name->second; });
  if (!listed) return absl::NotFoundError(absl::StrCat(request.round(), " is not paired yet"));
  return RoundOf(*data, name->second, *viewer);
}

absl::StatusOr<v1::Standings> TournamentLogic::GetStandings(
    const v1::GetStandingsRequest& request) {
  absl::StatusOr<std::string> id = TournamentId(request.tournament(), "tournament");
  if (!id.ok()) return id.status();
  if (request.through_round() < 0) return Invalid("through_round", "is negative");
  absl::StatusOr<TournamentData> data = Load(*id);
  if (!data.ok()) return data.status();
  return StandingsOf(*data, request.through_round());
}

absl::StatusOr<v1::Pairing> TournamentLogic::SetResult(const Token& token,
                                                       const v1::SetResultRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<std::pair<std::string, int>> name = ChildName(request.round(), "rounds", "round");
  if (!name.ok()) return name.status();
  if (absl::Status s = validation::CheckEnum("outcome", request.outcome()); !s.ok()) return s;
  if (absl::Status s = validation::CheckText("reason", request.reason(), 800); !s.ok()) return s;
  if (request.reason().empty()) return Invalid("reason", "is empty: say why, for the audit log");
  if (request.board() < 1) return Invalid("board", "must be 1 or more");
  absl::StatusOr<TournamentData> data = Change(name->first, [&](const TournamentData& d) {
    return PlanSetResult(d, name->second, request.board(), request.outcome(), "operator",
                         request.reason());
  });
  if (!data.ok()) return data.status();
  Changed();
  const v1::Round round = RoundOf(*data, name->second, std::nullopt);
  for (const v1::Pairing& p : round.pairings()) {
    if (p.board() == request.board()) return p;
  }
  return absl::InternalError("the board vanished");
}

absl::StatusOr<v1::ExportTrfResponse> TournamentLogic::ExportTrf(
    const v1::ExportTrfRequest& request) {
  absl::StatusOr<std::string> id = TournamentId(request.tournament(), "tournament");
  if (!id.ok()) return id.status();
  absl::StatusOr<TournamentData> data = Load(*id);
  if (!data.ok()) return data.status();
  if (data->tournament.state == kTournamentRegistration) {
    return absl::FailedPreconditionError("the tournament has not started: no pairing numbers yet");
  }
  absl::StatusOr<tournament::EventRecord> event = TrfRecordOf(*data);
  if (!event.ok()) return event.status();
  v1::ExportTrfResponse response;
  response.set_trf(tournament::WriteTrf(*event));
  return response;
}

absl::StatusOr<std::vector<ImportedEntrantRow>> TournamentLogic::ImportedEntrants(
    const v1::Tournament& settings, const v1::ImportTournamentRequest& request) {
  std::vector<ImportedEntrantRow> out;
  std::map<std::string, int> entrant_of;  // player -> the entrant (index) naming them first
  for (int i = 0; i < request.entrants_size(); ++i) {
    const v1::ImportedEntrant& e = request.entrants(i);
    const std::string field = absl::StrCat("entrants[", i, "]");
    ImportedEntrantRow row;
    if (e.has_bot()) {
      if (e.player_ids_size() > 0) return Invalid(field + ".bot", "is set with player_ids");
      if (absl::Status s = CheckBot(field + ".bot", settings.game(), e.bot()); !s.ok()) return s;
      row.bot = e.bot().SerializeAsString();
      row.fallback_name = absl::StrCat(e.bot().kind(), " bot #", i + 1);
      out.push_back(std::move(row));
      continue;
    }
    if (e.player_ids_size() != settings.team_size()) {
      return Invalid(field + ".player_ids",
                     absl::StrCat("has ", e.player_ids_size(), " players; an entrant here has ",
                                  settings.team_size(), " (or a bot)"));
    }
    std::vector<std::string> names;
    for (int j = 0; j < e.player_ids_size(); ++j) {
      const std::string& player = e.player_ids(j);
      const std::string player_field = absl::StrCat(field, ".player_ids[", j, "]");
      if (absl::Status s = validation::CheckId(player_field, player); !s.ok()) return s;
      if (auto [it, fresh] = entrant_of.emplace(player, i); !fresh) {
        return Invalid(player_field, absl::StrCat("players/", player, " is in entrants[",
                                                  it->second, "] already"));
      }
      absl::StatusOr<std::optional<PlayerRow>> p = players_.GetPlayer(player);
      if (!p.ok()) return p.status();
      if (!p->has_value()) {
        return absl::NotFoundError(
            absl::StrCat(player_field, ": players/", player, " does not exist"));
      }
      names.push_back((*p)->display_name);
      row.players.push_back(player);
    }
    row.fallback_name = absl::StrJoin(names, " & ");
    out.push_back(std::move(row));
  }
  return out;
}

absl::StatusOr<v1::Tournament> TournamentLogic::ImportTournament(
    const Token& token, const v1::ImportTournamentRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  if (absl::Status s = CheckNewTournamentId(request.tournament_id()); !s.ok()) return s;
  if (request.trf().size() > kMaxTrfBytes) {
    return Invalid("trf", absl::StrCat(request.trf().size(), " bytes; at most ", kMaxTrfBytes));
  }
  if (request.entrants_size() > kMaxTournamentEntrants) {
    return Invalid("entrants", absl::StrCat("more than ", kMaxTournamentEntrants));
  }
  absl::StatusOr<tournament::TrfFile> file = tournament::ParseTrfFile(request.trf());
  if (!file.ok()) return Invalid("trf", file.status().message());
  v1::Tournament settings = request.tournament();
  if (settings.format() == v1::Tournament::FORMAT_UNSPECIFIED) {
    settings.set_format(v1::Tournament::SWISS);
  }
  if (settings.format() != v1::Tournament::SWISS) {
    return Invalid("tournament.format", "only a SWISS continues from a TRF file");
  }
  // Named as the file names it, unless the request says otherwise.
  if (settings.display_name().empty()) {
    settings.set_display_name(!file->event.name.empty()          ? file->event.name
                              : !request.tournament_id().empty() ? request.tournament_id()
                                                                 : "Imported event");
  }
  if (settings.rounds() == 0) {
    if (file->event.total_rounds == 0) {
      return Invalid("tournament.rounds", "the file has no XXR line: say how many rounds");
    }
    settings.set_rounds(file->event.total_rounds);
  }
  if (absl::Status s = CheckTournamentSettings(settings); !s.ok()) return s;
  settings = NormalizedSettings(settings);
  absl::StatusOr<std::vector<ImportedEntrantRow>> who = ImportedEntrants(settings, request);
  if (!who.ok()) return who.status();
  const std::string id = request.tournament_id().empty() ? absl::BytesToHexString(RandomBytes(8))
                                                         : request.tournament_id();
  absl::StatusOr<TournamentImport> import = PlanImport(id, settings, *file, *who, StoredNow());
  if (!import.ok()) return import.status();
  if (absl::Status s = store_.InsertImported(import->tournament, import->entrants, import->changes);
      !s.ok()) {
    return s;
  }
  Changed();
  import->tournament.entrant_count = static_cast<int>(import->entrants.size());
  absl::StatusOr<v1::Tournament> stored = SettingsOf(import->tournament);
  if (!stored.ok()) return stored.status();
  return TournamentOf(import->tournament, *stored);
}

absl::StatusOr<std::optional<std::string>> TournamentLogic::RecordGameResult(
    const std::string& match_name, const std::string& result, absl::Time end_time) {
  absl::StatusOr<std::optional<std::string>> before =
      store_.RecordGameResult(match_name, result, end_time);
  if (before.ok() && !before->has_value()) Changed();
  return before;
}

absl::StatusOr<v1::TournamentUpdate> TournamentLogic::UpdateOf(
    const TournamentData& data, const std::optional<std::string>& viewer) {
  v1::TournamentUpdate update;
  absl::StatusOr<v1::Tournament> t = Resource(data);
  if (!t.ok()) return t.status();
  *update.mutable_tournament() = *t;
  if (data.tournament.current_round > 0) {
    *update.mutable_round() = RoundOf(data, data.tournament.current_round, viewer);
  }
  if (data.tournament.state != kTournamentRegistration) {
    absl::StatusOr<v1::Standings> standings = StandingsOf(data, 0);
    if (!standings.ok()) return standings.status();
    *update.mutable_standings() = *standings;
  }
  return update;
}

absl::StatusOr<std::vector<v1::TournamentUpdate>> TournamentLogic::UpdatesOf(
    const std::string& id, const std::vector<std::optional<std::string>>& viewers) {
  absl::StatusOr<TournamentData> data = Load(id);
  if (!data.ok()) return data.status();
  std::vector<v1::TournamentUpdate> updates;
  for (const std::optional<std::string>& viewer : viewers) {
    absl::StatusOr<v1::TournamentUpdate> update = UpdateOf(*data, viewer);
    if (!update.ok()) return update.status();
    updates.push_back(*std::move(update));
  }
  return updates;
}

absl::StatusOr<TournamentLogic::WatchTarget> TournamentLogic::WatchTargetOf(
    const Token& token, const v1::WatchTournamentRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = Viewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<std::string> id = TournamentId(request.tournament(), "tournament");
  if (!id.ok()) return id.status();
  return WatchTarget{.id = *std::move(id), .viewer = *std::move(viewer)};
}

absl::StatusOr<std::unique_ptr<TournamentWatch>> TournamentLogic::WatchTournament(
    const WatchTarget& target) {
  absl::StatusOr<int64_t> version = store_.Version(target.id);
  if (absl::IsNotFound(version.status())) {
    return absl::NotFoundError(absl::StrCat("tournaments/", target.id, " does not exist"));
  }
  if (!version.ok()) return version.status();
  absl::StatusOr<TournamentData> data = Load(target.id);
  if (!data.ok()) return data.status();
  absl::StatusOr<v1::TournamentUpdate> first = UpdateOf(*data, target.viewer);
  if (!first.ok()) return first.status();
  first->set_kind(v1::TournamentUpdate::SNAPSHOT);
  return std::make_unique<TournamentWatch>(target.id, target.viewer, *std::move(first), *version);
}

TournamentWatch::TournamentWatch(std::string id, std::optional<std::string> viewer,
                                 v1::TournamentUpdate first, int64_t version)
    : id_(std::move(id)),
      viewer_(std::move(viewer)),
      first_(std::move(first)),
      version_(version),
      round_(first_.tournament().current_round()),
      last_round_(first_.round()),
      done_(first_.tournament().state() == v1::Tournament::FINISHED) {}

std::optional<v1::TournamentUpdate> TournamentWatch::Next(const v1::TournamentUpdate& change,
                                                          int64_t version) {
  if (done_ || version <= version_) return std::nullopt;
  version_ = version;
  v1::TournamentUpdate update = change;
  const v1::Tournament& t = update.tournament();
  if (t.state() == v1::Tournament::FINISHED) {
    update.set_kind(v1::TournamentUpdate::FINISHED);
    done_ = true;
  } else if (t.current_round() != round_) {
    update.set_kind(v1::TournamentUpdate::ROUND_STARTED);
  } else {
    update.set_kind(v1::TournamentUpdate::CHANGED);
    // A result: an outcome changed in the current round.
    int before = 0, after = 0;
    for (const v1::Pairing& p : last_round_.pairings()) before += p.outcome() != 0;
    for (const v1::Pairing& p : update.round().pairings()) after += p.outcome() != 0;
    if (after != before) update.set_kind(v1::TournamentUpdate::RESULT);
  }
  round_ = t.current_round();
  last_round_ = update.round();
  return update;
}

}  // namespace boneyard::matchmaking
