// The LadderService's gRPC handlers (proto/boneyard/v1/ladder.proto), served by the matchmaking
// process. Thin: each reads the call's bearer token and request, calls LadderLogic and encodes
// its answer. All block on PostgreSQL, so they are on the synchronous API; WatchEvents holds a
// thread per stream (a bot account keeps one open), woken by the logic's changes.
#ifndef BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <atomic>

#include "boneyard/v1/ladder.grpc.pb.h"
#include "services/matchmaking/ladder_logic.h"

namespace boneyard::matchmaking {

class LadderServiceImpl final : public v1::LadderService::Service {
 public:
  // `logic` must outlive the service.
  explicit LadderServiceImpl(LadderLogic& logic) : logic_(logic) {}
  grpc::Status CreateLadder(grpc::ServerContext* context, const v1::CreateLadderRequest* request,
                            v1::Ladder* response) override;
  grpc::Status GetLadder(grpc::ServerContext* context, const v1::GetLadderRequest* request,
                         v1::Ladder* response) override;
  grpc::Status ListLadders(grpc::ServerContext* context, const v1::ListLaddersRequest* request,
                           v1::ListLaddersResponse* response) override;
  grpc::Status JoinLadder(grpc::ServerContext* context, const v1::JoinLadderRequest* request,
                          v1::LadderMember* response) override;
  grpc::Status ListLadderStandings(grpc::ServerContext* context,
                                   const v1::ListLadderStandingsRequest* request,
                                   v1::ListLadderStandingsResponse* response) override;
  grpc::Status CreateChallenge(grpc::ServerContext* context,
                               const v1::CreateChallengeRequest* request,
                               v1::Challenge* response) override;
  grpc::Status GetChallenge(grpc::ServerContext* context, const v1::GetChallengeRequest* request,
                            v1::Challenge* response) override;
  grpc::Status AcceptChallenge(grpc::ServerContext* context,
                               const v1::AcceptChallengeRequest* request,
                               v1::Challenge* response) override;
  grpc::Status DeclineChallenge(grpc::ServerContext* context,
                                const v1::DeclineChallengeRequest* request,
                                v1::Challenge* response) override;
  grpc::Status WatchEvents(grpc::ServerContext* context, const v1::WatchEventsRequest* request,
                           grpc::ServerWriter<v1::LadderEvent>* writer) override;

  // Ends open WatchEvents streams (UNAVAILABLE) so that a shutdown need not wait for them.
  void Stop() { stopping_ = true; }

 private:
  LadderLogic& logic_;
  std::atomic<bool> stopping_ = false;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_
