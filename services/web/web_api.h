// The web API (docs/web.md): routes a request to what it asks for, after the
// session, role and CSRF checks; turns the services' answers into JSON and
// their errors into HTTP statuses; writes operators' actions to the audit log;
// starts the relays behind event streams. Blocking work (gRPC calls, the
// database) runs on the API's own threads, never on the HTTP server's.
#ifndef BONEYARD_SERVICES_WEB_WEB_API_H_
#define BONEYARD_SERVICES_WEB_WEB_API_H_

#include <boost/asio/thread_pool.hpp>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "services/web/assets.h"
#include "services/web/audit_log.h"
#include "services/web/backends.h"
#include "services/web/credential_guard.h"
#include "services/web/http_message.h"
#include "services/web/overview.h"
#include "services/web/party_feed.h"
#include "services/web/relays.h"
#include "services/web/sessions.h"

namespace boneyard::web {

struct WebApiParts {
  Backends* backends;
  SessionStore* sessions;
  AuditLog* audit;
  WatchHub* watch_hub;
  Overview* overview;
  const Assets* assets;
  PartyFeed* party_feed;
  // Ends players' sessions and streams once their token is rotated or revoked; may be null
  // (tests of other parts), and then a session lasts as long as its cookie.
  CredentialGuard* credentials = nullptr;
  std::string operator_token;
  // Cookies carry Secure: the service is reached over TLS through a proxy that terminates it
  // (the service itself serves plain HTTP).
  bool secure_cookies = false;
};

class WebApi {
 public:
  explicit WebApi(WebApiParts parts, int threads = 16);
  ~WebApi();  // waits for the requests in hand

  // The HTTP server's handler.
  void Handle(HttpRequest request, std::shared_ptr<Exchange> exchange);

 private:
  // Answers the request, or starts its event stream and returns nullopt.
  std::optional<HttpResponse> Route(const HttpRequest& request, Exchange& exchange);
  std::optional<HttpResponse> RouteApi(const HttpRequest& request,
                                       const std::vector<std::string>& parts, Exchange& exchange);

  // What anyone signed in may read: queues, leaderboards, players' pages, replays.
  HttpResponse Public(const HttpRequest& request, const std::vector<std::string>& parts);
  HttpResponse SignIn(const HttpRequest& request);
  HttpResponse SignOut(const HttpRequest& request);
  HttpResponse Register(const HttpRequest& request);
  absl::StatusOr<std::string> AbortMatch(const Session& session, const HttpRequest& request,
                                         const std::string& name);
  absl::StatusOr<std::string> Audit(const HttpRequest& request);
  // POST /api/queues (`update_id` empty) or PATCH /api/queues/{update_id}; audited.
  absl::StatusOr<std::string> WriteQueue(const Session& session, const HttpRequest& request,
                                         const std::string& update_id);
  absl::StatusOr<std::string> ListMatches(const HttpRequest& request);
  // /api/tournaments... (tournament_api.cc); nullopt when no route matches.
  std::optional<HttpResponse> RouteTournaments(const HttpRequest& request,
                                               const std::vector<std::string>& parts);
  // An event page's data: {tournament, entrants, rounds, standings}.
  absl::StatusOr<std::string> TournamentPage(const std::string& name);
  absl::StatusOr<std::string> CreateTournament(const Session& session, const HttpRequest& request);
  absl::StatusOr<std::string> RegisterEntrant(const Session& session, const HttpRequest& request,
                                              const std::string& name);
  // /api/ladders... and /api/challenges... (ladder_api.cc): an answer, or nullopt once a
  // challenge's play stream has started.
  std::optional<HttpResponse> RouteLadders(const HttpRequest& request,
                                           const std::vector<std::string>& parts,
                                           Exchange& exchange);
  // A ladder page's data: {ladder, standings} (standings_error instead when ratings are away).
  absl::StatusOr<std::string> LadderPage(const std::string& name);
  absl::StatusOr<std::string> CreateLadder(const Session& session, const HttpRequest& request);
  absl::StatusOr<std::string> CreateTicket(const Session& session, const HttpRequest& request);
  absl::StatusOr<std::string> SubmitAction(const Session& session, const HttpRequest& request,
                                           const std::string& ticket);
  // The session's seat in the match of a ticket or a ladder challenge ("challenges/{id}"):
  // {match, seat token}.
  absl::StatusOr<std::pair<std::string, std::string>> SeatOf(const Session& session,
                                                             const std::string& ticket);

  // The session the cookie names; UNAUTHENTICATED without one,
  // PERMISSION_DENIED for the other role or, on a state-changing request,
  // without the session's CSRF token.
  absl::StatusOr<Session> Require(const HttpRequest& request, std::optional<Role> role);
  // Starts the request's event stream for `session`: a player's ends with the player's token.
  std::shared_ptr<EventSink> SessionEvents(const Session& session, Exchange& exchange);
  void Record(const Session& session, const std::string& action, const std::string& target,
              const std::string& detail, const absl::Status& outcome);

  WebApiParts parts_;
  // SeatOf's memory: "credential ticket" → {match, seat token}, the oldest forgotten first.
  static constexpr std::size_t kMaxRememberedSeats = 50000;
  absl::Mutex seats_mu_;
  std::map<std::string, std::pair<std::string, std::string>> seats_ ABSL_GUARDED_BY(seats_mu_);
  std::deque<std::string> seat_order_ ABSL_GUARDED_BY(seats_mu_);
  boost::asio::thread_pool pool_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_WEB_API_H_
