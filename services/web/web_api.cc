#include "services/web/web_api.h"

#include <google/protobuf/util/json_util.h>

#include <boost/asio/post.hpp>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "services/common/tokens.h"
#include "services/web/json_wire.h"
#include "services/web/replay.h"
#include "services/web/url.h"
#include "spdlog/spdlog.h"

namespace boneyard::web {
namespace {

using nlohmann::json;

constexpr char kCookie[] = "boneyard_session";
constexpr std::size_t kMaxTokenBytes = 256;
constexpr std::size_t kMaxReasonBytes = 1024;
constexpr std::size_t kMaxActionBytes = 64;

std::string Outcome(const absl::Status& status) {
  return status.ok()
             ? "OK"
             : absl::StrCat(absl::StatusCodeToString(status.code()), ": ", status.message());
}

std::string SessionJson(const Session& session) {
  return json{{"role", session.role == Role::kOperator ? "operator" : "player"},
              {"player_id", session.player_id},
              {"display_name", session.display_name},
              {"csrf_token", session.csrf_token}}
      .dump();
}

std::string SessionCookie(const std::string& value, bool secure, bool expire) {
  return absl::StrCat(kCookie, "=", value, "; Path=/; HttpOnly; SameSite=Strict",
                      secure ? "; Secure" : "", expire ? "; Max-Age=0" : "");
}

// A ticket as the browser may see it: without seat tokens.
std::string TicketJson(v1::Ticket ticket) {
  for (v1::Assignment& a : *ticket.mutable_assignments()) a.clear_seat_token();
  return ProtoJson(ticket);
}

bool Mutating(const std::string& method) { return method != "GET" && method != "HEAD"; }

}  // namespace

WebApi::WebApi(WebApiParts parts, int threads) : parts_(std::move(parts)), pool_(threads) {}

WebApi::~WebApi() { pool_.join(); }

void WebApi::Handle(HttpRequest request, std::shared_ptr<Exchange> exchange) {
  boost::asio::post(pool_, [this, request = std::move(request), exchange = std::move(exchange)] {
    std::optional<HttpResponse> response;
    try {
      response = Route(request, *exchange);
    } catch (const std::exception& e) {
      spdlog::error("web request failed: {} {}: {}", request.method, request.path, e.what());
      response = ErrorResponse(absl::InternalError("the web service failed; see its log"));
    }
    if (response.has_value()) exchange->Reply(*std::move(response));
  });
}

std::optional<HttpResponse> WebApi::Route(const HttpRequest& request, Exchange& exchange) {
  if (!absl::StartsWith(request.path, "/api/") && request.path != "/api") {
    if (request.method != "GET" && request.method != "HEAD") {
      return ErrorResponse(absl::InvalidArgumentError("only GET serves pages"));
    }
    return parts_.assets->Serve(request.path);
  }
  std::vector<std::string> parts = absl::StrSplit(request.path, '/', absl::SkipEmpty());
  parts.erase(parts.begin());  // "api"
  return RouteApi(request, parts, exchange);
}

std::optional<HttpResponse> WebApi::RouteApi(const HttpRequest& request,
                                             const std::vector<std::string>& p,
                                             Exchange& exchange) {
  const std::string& method = request.method;
  const std::size_t n = p.size();
  auto is = [&](std::initializer_list<const char*> want, const char* verb) {
    if (method != verb || n != want.size()) return false;
    std::size_t i = 0;
    for (const char* w : want) {
      if (*w != '*' && p[i] != w) return false;
      ++i;
    }
    return true;
  };

  // Sessions: no session needed to sign in or register.
  if (is({"session"}, "POST")) return SignIn(request);
  if (is({"players"}, "POST")) return Register(request);
  if (is({"session"}, "DELETE")) return SignOut(request);
  if (is({"session"}, "GET")) {
    absl::StatusOr<Session> session = Require(request, std::nullopt);
    if (!session.ok()) return ErrorResponse(session.status());
    return JsonResponse(SessionJson(*session));
  }

  // Anyone signed in: what the services show without a token.
  if (method == "GET" && n >= 1 &&
      (p[0] == "queues" || p[0] == "leaderboard" || p[0] == "players" || p[0] == "replays")) {
    absl::StatusOr<Session> session = Require(request, std::nullopt);
    if (!session.ok()) return ErrorResponse(session.status());
    return Public(request, p);
  }

  // Operators.
  if (n >= 1 && (p[0] == "overview" || p[0] == "matches" || p[0] == "audit" ||
                 (p[0] == "queues" && method != "GET"))) {
    absl::StatusOr<Session> session = Require(request, Role::kOperator);
    if (!session.ok()) return ErrorResponse(session.status());
    if (is({"queues"}, "POST")) return Answer(WriteQueue(*session, request, ""));
    if (is({"queues", "*"}, "PATCH")) {
      absl::StatusOr<std::string> id = PathId("queue id", p[1]);
      if (!id.ok()) return ErrorResponse(id.status());
      return Answer(WriteQueue(*session, request, *id));
    }
    if (is({"overview"}, "GET")) return JsonResponse(parts_.overview->Json());
    if (is({"overview", "events"}, "GET")) {
      parts_.overview->Subscribe(exchange.StartEvents());
      return std::nullopt;
    }
    if (is({"audit"}, "GET")) return Answer(Audit(request));
    if (is({"matches"}, "GET")) return Answer(ListMatches(request));
    if (n >= 2 && p[0] == "matches") {
      absl::StatusOr<std::string> id = PathId("match id", p[1]);
      if (!id.ok()) return ErrorResponse(id.status());
      const std::string name = absl::StrCat("matches/", *id);
      if (is({"matches", "*"}, "GET")) {
        absl::StatusOr<v1::Match> match = parts_.backends->GetMatch(name);
        if (!match.ok()) return ErrorResponse(match.status());
        return JsonResponse(ProtoJson(*match));
      }
      if (is({"matches", "*", "events"}, "GET")) {
        parts_.watch_hub->Subscribe(name, exchange.StartEvents());
        return std::nullopt;
      }
      if (is({"matches", "*", "abort"}, "POST")) {
        return Answer(AbortMatch(*session, request, name));
      }
      if (is({"matches", "*", "record"}, "GET")) {
        absl::StatusOr<v1::Record> record =
            parts_.backends->GetRecord(absl::StrCat(name, "/record"));
        if (!record.ok()) return ErrorResponse(record.status());
        return JsonResponse(ProtoJson(*record));
      }
    }
  }

  // Players' parties: a leader queues the party with POST /api/tickets {"party": ...}.
  if (n >= 1 && p[0] == "parties") {
    absl::StatusOr<Session> session = Require(request, Role::kPlayer);
    if (!session.ok()) return ErrorResponse(session.status());
    std::optional<absl::StatusOr<v1::Party>> party;  // unset: no such API
    if (is({"parties"}, "POST")) {
      party = parts_.backends->CreateParty(session->credential);
    } else if (is({"parties", "join"}, "POST")) {
      absl::StatusOr<json> body = JsonBody(request);
      if (!body.ok()) return ErrorResponse(body.status());
      absl::StatusOr<std::string> code = StringField(*body, "invite_code", 32);
      if (!code.ok()) return ErrorResponse(code.status());
      party = parts_.backends->JoinParty(session->credential, *code);
    } else if (n >= 2 && p[1] != "join") {
      absl::StatusOr<std::string> id = PathId("party id", p[1]);
      if (!id.ok()) return ErrorResponse(id.status());
      const std::string name = absl::StrCat("parties/", *id);
      if (is({"parties", "*"}, "GET")) party = parts_.backends->GetParty(session->credential, name);
      if (is({"parties", "*"}, "DELETE")) {
        party = parts_.backends->LeaveParty(session->credential, name);
      }
      if (is({"parties", "*", "events"}, "GET")) {
        parts_.party_feed->Watch(session->credential, name, SessionEvents(*session, exchange));
        return std::nullopt;
      }
    }
    if (party.has_value()) {
      if (!party->ok()) return ErrorResponse(party->status());
      return JsonResponse(ProtoJson(**party));
    }
  }

  // Tournaments: reads for anyone signed in; the service decides who may change what.
  if (n >= 1 && p[0] == "tournaments") {
    if (std::optional<HttpResponse> answer = RouteTournaments(request, p)) return answer;
  }
  // Ladders and their challenges (ladder_api.cc), likewise.
  if (n >= 1 && (p[0] == "ladders" || p[0] == "challenges")) {
    return RouteLadders(request, p, exchange);
  }

  // Players.
  if (n >= 1 && p[0] == "tickets") {
    absl::StatusOr<Session> session = Require(request, Role::kPlayer);
    if (!session.ok()) return ErrorResponse(session.status());
    if (is({"tickets"}, "POST")) return Answer(CreateTicket(*session, request));
    if (n >= 2) {
      absl::StatusOr<std::string> id = PathId("ticket id", p[1]);
      if (!id.ok()) return ErrorResponse(id.status());
      const std::string name = absl::StrCat("tickets/", *id);
      if (is({"tickets", "*"}, "GET") || is({"tickets", "*"}, "DELETE")) {
        absl::StatusOr<v1::Ticket> ticket =
            method == "GET" ? parts_.backends->GetTicket(session->credential, name)
                            : parts_.backends->CancelTicket(session->credential, name);
        if (!ticket.ok()) return ErrorResponse(ticket.status());
        return JsonResponse(TicketJson(*std::move(ticket)));
      }
      if (is({"tickets", "*", "events"}, "GET")) {
        // Checked first, so a wrong ticket is an HTTP error rather than a
        // stream that fails.
        absl::StatusOr<v1::Ticket> ticket = parts_.backends->GetTicket(session->credential, name);
        if (!ticket.ok()) return ErrorResponse(ticket.status());
        StartTicketRelay(*parts_.backends->matchmaking(), session->credential, name,
                         SessionEvents(*session, exchange));
        return std::nullopt;
      }
      if (is({"tickets", "*", "play"}, "GET")) {
        absl::StatusOr<std::pair<std::string, std::string>> seat = SeatOf(*session, name);
        if (!seat.ok()) return ErrorResponse(seat.status());
        StartPlayRelay(parts_.backends->execution(), seat->second, seat->first,
                       SessionEvents(*session, exchange));
        return std::nullopt;
      }
      if (is({"tickets", "*", "actions"}, "POST")) {
        return Answer(SubmitAction(*session, request, name));
      }
    }
  }
  return ErrorResponse(
      absl::NotFoundError(absl::StrCat("no such API: ", method, " ", request.path.substr(0, 100))));
}

HttpResponse WebApi::Public(const HttpRequest& request, const std::vector<std::string>& p) {
  const std::size_t n = p.size();
  int page_size = 100;
  if (auto it = request.query.find("page_size"); it != request.query.end()) {
    if (!absl::SimpleAtoi(it->second, &page_size) || page_size < 1 || page_size > 1000) {
      return ErrorResponse(absl::InvalidArgumentError("page_size: must be 1..1000"));
    }
  }
  const std::string page_token =
      request.query.count("page_token") ? request.query.at("page_token").substr(0, 1024) : "";
  if (n == 1 && p[0] == "queues") {
    absl::StatusOr<v1::ListQueuesResponse> queues = parts_.backends->ListQueues();
    if (!queues.ok()) return ErrorResponse(queues.status());
    return JsonResponse(ProtoJson(*queues));
  }
  if (n == 2 && p[0] == "leaderboard") {
    v1::ListLeaderboardRequest list;
    list.set_game(p[1]);
    list.set_page_size(page_size);
    list.set_page_token(page_token);
    absl::StatusOr<v1::ListLeaderboardResponse> board = parts_.backends->ListLeaderboard(list);
    if (!board.ok()) return ErrorResponse(board.status());
    return JsonResponse(ProtoJson(*board));
  }
  if (n == 2 && p[0] == "replays") {
    absl::StatusOr<std::string> id = PathId("match id", p[1]);
    if (!id.ok()) return ErrorResponse(id.status());
    absl::StatusOr<v1::Record> record =
        parts_.backends->GetRecord(absl::StrCat("matches/", *id, "/record"));
    if (!record.ok()) return ErrorResponse(record.status());
    return Answer(ReplayJson(*record));
  }
  if (n >= 2 && p[0] == "players") {
    absl::StatusOr<std::string> id = PathId("player id", p[1]);
    if (!id.ok()) return ErrorResponse(id.status());
    if (n == 2) {
      absl::StatusOr<v1::PlayerAccount> player =
          parts_.backends->GetPlayer("", absl::StrCat("players/", *id));
      if (!player.ok()) return ErrorResponse(player.status());
      return JsonResponse(ProtoJson(*player));
    }
    if (n == 3 && p[2] == "ratings") {
      v1::ListRatingHistoryRequest list;
      list.set_player_id(*id);
      list.set_game(request.query.count("game") ? request.query.at("game").substr(0, 64) : "");
      list.set_page_size(page_size);
      list.set_page_token(page_token);
      absl::StatusOr<v1::ListRatingHistoryResponse> history =
          parts_.backends->ListRatingHistory(list);
      if (!history.ok()) return ErrorResponse(history.status());
      return JsonResponse(ProtoJson(*history));
    }
    if (n == 3 && p[2] == "matches") {
      v1::ListPlayerMatchesRequest list;
      list.set_name(absl::StrCat("players/", *id));
      list.set_page_size(page_size);
      list.set_page_token(page_token);
      absl::StatusOr<v1::ListPlayerMatchesResponse> matches =
          parts_.backends->ListPlayerMatches(list);
      if (!matches.ok()) return ErrorResponse(matches.status());
      return JsonResponse(ProtoJson(*matches));
    }
  }
  return ErrorResponse(
      absl::NotFoundError(absl::StrCat("no such API: GET ", request.path.substr(0, 100))));
}

absl::StatusOr<Session> WebApi::Require(const HttpRequest& request, std::optional<Role> role) {
  std::optional<std::string> id = CookieValue(request.cookie, kCookie);
  std::optional<Session> session;
  if (id.has_value()) {
    absl::StatusOr<std::optional<Session>> found = parts_.sessions->Find(*id);
    if (!found.ok()) return found.status();  // the database: UNAVAILABLE, retry
    session = *std::move(found);
  }
  if (!session.has_value()) return absl::UnauthenticatedError("sign in first");
  if (session->role == Role::kPlayer && parts_.credentials != nullptr) {
    if (absl::Status valid = parts_.credentials->Check(session->credential); !valid.ok()) {
      // Ended here for every web replica: the session's row goes.
      if (absl::Status ended = parts_.sessions->End(*id); !ended.ok()) {
        spdlog::warn("could not end a session whose token was revoked: {}", ended.ToString());
      }
      return valid;
    }
  }
  if (role.has_value() && session->role != *role) {
    return absl::PermissionDeniedError(*role == Role::kOperator ? "operators only"
                                                                : "players only");
  }
  if (Mutating(request.method) &&
      (request.csrf_token.empty() || !TokensEqual(request.csrf_token, session->csrf_token))) {
    return absl::PermissionDeniedError("X-CSRF-Token: missing or not this session's");
  }
  return *std::move(session);
}

std::shared_ptr<EventSink> WebApi::SessionEvents(const Session& session, Exchange& exchange) {
  std::shared_ptr<EventSink> sink = exchange.StartEvents();
  if (session.role == Role::kPlayer && parts_.credentials != nullptr) {
    parts_.credentials->Track(session.credential, sink);
  }
  return sink;
}

void WebApi::Record(const Session& session, const std::string& action, const std::string& target,
                    const std::string& detail, const absl::Status& outcome) {
  const absl::Status written = parts_.audit->Append(AuditEntry{.id = 0,
                                                               .time = absl::Now(),
                                                               .actor = session.actor,
                                                               .action = action,
                                                               .target = target,
                                                               .detail = detail,
                                                               .outcome = Outcome(outcome)});
  if (!written.ok()) {
    spdlog::error("audit log write failed: {} {} {}: {}", session.actor, action, target,
                  written.ToString());
  }
}

HttpResponse WebApi::SignIn(const HttpRequest& request) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> role = StringField(*body, "role", 16);
  if (!role.ok()) return ErrorResponse(role.status());
  absl::StatusOr<std::string> token = StringField(*body, "token", kMaxTokenBytes);
  if (!token.ok()) return ErrorResponse(token.status());
  Session session;
  session.credential = *token;
  if (*role == "operator") {
    if (!TokensEqual(*token, parts_.operator_token)) {
      return ErrorResponse(absl::UnauthenticatedError("token: not the operator token"));
    }
    session.role = Role::kOperator;
  } else if (*role == "player") {
    absl::StatusOr<std::string> player_id =
        StringField(*body, "player_id", kMaxIdBytes, /*required=*/false);
    if (!player_id.ok()) return ErrorResponse(player_id.status());
    absl::StatusOr<v1::PlayerAccount> me = parts_.backends->GetPlayer(*token, "players/me");
    if (absl::IsUnauthenticated(me.status())) {
      return ErrorResponse(absl::UnauthenticatedError("token: not a player's token"));
    }
    if (!me.ok()) return ErrorResponse(me.status());
    if (!player_id->empty() && *player_id != me->player_id()) {
      return ErrorResponse(absl::UnauthenticatedError("token: not this player's token"));
    }
    session.role = Role::kPlayer;
    session.player_id = me->player_id();
    session.display_name = me->display_name();
  } else {
    return ErrorResponse(absl::InvalidArgumentError("role: must be \"operator\" or \"player\""));
  }
  absl::StatusOr<std::string> id = parts_.sessions->Create(session);
  if (!id.ok()) return ErrorResponse(id.status());
  if (session.role == Role::kOperator) {
    Record(session, "sign_in", "", "", absl::OkStatus());
  }
  HttpResponse response = JsonResponse(SessionJson(session));
  response.headers.emplace_back("Set-Cookie", SessionCookie(*id, parts_.secure_cookies, false));
  return response;
}

HttpResponse WebApi::SignOut(const HttpRequest& request) {
  absl::StatusOr<Session> session = Require(request, std::nullopt);
  if (!session.ok()) return ErrorResponse(session.status());
  if (absl::Status ended = parts_.sessions->End(*CookieValue(request.cookie, kCookie));
      !ended.ok()) {
    return ErrorResponse(ended);
  }
  if (session->role == Role::kOperator) Record(*session, "sign_out", "", "", absl::OkStatus());
  HttpResponse response = JsonResponse("", 204);
  response.headers.emplace_back(
      "Set-Cookie", SessionCookie("", parts_.secure_cookies, true));
  return response;
}

HttpResponse WebApi::Register(const HttpRequest& request) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> id = StringField(*body, "player_id", kMaxIdBytes);
  if (!id.ok()) return ErrorResponse(id.status());
  absl::StatusOr<std::string> name = StringField(*body, "display_name", 4 * 40);
  if (!name.ok()) return ErrorResponse(name.status());
  v1::CreatePlayerRequest create;
  create.set_player_id(*id);
  create.set_display_name(*name);
  create.set_kind(v1::PlayerAccount::HUMAN);
  // Without a token: allowed only where matchmaking runs with
  // --open_registration.
  absl::StatusOr<v1::CreatePlayerResponse> created = parts_.backends->CreatePlayer(create);
  if (!created.ok()) return ErrorResponse(created.status());
  return JsonResponse(ProtoJson(*created));
}

absl::StatusOr<std::string> WebApi::AbortMatch(const Session& session, const HttpRequest& request,
                                               const std::string& name) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> reason = StringField(*body, "reason", kMaxReasonBytes);
  if (!reason.ok()) return reason.status();
  absl::StatusOr<v1::Match> match = parts_.backends->AbortMatch(session.credential, name, *reason);
  Record(session, "abort_match", name, *reason, match.status());
  if (!match.ok()) return match.status();
  return ProtoJson(*match);
}

absl::StatusOr<std::string> WebApi::WriteQueue(const Session& session, const HttpRequest& request,
                                               const std::string& update_id) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  auto given = body->find("queue");
  if (given == body->end() || !given->is_object()) {
    return absl::InvalidArgumentError("queue: required, a Queue object");
  }
  v1::Queue queue;
  const auto parsed = google::protobuf::util::JsonStringToMessage(given->dump(), &queue);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("queue: ", std::string(parsed.message()).substr(0, 200)));
  }
  absl::StatusOr<v1::Queue> written;
  std::string target;
  if (update_id.empty()) {
    absl::StatusOr<std::string> id = StringField(*body, "queue_id", kMaxIdBytes);
    if (!id.ok()) return id.status();
    target = absl::StrCat("queues/", *id);
    v1::CreateQueueRequest create;
    create.set_queue_id(*id);
    *create.mutable_queue() = queue;
    written = parts_.backends->CreateQueue(session.credential, create);
  } else {
    target = absl::StrCat("queues/", update_id);
    absl::StatusOr<std::string> mask = StringField(*body, "update_mask", 1024);
    if (!mask.ok()) return mask.status();
    v1::UpdateQueueRequest update;
    queue.set_name(target);
    *update.mutable_queue() = queue;
    for (absl::string_view path : absl::StrSplit(*mask, ',', absl::SkipWhitespace())) {
      update.mutable_update_mask()->add_paths(std::string(absl::StripAsciiWhitespace(path)));
    }
    written = parts_.backends->UpdateQueue(session.credential, update);
  }
  Record(session, update_id.empty() ? "create_queue" : "update_queue", target,
         given->dump().substr(0, 2000), written.status());
  if (!written.ok()) return written.status();
  return ProtoJson(*written);
}

absl::StatusOr<std::string> WebApi::Audit(const HttpRequest& request) {
  int64_t before = 0;
  int limit = 100;
  if (auto it = request.query.find("before"); it != request.query.end()) {
    if (!absl::SimpleAtoi(it->second, &before) || before < 0) {
      return absl::InvalidArgumentError("before: not an entry id");
    }
  }
  if (auto it = request.query.find("page_size"); it != request.query.end()) {
    if (!absl::SimpleAtoi(it->second, &limit) || limit < 1 || limit > 1000) {
      return absl::InvalidArgumentError("page_size: must be 1..1000");
    }
  }
  absl::StatusOr<std::vector<AuditEntry>> entries = parts_.audit->List(before, limit);
  if (!entries.ok()) return entries.status();
  json out = {{"entries", json::array()}};
  for (const AuditEntry& e : *entries) {
    out["entries"].push_back(
        {{"id", e.id},
         {"time", absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", e.time, absl::UTCTimeZone())},
         {"actor", e.actor},
         {"action", e.action},
         {"target", e.target},
         {"detail", e.detail},
         {"outcome", e.outcome}});
  }
  if (static_cast<int>(entries->size()) == limit) out["next_before"] = entries->back().id;
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

absl::StatusOr<std::string> WebApi::ListMatches(const HttpRequest& request) {
  v1::ListMatchesRequest list;
  if (auto it = request.query.find("state"); it != request.query.end() && !it->second.empty()) {
    v1::Match::State state;
    if (!v1::Match::State_Parse(it->second, &state)) {
      return absl::InvalidArgumentError("state: not ACTIVE, FINISHED or ABORTED");
    }
    list.set_state(state);
  }
  if (auto it = request.query.find("game"); it != request.query.end()) {
    list.set_game(it->second.substr(0, kMaxIdBytes + 1));
  }
  if (auto it = request.query.find("page_token"); it != request.query.end()) {
    list.set_page_token(it->second.substr(0, 1024));
  }
  if (auto it = request.query.find("page_size"); it != request.query.end()) {
    int size = 0;
    if (!absl::SimpleAtoi(it->second, &size) || size < 0) {
      return absl::InvalidArgumentError("page_size: not a count");
    }
    list.set_page_size(size);
  }
  absl::StatusOr<v1::ListMatchesResponse> matches = parts_.backends->ListMatches(list);
  if (!matches.ok()) return matches.status();
  return ProtoJson(*matches);
}

absl::StatusOr<std::string> WebApi::CreateTicket(const Session& session,
                                                 const HttpRequest& request) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> queue = StringField(*body, "queue", 128);
  if (!queue.ok()) return queue.status();
  absl::StatusOr<std::string> party = StringField(*body, "party", 128, /*required=*/false);
  if (!party.ok()) return party.status();
  v1::CreateTicketRequest create;
  create.set_queue(*queue);
  create.set_party(*party);
  absl::StatusOr<v1::Ticket> ticket = parts_.backends->CreateTicket(session.credential, create);
  if (!ticket.ok()) return ticket.status();
  return TicketJson(*std::move(ticket));
}

absl::StatusOr<std::pair<std::string, std::string>> WebApi::SeatOf(const Session& session,
                                                                   const std::string& ticket) {
  // A matched ticket's seats never change: remember them, keyed by the credential that was
  // allowed to read them, so a move costs one gRPC call rather than two.
  const std::string key = absl::StrCat(session.credential, " ", ticket);
  {
    absl::MutexLock lock(&seats_mu_);
    if (auto it = seats_.find(key); it != seats_.end()) return it->second;
  }
  const std::string player = absl::StrCat("players/", session.player_id);
  std::optional<std::pair<std::string, std::string>> seat;
  std::string state;
  if (absl::StartsWith(ticket, "challenges/")) {
    // A ladder challenge's match (ladder_api.cc), read the same way.
    v1::GetChallengeRequest get;
    get.set_name(ticket);
    absl::StatusOr<v1::Challenge> got =
        parts_.backends->Ladder(session.credential, &v1::LadderService::Stub::GetChallenge, get);
    if (!got.ok()) return got.status();
    for (const v1::ChallengeSeat& s : got->seats()) {
      if (s.player() == player && !s.seat_token().empty()) {
        seat = std::make_pair(got->match(), s.seat_token());
      }
    }
    state = v1::Challenge::State_Name(got->state());
  } else {
    absl::StatusOr<v1::Ticket> got = parts_.backends->GetTicket(session.credential, ticket);
    if (!got.ok()) return got.status();
    for (const v1::Assignment& a : got->assignments()) {
      if (a.player() == player && !a.seat_token().empty()) {
        seat = std::make_pair(a.match(), a.seat_token());
      }
    }
    state = v1::Ticket::State_Name(got->state());
  }
  if (!seat.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat(ticket, " has no seat for you yet (it is ", state, ")"));
  }
  absl::MutexLock lock(&seats_mu_);
  if (seats_.emplace(key, *seat).second) seat_order_.push_back(key);
  while (seat_order_.size() > kMaxRememberedSeats) {
    seats_.erase(seat_order_.front());
    seat_order_.pop_front();
  }
  return *seat;
}

absl::StatusOr<std::string> WebApi::SubmitAction(const Session& session, const HttpRequest& request,
                                                 const std::string& ticket) {
  absl::StatusOr<json> body = JsonBody(request);
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> action = StringField(*body, "action", kMaxActionBytes);
  if (!action.ok()) return action.status();
  // A number, or a decimal string as protobuf's JSON writes 64-bit integers (views' `sequence`).
  auto seen = body->find("seen_sequence");
  int64_t seen_sequence = -1;
  if (seen != body->end() && seen->is_number_integer()) {
    seen_sequence = seen->get<int64_t>();
  } else if (seen != body->end() && seen->is_string() &&
             !absl::SimpleAtoi(seen->get<std::string>(), &seen_sequence)) {
    seen_sequence = -1;
  }
  if (seen_sequence < 0) {
    return absl::InvalidArgumentError("seen_sequence: required, a whole number >= 0");
  }
  absl::StatusOr<std::pair<std::string, std::string>> seat = SeatOf(session, ticket);
  if (!seat.ok()) return seat.status();
  v1::SubmitActionRequest submit;
  submit.set_name(seat->first);
  submit.mutable_action()->set_text(*action);
  submit.set_seen_sequence(seen_sequence);
  absl::StatusOr<v1::SeatView> view = parts_.backends->SubmitAction(seat->second, submit);
  if (!view.ok()) return view.status();
  return ProtoJson(*view);
}

}  // namespace boneyard::web
