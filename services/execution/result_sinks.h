// The outbox's sinks: each finished match's result goes, with execution's results token, to
// the ratings service's RecordResult (proto/boneyard/v1/ratings.proto) and, for a match a
// matchmaking queue formed, to the matchmaking service's RecordMatchResult — each from its own
// outbox row through its own dispatcher, so either receiver may be down without delaying the
// other.
//
//   RatingsSink sink(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()), token);
//   OutboxDispatcher dispatcher(store, sink, {.receiver = kRatingsReceiver});
//
// Both calls are idempotent on the match, so the outbox's at-least-once delivery records each
// result exactly once. Every error is returned, and so retried by the dispatcher with its
// backoff: UNAVAILABLE (the receiver down) heals by itself; matchmaking's NOT_FOUND (it has not
// yet recorded the match's creation) heals too; a rejection for good is parked.
#ifndef BONEYARD_SERVICES_EXECUTION_RESULT_SINKS_H_
#define BONEYARD_SERVICES_EXECUTION_RESULT_SINKS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "grpcpp/channel.h"
#include "services/execution/outbox.h"

namespace boneyard::execution {

class RatingsSink : public ResultSink {
 public:
  // `timeout`: the deadline of one RecordResult call.
  RatingsSink(std::shared_ptr<grpc::Channel> channel, std::string results_token,
              absl::Duration timeout = absl::Seconds(10));

  absl::Status Deliver(const OutboxItem& item) override;

 private:
  std::unique_ptr<v1::RatingsService::Stub> stub_;
  const std::string token_;
  const absl::Duration timeout_;
};

class MatchmakingSink : public ResultSink {
 public:
  // `timeout`: the deadline of one RecordMatchResult call.
  MatchmakingSink(std::shared_ptr<grpc::Channel> channel, std::string results_token,
                  absl::Duration timeout = absl::Seconds(10));

  absl::Status Deliver(const OutboxItem& item) override;

 private:
  std::unique_ptr<v1::MatchmakingService::Stub> stub_;
  const std::string token_;
  const absl::Duration timeout_;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_RESULT_SINKS_H_
