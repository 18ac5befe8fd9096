#include "services/matchmaking/ladder_service.h"

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {
namespace {

// How long a WatchEvents stream waits for a change of this process before it reads anyway
// (another process's change), and looks whether its client or the service is going.
constexpr absl::Duration kEventsPoll = absl::Milliseconds(500);

}  // namespace

grpc::Status LadderServiceImpl::CreateLadder(grpc::ServerContext* context,
                                             const v1::CreateLadderRequest* request,
                                             v1::Ladder* response) {
  return Reply(logic_.CreateLadder(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::GetLadder(grpc::ServerContext*, const v1::GetLadderRequest* request,
                                          v1::Ladder* response) {
  return Reply(logic_.GetLadder(*request), response);
}

grpc::Status LadderServiceImpl::ListLadders(grpc::ServerContext*,
                                            const v1::ListLaddersRequest* request,
                                            v1::ListLaddersResponse* response) {
  return Reply(logic_.ListLadders(*request), response);
}

grpc::Status LadderServiceImpl::JoinLadder(grpc::ServerContext* context,
                                           const v1::JoinLadderRequest* request,
                                           v1::LadderMember* response) {
  return Reply(logic_.JoinLadder(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::ListLadderStandings(grpc::ServerContext*,
                                                    const v1::ListLadderStandingsRequest* request,
                                                    v1::ListLadderStandingsResponse* response) {
  return Reply(logic_.ListLadderStandings(*request), response);
}

grpc::Status LadderServiceImpl::CreateChallenge(grpc::ServerContext* context,
                                                const v1::CreateChallengeRequest* request,
                                                v1::Challenge* response) {
  return Reply(logic_.CreateChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::GetChallenge(grpc::ServerContext* context,
                                             const v1::GetChallengeRequest* request,
                                             v1::Challenge* response) {
  return Reply(logic_.GetChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::AcceptChallenge(grpc::ServerContext* context,
                                                const v1::AcceptChallengeRequest* request,
                                                v1::Challenge* response) {
  return Reply(logic_.AcceptChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::DeclineChallenge(grpc::ServerContext* context,
                                                 const v1::DeclineChallengeRequest* request,
                                                 v1::Challenge* response) {
  return Reply(logic_.DeclineChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::WatchEvents(grpc::ServerContext* context,
                                            const v1::WatchEventsRequest* request,
                                            grpc::ServerWriter<v1::LadderEvent>* writer) {
  absl::StatusOr<std::string> player = logic_.Watcher(BearerToken(*context));
  if (!player.ok()) return ToGrpcStatus(player.status());
  absl::StatusOr<LadderLogic::Batch> batch = logic_.FirstEvents(*player, request->after_sequence());
  while (true) {
    if (!batch.ok()) return ToGrpcStatus(batch.status());
    for (const v1::LadderEvent& event : batch->events) {
      if (!writer->Write(event)) return grpc::Status::OK;  // the client went away
    }
    if (context->IsCancelled()) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the stream");
    }
    if (stopping_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the service is stopping");
    batch = logic_.NextEvents(*player, *batch, absl::Now() + kEventsPoll);
  }
}

}  // namespace boneyard::matchmaking
