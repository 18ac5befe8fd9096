#include "services/execution/result_sinks.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/client_context.h"
#include "services/common/bearer.h"
#include "services/common/grpc_status.h"

namespace boneyard::execution {
namespace {

// One unary call with the token and deadline; an error names the method and the match.
template <class Stub, class Request, class Response>
absl::Status Call(grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                  Stub& stub, const Request& request, const std::string& token,
                  absl::Duration timeout, absl::string_view what, const v1::Match& match) {
  Response response;
  grpc::ClientContext context;
  AddBearerToken(context, token);
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  const grpc::Status status = (stub.*method)(&context, request, &response);
  if (status.ok()) return absl::OkStatus();
  const absl::Status error = FromGrpcStatus(status);
  return absl::Status(error.code(), absl::StrCat(what, " of ", match.name(), ": ",
                                                 error.message()));
}

}  // namespace

RatingsSink::RatingsSink(std::shared_ptr<grpc::Channel> channel, std::string results_token,
                         absl::Duration timeout)
    : stub_(v1::RatingsService::NewStub(std::move(channel))),
      token_(std::move(results_token)),
      timeout_(timeout) {}

absl::Status RatingsSink::Deliver(const OutboxItem& item) {
  v1::RecordResultRequest request;
  *request.mutable_match() = item.match;
  return Call(&v1::RatingsService::Stub::RecordResult, *stub_, request, token_, timeout_,
              "RecordResult", item.match);
}

MatchmakingSink::MatchmakingSink(std::shared_ptr<grpc::Channel> channel,
                                 std::string results_token, absl::Duration timeout)
    : stub_(v1::MatchmakingService::NewStub(std::move(channel))),
      token_(std::move(results_token)),
      timeout_(timeout) {}

absl::Status MatchmakingSink::Deliver(const OutboxItem& item) {
  v1::RecordMatchResultRequest request;
  *request.mutable_match() = item.match;
  return Call(&v1::MatchmakingService::Stub::RecordMatchResult, *stub_, request, token_,
              timeout_, "RecordMatchResult", item.match);
}

}  // namespace boneyard::execution
