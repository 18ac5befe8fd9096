// The one place where absl::Status and grpc::Status meet. Handlers work in absl::Status
// (see CONVENTIONS.md: StatusOr everywhere) and convert once, at the edge:
//
//   writer_.FinishWithError(ToGrpcStatus(result.status()), this);
//
// The two code spaces are the same canonical codes (OK = 0 ... UNAUTHENTICATED = 16), so codes
// and messages map 1:1 — except a status marked internal (a database's own text,
// internal_error.h), whose message is replaced by a plain one with an error id under which the
// text is logged. Payloads that are messages of the schema travel as gRPC's error details
// (status_detail.h); other payloads stay in the process. A code outside the canonical range
// becomes UNKNOWN.
#ifndef BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_
#define BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace boneyard {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

// A synchronous-API handler's answer: the response is set when `result` is OK.
//   return Reply(logic_.GetPlayer(*request), response);
template <class Response>
grpc::Status Reply(absl::StatusOr<Response> result, Response* response) {
  if (result.ok()) *response = *std::move(result);
  return ToGrpcStatus(result.status());
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_GRPC_STATUS_H_
