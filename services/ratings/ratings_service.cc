#include "services/ratings/ratings_service.h"

#include <utility>

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::ratings {
namespace {

// A synchronous call's answer.
template <class Response>
grpc::Status Reply(absl::StatusOr<Response> result, Response* response) {
  if (result.ok()) *response = *std::move(result);
  return ToGrpcStatus(result.status());
}

}  // namespace

grpc::ServerUnaryReactor* RatingsServiceImpl::RecordResult(grpc::CallbackServerContext* context,
                                                           const v1::RecordResultRequest* request,
                                                           v1::RecordResultResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  logic_.RecordResult(BearerToken(*context), *request, FinishCall(reactor, response));
  return reactor;
}

grpc::ServerUnaryReactor* RatingsServiceImpl::RerateGame(grpc::CallbackServerContext* context,
                                                         const v1::RerateGameRequest* request,
                                                         v1::RerateGameResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  logic_.RerateGame(BearerToken(*context), *request, FinishCall(reactor, response));
  return reactor;
}

grpc::Status RatingsServiceImpl::GetRating(grpc::ServerContext*,
                                           const v1::GetRatingRequest* request,
                                           v1::Rating* response) {
  return Reply(logic_.GetRating(*request), response);
}

grpc::Status RatingsServiceImpl::ListLeaderboard(grpc::ServerContext*,
                                                 const v1::ListLeaderboardRequest* request,
                                                 v1::ListLeaderboardResponse* response) {
  return Reply(logic_.ListLeaderboard(*request), response);
}

grpc::Status RatingsServiceImpl::ListRatingHistory(grpc::ServerContext*,
                                                   const v1::ListRatingHistoryRequest* request,
                                                   v1::ListRatingHistoryResponse* response) {
  return Reply(logic_.ListRatingHistory(*request), response);
}

}  // namespace boneyard::ratings
