// The ratings service's gRPC handlers (proto/boneyard/v1/ratings.proto). They are thin: each
// reads the call's bearer token and request, calls RatingsLogic and encodes its answer.
//
// The two writing RPCs are on gRPC's callback API and never block: RecordResult and RerateGame
// are answered from the batcher's writer once their transaction has committed. The three reads
// are on the synchronous API, whose handlers run on gRPC's own thread pool, which exists for
// handlers that block (here, on a PostgreSQL query) — so reads need no pool of ours.
#ifndef BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_
#define BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include "boneyard/v1/ratings.grpc.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "services/ratings/ratings_logic.h"

namespace boneyard::ratings {

using RatingsServiceBase = v1::RatingsService::WithCallbackMethod_RecordResult<
    v1::RatingsService::WithCallbackMethod_RerateGame<v1::RatingsService::Service>>;

class RatingsServiceImpl final : public RatingsServiceBase {
 public:
  // `logic` must outlive the service (and so the gRPC server it is registered with).
  explicit RatingsServiceImpl(RatingsLogic& logic) : logic_(logic) {}

  RatingsServiceImpl(const RatingsServiceImpl&) = delete;
  RatingsServiceImpl& operator=(const RatingsServiceImpl&) = delete;

  grpc::ServerUnaryReactor* RecordResult(grpc::CallbackServerContext* context,
                                         const v1::RecordResultRequest* request,
                                         v1::RecordResultResponse* response) override;
  grpc::ServerUnaryReactor* RerateGame(grpc::CallbackServerContext* context,
                                       const v1::RerateGameRequest* request,
                                       v1::RerateGameResponse* response) override;
  grpc::Status GetRating(grpc::ServerContext* context, const v1::GetRatingRequest* request,
                         v1::Rating* response) override;
  grpc::Status ListLeaderboard(grpc::ServerContext* context,
                               const v1::ListLeaderboardRequest* request,
                               v1::ListLeaderboardResponse* response) override;
  grpc::Status ListRatingHistory(grpc::ServerContext* context,
                                 const v1::ListRatingHistoryRequest* request,
                                 v1::ListRatingHistoryResponse* response) override;

 private:
  RatingsLogic& logic_;
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_
