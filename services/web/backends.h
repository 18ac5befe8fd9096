// The services behind the web app, as gRPC stubs with the calls the web API
// makes: each takes the credential to present (a session's operator or player
// token, a seat token) and answers with absl::Status, so the logic above knows
// no gRPC.
#ifndef BONEYARD_SERVICES_WEB_BACKENDS_H_
#define BONEYARD_SERVICES_WEB_BACKENDS_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "services/client/channel.h"
#include "services/common/replica_router.h"

namespace boneyard::web {

struct BackendTargets {
  std::string execution;    // host:port
  std::string matchmaking;  // host:port; empty: no lobby
  std::string ratings;      // host:port; empty: no leaderboards
};

class Backends {
 public:
  explicit Backends(const BackendTargets& targets);

  // For the relays' streams: they follow a match to the replica that plays it.
  ReplicaRouter& execution() { return execution_; }
  v1::MatchmakingService::Stub* matchmaking() { return matchmaking_.get(); }
  const BackendTargets& targets() const { return targets_; }
  // A context with `token` as its bearer credential (none when empty) and, for
  // unary calls, a deadline.
  static std::shared_ptr<grpc::ClientContext> Context(const std::string& token, bool unary = true);

  // Execution.
  absl::StatusOr<v1::ListMatchesResponse> ListMatches(const v1::ListMatchesRequest& request);
  absl::StatusOr<v1::Match> GetMatch(const std::string& name);
  absl::StatusOr<v1::Match> AbortMatch(const std::string& token, const std::string& name,
                                       const std::string& reason);
  absl::StatusOr<v1::Record> GetRecord(const std::string& name);
  absl::StatusOr<v1::SeatView> SubmitAction(const std::string& seat_token,
                                            const v1::SubmitActionRequest& request);
  // Matchmaking.
  absl::StatusOr<v1::PlayerAccount> GetPlayer(const std::string& token, const std::string& name);
  absl::StatusOr<v1::CreatePlayerResponse> CreatePlayer(const v1::CreatePlayerRequest& request);
  absl::StatusOr<v1::ListQueuesResponse> ListQueues();
  absl::StatusOr<v1::Queue> CreateQueue(const std::string& token,
                                        const v1::CreateQueueRequest& request);
  absl::StatusOr<v1::Queue> UpdateQueue(const std::string& token,
                                        const v1::UpdateQueueRequest& request);
  absl::StatusOr<v1::Party> CreateParty(const std::string& token);
  absl::StatusOr<v1::Party> JoinParty(const std::string& token, const std::string& invite_code);
  absl::StatusOr<v1::Party> LeaveParty(const std::string& token, const std::string& name);
  absl::StatusOr<v1::Party> GetParty(const std::string& token, const std::string& name);
  absl::StatusOr<v1::Ticket> CreateTicket(const std::string& token,
                                          const v1::CreateTicketRequest& request);
  absl::StatusOr<v1::Ticket> GetTicket(const std::string& token, const std::string& name);
  absl::StatusOr<v1::Ticket> CancelTicket(const std::string& token, const std::string& name);
  absl::StatusOr<v1::ListPlayerMatchesResponse> ListPlayerMatches(
      const v1::ListPlayerMatchesRequest& request);
  // Ratings.
  absl::StatusOr<v1::ListLeaderboardResponse> ListLeaderboard(
      const v1::ListLeaderboardRequest& request);
  absl::StatusOr<v1::ListRatingHistoryResponse> ListRatingHistory(
      const v1::ListRatingHistoryRequest& request);
  // Whether a service answers its health check as SERVING ("execution",
  // "matchmaking", "ratings"); false for one not configured.
  bool Serving(const std::string& service);

  // A TournamentService call (served by matchmaking) with `token` ("": none), e.g.
  //   Tournament(token, &v1::TournamentService::Stub::GetTournament, request);
  template <typename Request, typename Response>
  absl::StatusOr<Response> Tournament(const std::string& token,
                                      grpc::Status (v1::TournamentService::Stub::*method)(
                                          grpc::ClientContext*, const Request&, Response*),
                                      const Request& request) {
    return Call(tournaments_.get(), token, method, request);
  }
  // A LadderService call (served by matchmaking), as Tournament.
  template <typename Request, typename Response>
  absl::StatusOr<Response> Ladder(const std::string& token,
                                  grpc::Status (v1::LadderService::Stub::*method)(
                                      grpc::ClientContext*, const Request&, Response*),
                                  const Request& request) {
    return Call(ladders_.get(), token, method, request);
  }

 private:
  // A unary call about `match` on the replica that plays it, with `token` and the usual
  // deadline: `call(stub, context, &response)`.
  template <typename Response, typename Invoke>
  absl::StatusOr<Response> Following(const std::string& token, const std::string& match,
                                     Invoke call);
  template <typename Stub, typename Request, typename Response>
  static absl::StatusOr<Response> Call(Stub* stub, const std::string& token,
                                       grpc::Status (Stub::*method)(grpc::ClientContext*,
                                                                    const Request&, Response*),
                                       const Request& request) {
    if (stub == nullptr) {
      return absl::UnavailableError("the web service has no matchmaking service");
    }
    std::shared_ptr<grpc::ClientContext> context = Context(token);
    Response response;
    const grpc::Status status = (stub->*method)(context.get(), request, &response);
    if (!status.ok()) return client::FromGrpc(status);
    return response;
  }

  const BackendTargets targets_;
  std::shared_ptr<grpc::Channel> execution_channel_;
  std::shared_ptr<grpc::Channel> matchmaking_channel_;
  std::shared_ptr<grpc::Channel> ratings_channel_;
  // Calls about one match go to the replica that plays it (docs/scaling.md); the rest to the
  // execution target.
  ReplicaRouter execution_;
  std::unique_ptr<v1::MatchmakingService::Stub> matchmaking_;
  std::unique_ptr<v1::RatingsService::Stub> ratings_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
  std::unique_ptr<v1::LadderService::Stub> ladders_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_BACKENDS_H_
