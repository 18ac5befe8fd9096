#include "services/matchmaking/matchmaking_service.h"

#include <utility>

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {

MatchmakingServiceImpl::MatchmakingServiceImpl(MatchmakingLogic& logic)
    : logic_(logic),
      create_ticket_([this](auto&&... args) { RequestCreateTicket(args...); },
                     [this](grpc::ServerContext& context, v1::CreateTicketRequest request,
                            auto done) {
                       logic_.CreateTicket(BearerToken(context), request, std::move(done));
                     }) {}

void MatchmakingServiceImpl::RequestCalls(grpc::ServerCompletionQueue* queue) {
  create_ticket_.Await(queue);
}

grpc::Status MatchmakingServiceImpl::CreatePlayer(grpc::ServerContext* context,
                                                  const v1::CreatePlayerRequest* request,
                                                  v1::CreatePlayerResponse* response) {
  return Reply(logic_.CreatePlayer(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::GetPlayer(grpc::ServerContext* context,
                                               const v1::GetPlayerRequest* request,
                                               v1::PlayerAccount* response) {
  return Reply(logic_.GetPlayer(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::ListPlayers(grpc::ServerContext*,
                                                 const v1::ListPlayersRequest* request,
                                                 v1::ListPlayersResponse* response) {
  return Reply(logic_.ListPlayers(*request), response);
}

grpc::Status MatchmakingServiceImpl::RotatePlayerToken(grpc::ServerContext* context,
                                                       const v1::RotatePlayerTokenRequest* request,
                                                       v1::RotatePlayerTokenResponse* response) {
  return Reply(logic_.RotatePlayerToken(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::CreateQueue(grpc::ServerContext* context,
                                                 const v1::CreateQueueRequest* request,
                                                 v1::Queue* response) {
  return Reply(logic_.CreateQueue(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::GetQueue(grpc::ServerContext*,
                                              const v1::GetQueueRequest* request,
                                              v1::Queue* response) {
  return Reply(logic_.GetQueue(*request), response);
}

grpc::Status MatchmakingServiceImpl::ListQueues(grpc::ServerContext*,
                                                const v1::ListQueuesRequest* request,
                                                v1::ListQueuesResponse* response) {
  return Reply(logic_.ListQueues(*request), response);
}

grpc::Status MatchmakingServiceImpl::UpdateQueue(grpc::ServerContext* context,
                                                 const v1::UpdateQueueRequest* request,
                                                 v1::Queue* response) {
  return Reply(logic_.UpdateQueue(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::DeleteQueue(grpc::ServerContext* context,
                                                 const v1::DeleteQueueRequest* request,
                                                 google::protobuf::Empty*) {
  return ToGrpcStatus(logic_.DeleteQueue(BearerToken(*context), *request));
}

grpc::Status MatchmakingServiceImpl::CreateParty(grpc::ServerContext* context,
                                                 const v1::CreatePartyRequest*,
                                                 v1::Party* response) {
  return Reply(logic_.CreateParty(BearerToken(*context)), response);
}

grpc::Status MatchmakingServiceImpl::JoinParty(grpc::ServerContext* context,
                                               const v1::JoinPartyRequest* request,
                                               v1::Party* response) {
  return Reply(logic_.JoinParty(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::LeaveParty(grpc::ServerContext* context,
                                                const v1::LeavePartyRequest* request,
                                                v1::Party* response) {
  return Reply(logic_.LeaveParty(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::GetParty(grpc::ServerContext* context,
                                              const v1::GetPartyRequest* request,
                                              v1::Party* response) {
  return Reply(logic_.GetParty(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::GetTicket(grpc::ServerContext* context,
                                               const v1::GetTicketRequest* request,
                                               v1::Ticket* response) {
  return Reply(logic_.GetTicket(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::CancelTicket(grpc::ServerContext* context,
                                                  const v1::CancelTicketRequest* request,
                                                  v1::Ticket* response) {
  return Reply(logic_.CancelTicket(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::WatchTicket(grpc::ServerContext* context,
                                                 const v1::WatchTicketRequest* request,
                                                 grpc::ServerWriter<v1::TicketUpdate>* writer) {
  absl::StatusOr<std::unique_ptr<TicketWatch>> watch =
      logic_.WatchTicket(BearerToken(*context), *request);
  if (!watch.ok()) return ToGrpcStatus(watch.status());
  if (!writer->Write((*watch)->first())) return grpc::Status::OK;  // the client went away
  while (!(*watch)->done()) {
    if (context->IsCancelled()) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the watch");
    }
    if (stopping_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the service is stopping");
    // Waits at most kWatchWakeInterval, so a cancel or a shutdown is seen soon.
    absl::StatusOr<std::optional<v1::TicketUpdate>> next =
        (*watch)->Next(absl::Now() + kWatchWakeInterval);
    if (!next.ok()) return ToGrpcStatus(next.status());
    if (next->has_value() && !writer->Write(**next)) return grpc::Status::OK;
  }
  return grpc::Status::OK;  // MATCHED, CANCELLED or EXPIRED: sent, done
}

grpc::Status MatchmakingServiceImpl::ListPlayerMatches(
    grpc::ServerContext*, const v1::ListPlayerMatchesRequest* request,
    v1::ListPlayerMatchesResponse* response) {
  return Reply(logic_.ListPlayerMatches(*request), response);
}

grpc::Status MatchmakingServiceImpl::RecordMatchResult(
    grpc::ServerContext* context, const v1::RecordMatchResultRequest* request,
    v1::RecordMatchResultResponse* response) {
  return Reply(logic_.RecordMatchResult(BearerToken(*context), *request), response);
}

}  // namespace boneyard::matchmaking
