#include "services/ratings/ratings_service.h"

#include <utility>

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::ratings {

RatingsServiceImpl::RatingsServiceImpl(RatingsLogic& logic)
    : logic_(logic),
      record_result_([this](auto&&... args) { RequestRecordResult(args...); },
                     [this](grpc::ServerContext& context, v1::RecordResultRequest request,
                            auto done) {
                       logic_.RecordResult(BearerToken(context), request, std::move(done));
                     }),
      rerate_game_([this](auto&&... args) { RequestRerateGame(args...); },
                   [this](grpc::ServerContext& context, v1::RerateGameRequest request,
                          auto done) {
                     logic_.RerateGame(BearerToken(context), request, std::move(done));
                   }) {}

void RatingsServiceImpl::RequestCalls(grpc::ServerCompletionQueue* queue) {
  record_result_.Await(queue);
  rerate_game_.Await(queue);
}

grpc::Status RatingsServiceImpl::GetRating(grpc::ServerContext*,
                                           const v1::GetRatingRequest* request,
                                           v1::Rating* response) {
  return Reply(logic_.GetRating(*request), response);
}

grpc::Status RatingsServiceImpl::BatchGetRatings(grpc::ServerContext*,
                                                 const v1::BatchGetRatingsRequest* request,
                                                 v1::BatchGetRatingsResponse* response) {
  return Reply(logic_.BatchGetRatings(*request), response);
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
