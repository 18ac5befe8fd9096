// The web API's ladder routes (docs/web.md): a ladder page reads the ladder and its standings in
// one request; operators create ladders (audited); a person joins (opting in to rated games
// against bots or not), challenges a house bot or another member, and plays the match over the
// same play stream and actions as a ticket's, the seat looked up on the server. Thin: each
// route calls the LadderService through Backends with the session's own token, so the service
// decides who may do what, and a challenge reaches the browser without any seat token.
#include <google/protobuf/util/json_util.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "services/web/json_wire.h"
#include "services/web/web_api.h"

namespace boneyard::web {
namespace {

using nlohmann::json;
using Stub = v1::LadderService::Stub;

// A challenge as a browser may see it: no seat token, not even the caller's own (the server
// plays it for the page).
std::string ChallengeJson(v1::Challenge challenge) {
  for (v1::ChallengeSeat& seat : *challenge.mutable_seats()) seat.clear_seat_token();
  return ProtoJson(challenge);
}

}  // namespace

absl::StatusOr<std::string> WebApi::LadderPage(const std::string& name) {
  Backends& b = *parts_.backends;
  v1::GetLadderRequest get;
  get.set_name(name);
  absl::StatusOr<v1::Ladder> ladder = b.Ladder("", &Stub::GetLadder, get);
  if (!ladder.ok()) return ladder.status();
  json page = {{"ladder", ProtoJsonValue(*ladder)}, {"standings", json::array()}};
  v1::ListLadderStandingsRequest standings;
  standings.set_ladder(name);
  standings.set_page_size(1000);
  absl::StatusOr<v1::ListLadderStandingsResponse> lines =
      b.Ladder("", &Stub::ListLadderStandings, standings);
  if (lines.ok()) {
    for (const v1::LadderStanding& line : lines->standings()) {
      page["standings"].push_back(ProtoJsonValue(line));
    }
  } else {
    // The ladder is still shown, and can be played, while the ratings service is away.
    page["standings_error"] = std::string(lines.status().message());
  }
  return page.dump();
}

absl::StatusOr<std::string> WebApi::CreateLadder(const Session& session,
                                                 const HttpRequest& request) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> id = StringField(*body, "ladder_id", kMaxIdBytes);
  if (!id.ok()) return id.status();
  auto given = body->find("ladder");
  if (given == body->end() || !given->is_object()) {
    return absl::InvalidArgumentError("ladder: required, a Ladder object");
  }
  v1::CreateLadderRequest create;
  create.set_ladder_id(*id);
  const auto parsed =
      google::protobuf::util::JsonStringToMessage(given->dump(), create.mutable_ladder());
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ladder: ", std::string(parsed.message()).substr(0, 200)));
  }
  absl::StatusOr<v1::Ladder> made =
      parts_.backends->Ladder(session.credential, &Stub::CreateLadder, create);
  Record(session, "create_ladder", absl::StrCat("ladders/", *id), given->dump().substr(0, 2000),
         made.status());
  if (!made.ok()) return made.status();
  return ProtoJson(*made);
}

std::optional<HttpResponse> WebApi::RouteLadders(const HttpRequest& request,
                                                 const std::vector<std::string>& p,
                                                 Exchange& exchange) {
  const std::string& method = request.method;
  const std::size_t n = p.size();
  Backends& b = *parts_.backends;
  const bool challenges = p[0] == "challenges";
  // Reading ladders is anyone's who is signed in; joining, challenging and playing a person's.
  const bool reading = !challenges && method == "GET";
  const bool creating = !challenges && n == 1 && method == "POST";
  absl::StatusOr<Session> session =
      Require(request, reading || creating ? std::nullopt : std::optional<Role>(Role::kPlayer));
  if (!session.ok()) return ErrorResponse(session.status());
  if (!challenges) {
    if (n == 1 && method == "GET") {
      v1::ListLaddersRequest list;
      list.set_page_size(100);
      absl::StatusOr<v1::ListLaddersResponse> listed = b.Ladder("", &Stub::ListLadders, list);
      if (!listed.ok()) return ErrorResponse(listed.status());
      return JsonResponse(ProtoJson(*listed));
    }
    if (creating) return Answer(CreateLadder(*session, request));
    if (n >= 2) {
      absl::StatusOr<std::string> id = PathId("ladder id", p[1]);
      if (!id.ok()) return ErrorResponse(id.status());
      const std::string name = absl::StrCat("ladders/", *id);
      if (n == 2 && method == "GET") return Answer(LadderPage(name));
      if (n == 3 && p[2] == "join" && method == "POST") {
        absl::StatusOr<json> body = JsonBody(request);
        if (!body.ok()) return ErrorResponse(body.status());
        auto opt_in = body->find("rated_vs_bots");
        if (opt_in != body->end() && !opt_in->is_boolean()) {
          return ErrorResponse(absl::InvalidArgumentError("rated_vs_bots: must be true or false"));
        }
        v1::JoinLadderRequest join;
        join.set_ladder(name);
        join.set_rated_vs_bots(opt_in != body->end() && opt_in->get<bool>());
        absl::StatusOr<v1::LadderMember> member =
            b.Ladder(session->credential, &Stub::JoinLadder, join);
        if (!member.ok()) return ErrorResponse(member.status());
        return JsonResponse(ProtoJson(*member));
      }
      if (n == 3 && p[2] == "challenges" && method == "POST") {
        absl::StatusOr<json> body = JsonBody(request);
        if (!body.ok()) return ErrorResponse(body.status());
        absl::StatusOr<std::string> opponent = StringField(*body, "opponent", 200);
        if (!opponent.ok()) return ErrorResponse(opponent.status());
        auto rated = body->find("rated");
        if (rated != body->end() && !rated->is_boolean()) {
          return ErrorResponse(absl::InvalidArgumentError("rated: must be true or false"));
        }
        v1::CreateChallengeRequest create;
        create.set_ladder(name);
        create.set_opponent(*opponent);
        create.set_rated(rated != body->end() && rated->get<bool>());
        absl::StatusOr<v1::Challenge> made =
            b.Ladder(session->credential, &Stub::CreateChallenge, create);
        if (!made.ok()) return ErrorResponse(made.status());
        return JsonResponse(ChallengeJson(*std::move(made)));
      }
    }
  } else if (n >= 2) {
    absl::StatusOr<std::string> id = PathId("challenge id", p[1]);
    if (!id.ok()) return ErrorResponse(id.status());
    const std::string name = absl::StrCat("challenges/", *id);
    if (n == 2 && method == "GET") {
      v1::GetChallengeRequest get;
      get.set_name(name);
      absl::StatusOr<v1::Challenge> got = b.Ladder(session->credential, &Stub::GetChallenge, get);
      if (!got.ok()) return ErrorResponse(got.status());
      return JsonResponse(ChallengeJson(*std::move(got)));
    }
    if (n == 3 && (p[2] == "accept" || p[2] == "decline") && method == "POST") {
      absl::StatusOr<v1::Challenge> answered;
      if (p[2] == "accept") {
        v1::AcceptChallengeRequest accept;
        accept.set_name(name);
        answered = b.Ladder(session->credential, &Stub::AcceptChallenge, accept);
      } else {
        v1::DeclineChallengeRequest decline;
        decline.set_name(name);
        answered = b.Ladder(session->credential, &Stub::DeclineChallenge, decline);
      }
      if (!answered.ok()) return ErrorResponse(answered.status());
      return JsonResponse(ChallengeJson(*std::move(answered)));
    }
    if (n == 3 && p[2] == "play" && method == "GET") {
      absl::StatusOr<std::pair<std::string, std::string>> seat = SeatOf(*session, name);
      if (!seat.ok()) return ErrorResponse(seat.status());
      StartPlayRelay(b.execution(), seat->second, seat->first, SessionEvents(*session, exchange));
      return std::nullopt;
    }
    if (n == 3 && p[2] == "actions" && method == "POST") {
      return Answer(SubmitAction(*session, request, name));
    }
  }
  return ErrorResponse(
      absl::NotFoundError(absl::StrCat("no such API: ", method, " ", request.path.substr(0, 100))));
}

}  // namespace boneyard::web
