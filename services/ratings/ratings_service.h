// The ratings service's gRPC handlers (proto/boneyard/v1/ratings.proto). They are thin: each
// reads the call's bearer token and request, calls RatingsLogic and encodes its answer.
//
// The two writing RPCs are on gRPC's async API, on a completion queue of the service's own, and
// never block: RecordResult and RerateGame are answered from the batcher's writer once their
// transaction has committed. Not the callback API, which answers a request that does not parse
// with an empty UNIMPLEMENTED (libgrpc 1.51); the async and sync APIs answer it as every other
// service does, INTERNAL "Unable to parse request" (docs/api.md). The three reads
// are on the synchronous API, whose handlers run on gRPC's own thread pool, which exists for
// handlers that block (here, on a PostgreSQL query) — so reads need no pool of ours.
#ifndef BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_
#define BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include "boneyard/v1/ratings.grpc.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "services/common/async_queues.h"
#include "services/common/async_unary_call.h"
#include "services/ratings/ratings_logic.h"

namespace boneyard::ratings {

using RatingsServiceBase = v1::RatingsService::WithAsyncMethod_RecordResult<
    v1::RatingsService::WithAsyncMethod_RerateGame<v1::RatingsService::Service>>;

class RatingsServiceImpl final : public RatingsServiceBase, public AsyncService {
 public:
  // `logic` must outlive the service (and so the gRPC server it is registered with).
  explicit RatingsServiceImpl(RatingsLogic& logic);

  RatingsServiceImpl(const RatingsServiceImpl&) = delete;
  RatingsServiceImpl& operator=(const RatingsServiceImpl&) = delete;

  // AsyncService: one queue; its thread only hands calls to the batcher.
  int completion_queues() const override { return 1; }
  void RequestCalls(grpc::ServerCompletionQueue* queue) override;

  grpc::Status GetRating(grpc::ServerContext* context, const v1::GetRatingRequest* request,
                         v1::Rating* response) override;
  grpc::Status BatchGetRatings(grpc::ServerContext* context,
                               const v1::BatchGetRatingsRequest* request,
                               v1::BatchGetRatingsResponse* response) override;
  grpc::Status ListLeaderboard(grpc::ServerContext* context,
                               const v1::ListLeaderboardRequest* request,
                               v1::ListLeaderboardResponse* response) override;
  grpc::Status ListRatingHistory(grpc::ServerContext* context,
                                 const v1::ListRatingHistoryRequest* request,
                                 v1::ListRatingHistoryResponse* response) override;

 private:
  RatingsLogic& logic_;
  const AsyncUnaryMethod<v1::RecordResultRequest, v1::RecordResultResponse> record_result_;
  const AsyncUnaryMethod<v1::RerateGameRequest, v1::RerateGameResponse> rerate_game_;
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RATINGS_SERVICE_H_
