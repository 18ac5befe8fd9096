// The one place where absl::Status and grpc::Status meet. Handlers work in absl::Status
// (see CONVENTIONS.md: StatusOr everywhere) and convert once, at the edge:
//
//   reactor->Finish(ToGrpcStatus(DoCreateMatch(*request, response)));
//
// The two code spaces are the same canonical codes (OK = 0 ... UNAUTHENTICATED = 16), so codes
// and messages map 1:1 — except a status marked internal (a database's own text,
// internal_error.h), whose message is replaced by a plain one with an error id under which the
// text is logged. absl payloads and gRPC error details are not carried over; a code outside the
// canonical range becomes UNKNOWN.
#ifndef BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_
#define BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_

#include <grpcpp/support/server_callback.h>
#include <grpcpp/support/status.h>

#include <functional>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace boneyard {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

// The answer of a unary call on the callback API, for logic that answers later on a thread of
// its own (or at once): sets the response when the result is OK, then finishes the call with
// its status. The response stays valid until Finish.
//
//   grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
//   host_.GetMatch(request->name(), FinishCall(reactor, response));
//   return reactor;
template <class Response>
std::function<void(absl::StatusOr<Response>)> FinishCall(grpc::ServerUnaryReactor* reactor,
                                                         Response* response) {
  return [reactor, response](absl::StatusOr<Response> result) {
    if (result.ok()) *response = *std::move(result);
    reactor->Finish(ToGrpcStatus(result.status()));
  };
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_
