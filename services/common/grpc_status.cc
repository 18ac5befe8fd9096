#include "services/common/grpc_status.h"

#include <string>

#include "services/common/internal_error.h"
#include "services/common/status_detail.h"

namespace boneyard {
namespace {

// OK (0) through UNAUTHENTICATED (16) in both code spaces.
constexpr int kLastCanonicalCode = 16;

static_assert(static_cast<int>(absl::StatusCode::kUnauthenticated) == kLastCanonicalCode);
static_assert(static_cast<int>(grpc::StatusCode::UNAUTHENTICATED) == kLastCanonicalCode);
static_assert(static_cast<int>(absl::StatusCode::kFailedPrecondition) ==
              static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
static_assert(static_cast<int>(absl::StatusCode::kDataLoss) ==
              static_cast<int>(grpc::StatusCode::DATA_LOSS));

bool IsCanonical(int code) { return code >= 0 && code <= kLastCanonicalCode; }

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& internal_or_public) {
  if (internal_or_public.ok()) return grpc::Status::OK;
  // A database's or library's own text never leaves the service (internal_error.h).
  const absl::Status status = PublicStatus(internal_or_public);
  const int code = static_cast<int>(status.code());
  return grpc::Status(
      IsCanonical(code) ? static_cast<grpc::StatusCode>(code) : grpc::StatusCode::UNKNOWN,
      std::string(status.message()), EncodeStatusDetails(internal_or_public));
}

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  const int code = static_cast<int>(status.error_code());
  absl::Status out(
      IsCanonical(code) ? static_cast<absl::StatusCode>(code) : absl::StatusCode::kUnknown,
      status.error_message());
  DecodeStatusDetails(status.error_details(), out);
  return out;
}

}  // namespace boneyard
