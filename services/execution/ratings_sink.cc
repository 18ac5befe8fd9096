#include "services/execution/ratings_sink.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/client_context.h"
#include "services/common/bearer.h"
#include "services/common/grpc_status.h"

namespace boneyard::execution {

RatingsSink::RatingsSink(std::shared_ptr<grpc::Channel> channel, std::string results_token,
                         absl::Duration timeout)
    : stub_(v1::RatingsService::NewStub(std::move(channel))),
      token_(std::move(results_token)),
      timeout_(timeout) {}

absl::Status RatingsSink::Deliver(const OutboxItem& item) {
  v1::RecordResultRequest request;
  *request.mutable_match() = item.match;
  v1::RecordResultResponse response;
  grpc::ClientContext context;
  AddBearerToken(context, token_);
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout_));
  const grpc::Status status = stub_->RecordResult(&context, request, &response);
  if (status.ok()) return absl::OkStatus();
  const absl::Status error = FromGrpcStatus(status);
  return absl::Status(error.code(), absl::StrCat("RecordResult of ", item.match.name(), ": ",
                                                 error.message()));
}

}  // namespace boneyard::execution
