// The web API's tournament routes (docs/web.md): the event pages read an event whole in one
// request, operators create and start events (audited), players register and withdraw
// themselves (or the party they lead, as a team). Thin: each route calls the TournamentService
// through Backends with the session's own token, so the service decides who may do what; the
// pairings are read without any token, so no seat token ever reaches a browser here.
#include <google/protobuf/util/json_util.h>

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "services/web/json_wire.h"
#include "services/web/web_api.h"

namespace boneyard::web {
namespace {

using nlohmann::json;
using Stub = v1::TournamentService::Stub;

constexpr int kArenaPageRounds = 30;

}  // namespace

absl::StatusOr<std::string> WebApi::TournamentPage(const std::string& name) {
  Backends& b = *parts_.backends;
  v1::GetTournamentRequest get;
  get.set_name(name);
  absl::StatusOr<v1::Tournament> tournament = b.Tournament("", &Stub::GetTournament, get);
  if (!tournament.ok()) return tournament.status();
  json page = {{"tournament", ProtoJsonValue(*tournament)},
               {"entrants", json::array()},
               {"rounds", json::array()}};
  v1::ListEntrantsRequest entrants;
  entrants.set_tournament(name);
  entrants.set_page_size(1024);
  absl::StatusOr<v1::ListEntrantsResponse> listed = b.Tournament("", &Stub::ListEntrants, entrants);
  if (!listed.ok()) return listed.status();
  for (const v1::Entrant& e : listed->entrants()) page["entrants"].push_back(ProtoJsonValue(e));
  if (tournament->state() != v1::Tournament::REGISTRATION) {
    v1::ListRoundsRequest rounds;
    rounds.set_tournament(name);
    // An arena's rounds are many and short: its page shows the latest, the games under way.
    if (tournament->format() == v1::Tournament::ARENA) {
      rounds.set_newest_first(true);
      rounds.set_page_size(kArenaPageRounds);
    }
    absl::StatusOr<v1::ListRoundsResponse> played = b.Tournament("", &Stub::ListRounds, rounds);
    if (!played.ok()) return played.status();
    for (const v1::Round& r : played->rounds()) page["rounds"].push_back(ProtoJsonValue(r));
    v1::GetStandingsRequest standings;
    standings.set_tournament(name);
    absl::StatusOr<v1::Standings> table = b.Tournament("", &Stub::GetStandings, standings);
    if (!table.ok()) return table.status();
    page["standings"] = ProtoJsonValue(*table);
  }
  return page.dump();
}

absl::StatusOr<std::string> WebApi::CreateTournament(const Session& session,
                                                     const HttpRequest& request) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> id = StringField(*body, "tournament_id", kMaxIdBytes);
  if (!id.ok()) return id.status();
  auto given = body->find("tournament");
  if (given == body->end() || !given->is_object()) {
    return absl::InvalidArgumentError("tournament: required, a Tournament object");
  }
  v1::CreateTournamentRequest create;
  create.set_tournament_id(*id);
  const auto parsed =
      google::protobuf::util::JsonStringToMessage(given->dump(), create.mutable_tournament());
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament: ", std::string(parsed.message()).substr(0, 200)));
  }
  absl::StatusOr<v1::Tournament> made =
      parts_.backends->Tournament(session.credential, &Stub::CreateTournament, create);
  Record(session, "create_tournament", absl::StrCat("tournaments/", *id),
         given->dump().substr(0, 2000), made.status());
  if (!made.ok()) return made.status();
  return ProtoJson(*made);
}

absl::StatusOr<std::string> WebApi::RegisterEntrant(const Session& session,
                                                    const HttpRequest& request,
                                                    const std::string& name) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> party = StringField(*body, "party", 128, /*required=*/false);
  if (!party.ok()) return party.status();
  absl::StatusOr<std::string> bot = StringField(*body, "bot_kind", kMaxIdBytes, false);
  if (!bot.ok()) return bot.status();
  absl::StatusOr<std::string> player = StringField(*body, "player_id", kMaxIdBytes, false);
  if (!player.ok()) return player.status();
  const bool team = body->value("team", false);
  absl::StatusOr<v1::Entrant> entrant;
  if (team || !party->empty()) {
    v1::RegisterTeamRequest register_team;
    register_team.set_tournament(name);
    register_team.set_party(*party);
    if (!bot->empty()) register_team.mutable_bot()->set_kind(*bot);
    entrant = parts_.backends->Tournament(session.credential, &Stub::RegisterTeam, register_team);
  } else {
    v1::RegisterPlayerRequest register_player;
    register_player.set_tournament(name);
    register_player.set_player_id(*player);
    if (!bot->empty()) register_player.mutable_bot()->set_kind(*bot);
    entrant =
        parts_.backends->Tournament(session.credential, &Stub::RegisterPlayer, register_player);
  }
  if (session.role == Role::kOperator) {
    Record(session, "register_entrant", name, body->dump().substr(0, 500), entrant.status());
  }
  if (!entrant.ok()) return entrant.status();
  return ProtoJson(*entrant);
}

std::optional<HttpResponse> WebApi::RouteTournaments(const HttpRequest& request,
                                                     const std::vector<std::string>& p) {
  const std::string& method = request.method;
  const std::size_t n = p.size();
  absl::StatusOr<Session> session = Require(request, std::nullopt);
  if (!session.ok()) return ErrorResponse(session.status());
  Backends& b = *parts_.backends;
  if (n == 1 && method == "GET") {
    v1::ListTournamentsRequest list;
    list.set_page_size(100);
    absl::StatusOr<v1::ListTournamentsResponse> listed =
        b.Tournament("", &Stub::ListTournaments, list);
    if (!listed.ok()) return ErrorResponse(listed.status());
    return JsonResponse(ProtoJson(*listed));
  }
  if (n == 1 && method == "POST") return Answer(CreateTournament(*session, request));
  if (n < 2) return std::nullopt;
  absl::StatusOr<std::string> id = PathId("tournament id", p[1]);
  if (!id.ok()) return ErrorResponse(id.status());
  const std::string name = absl::StrCat("tournaments/", *id);
  if (n == 2 && method == "GET") return Answer(TournamentPage(name));
  if (n == 3 && p[2] == "start" && method == "POST") {
    v1::StartTournamentRequest start;
    start.set_name(name);
    absl::StatusOr<v1::Tournament> started =
        b.Tournament(session->credential, &Stub::StartTournament, start);
    Record(*session, "start_tournament", name, "", started.status());
    if (!started.ok()) return ErrorResponse(started.status());
    return JsonResponse(ProtoJson(*started));
  }
  if (n == 3 && p[2] == "entrants" && method == "POST") {
    return Answer(RegisterEntrant(*session, request, name));
  }
  if (n == 4 && p[2] == "entrants" && method == "DELETE") {
    int number = 0;
    if (!absl::SimpleAtoi(p[3], &number) || number < 1) {
      return ErrorResponse(absl::InvalidArgumentError("entrant: not an entrant number"));
    }
    v1::WithdrawPlayerRequest withdraw;
    withdraw.set_entrant(absl::StrCat(name, "/entrants/", number));
    absl::StatusOr<v1::Entrant> gone =
        b.Tournament(session->credential, &Stub::WithdrawPlayer, withdraw);
    if (session->role == Role::kOperator) {
      Record(*session, "withdraw_entrant", withdraw.entrant(), "", gone.status());
    }
    if (!gone.ok()) return ErrorResponse(gone.status());
    return JsonResponse(ProtoJson(*gone));
  }
  return std::nullopt;
}

}  // namespace boneyard::web
