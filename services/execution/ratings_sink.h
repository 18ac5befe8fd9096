// The outbox's real sink: each finished match's result goes to the ratings service's
// RecordResult (proto/boneyard/v1/ratings.proto), with execution's results token.
//
//   RatingsSink sink(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()), token);
//   OutboxDispatcher dispatcher(store, sink, {});
//
// RecordResult is idempotent on the match, so the outbox's at-least-once delivery records each
// result exactly once. Every error is returned, and so retried by the dispatcher with its
// backoff: UNAVAILABLE (ratings down) heals by itself; a rejection (INVALID_ARGUMENT,
// ALREADY_EXISTS, a wrong token) needs an operator, and meanwhile stays visible in the outbox
// row's last_error and in the log.
#ifndef BONEYARD_SERVICES_EXECUTION_RATINGS_SINK_H_
#define BONEYARD_SERVICES_EXECUTION_RATINGS_SINK_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
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

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_RATINGS_SINK_H_
