#include "services/common/internal_error.h"

#include <random>

#include "absl/strings/cord.h"
#include "absl/strings/str_format.h"
#include "spdlog/spdlog.h"

namespace boneyard {
namespace {

constexpr char kInternalPayload[] = "type.boneyard/internal";

std::string NewErrorId() {
  thread_local std::mt19937 engine{std::random_device{}()};
  return absl::StrFormat("%08x", static_cast<uint32_t>(engine()));
}

const char* PlainMessage(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return "the data cannot be stored";
    case absl::StatusCode::kAlreadyExists:
      return "it is stored already";
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kDeadlineExceeded:
      return "the database is unavailable; retry with backoff";
    case absl::StatusCode::kUnknown:
      return "the outcome is unknown; read the state again before retrying";
    default:
      return "internal error";
  }
}

}  // namespace

bool IsPermanentDataError(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kOutOfRange:
      return true;
    default:
      return false;
  }
}

absl::Status MarkInternal(absl::Status status) {
  if (!status.ok()) status.SetPayload(kInternalPayload, absl::Cord("1"));
  return status;
}

bool IsMarkedInternal(const absl::Status& status) {
  return status.GetPayload(kInternalPayload).has_value();
}

absl::Status PublicStatus(const absl::Status& status) {
  if (status.ok() || !IsMarkedInternal(status)) return status;
  const std::string id = NewErrorId();
  spdlog::warn("internal error, error id {}: {}", id, status.ToString());
  return absl::Status(status.code(),
                      absl::StrFormat("%s (error id %s)", PlainMessage(status.code()), id));
}

}  // namespace boneyard
