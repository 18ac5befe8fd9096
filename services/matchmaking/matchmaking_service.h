// The matchmaking service's gRPC handlers (proto/boneyard/v1/matchmaking.proto). Thin: each
// reads the call's bearer token and request, calls MatchmakingLogic and encodes its answer.
// Most block on PostgreSQL, so they are on the synchronous API, whose handlers run on gRPC's
// own thread pool. CreateTicket, the busiest, is on the async API: its call is handed to the
// logic's ticket writer and answered from there once committed, so a thousand tickets in flight
// hold no thousand threads (docs/performance.md).
//
// WatchTicket holds a thread per stream and waits on the logic's change feed (ticket_feed.h),
// reading the ticket again only when it changed.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <atomic>

#include "absl/time/time.h"

#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "boneyard/v1/matchmaking.pb.h"
#include "services/common/async_queues.h"
#include "services/common/async_unary_call.h"
#include "services/matchmaking/matchmaking_logic.h"

namespace boneyard::matchmaking {

// The longest a WatchTicket stream waits before it looks whether its client cancelled or the
// service is stopping.
inline constexpr absl::Duration kWatchWakeInterval = absl::Milliseconds(200);

using MatchmakingServiceBase =
    v1::MatchmakingService::WithAsyncMethod_CreateTicket<v1::MatchmakingService::Service>;

class MatchmakingServiceImpl final : public MatchmakingServiceBase, public AsyncService {
 public:
  // `logic` must outlive the service (and so the gRPC server it is registered with).
  explicit MatchmakingServiceImpl(MatchmakingLogic& logic);

  MatchmakingServiceImpl(const MatchmakingServiceImpl&) = delete;
  MatchmakingServiceImpl& operator=(const MatchmakingServiceImpl&) = delete;

  // AsyncService: one queue; its thread only hands CreateTicket calls to the ticket writer.
  int completion_queues() const override { return 1; }
  void RequestCalls(grpc::ServerCompletionQueue* queue) override;

  grpc::Status CreatePlayer(grpc::ServerContext* context, const v1::CreatePlayerRequest* request,
                            v1::CreatePlayerResponse* response) override;
  grpc::Status GetPlayer(grpc::ServerContext* context, const v1::GetPlayerRequest* request,
                         v1::PlayerAccount* response) override;
  grpc::Status ListPlayers(grpc::ServerContext* context, const v1::ListPlayersRequest* request,
                           v1::ListPlayersResponse* response) override;
  grpc::Status RotatePlayerToken(grpc::ServerContext* context,
                                 const v1::RotatePlayerTokenRequest* request,
                                 v1::RotatePlayerTokenResponse* response) override;
  grpc::Status CreateQueue(grpc::ServerContext* context, const v1::CreateQueueRequest* request,
                           v1::Queue* response) override;
  grpc::Status GetQueue(grpc::ServerContext* context, const v1::GetQueueRequest* request,
                        v1::Queue* response) override;
  grpc::Status ListQueues(grpc::ServerContext* context, const v1::ListQueuesRequest* request,
                          v1::ListQueuesResponse* response) override;
  grpc::Status UpdateQueue(grpc::ServerContext* context, const v1::UpdateQueueRequest* request,
                           v1::Queue* response) override;
  grpc::Status DeleteQueue(grpc::ServerContext* context, const v1::DeleteQueueRequest* request,
                           google::protobuf::Empty* response) override;
  grpc::Status CreateParty(grpc::ServerContext* context, const v1::CreatePartyRequest* request,
                           v1::Party* response) override;
  grpc::Status JoinParty(grpc::ServerContext* context, const v1::JoinPartyRequest* request,
                         v1::Party* response) override;
  grpc::Status LeaveParty(grpc::ServerContext* context, const v1::LeavePartyRequest* request,
                          v1::Party* response) override;
  grpc::Status GetParty(grpc::ServerContext* context, const v1::GetPartyRequest* request,
                        v1::Party* response) override;
  grpc::Status GetTicket(grpc::ServerContext* context, const v1::GetTicketRequest* request,
                         v1::Ticket* response) override;
  grpc::Status CancelTicket(grpc::ServerContext* context, const v1::CancelTicketRequest* request,
                            v1::Ticket* response) override;
  grpc::Status WatchTicket(grpc::ServerContext* context, const v1::WatchTicketRequest* request,
                           grpc::ServerWriter<v1::TicketUpdate>* writer) override;
  grpc::Status ListPlayerMatches(grpc::ServerContext* context,
                                 const v1::ListPlayerMatchesRequest* request,
                                 v1::ListPlayerMatchesResponse* response) override;
  grpc::Status RecordMatchResult(grpc::ServerContext* context,
                                 const v1::RecordMatchResultRequest* request,
                                 v1::RecordMatchResultResponse* response) override;

  // Ends open WatchTicket streams (UNAVAILABLE) so that a shutdown need not wait for them.
  void Stop() { stopping_ = true; }

 private:
  MatchmakingLogic& logic_;
  const AsyncUnaryMethod<v1::CreateTicketRequest, v1::Ticket> create_ticket_;
  std::atomic<bool> stopping_ = false;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
