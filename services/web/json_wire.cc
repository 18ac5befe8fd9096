#include "services/web/json_wire.h"

#include <google/protobuf/util/json_util.h>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace boneyard::web {

std::string ProtoJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  // Printing a well-formed message cannot fail; an empty object is the safe
  // answer if it did.
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) return "{}";
  return out;
}

int HttpStatusOf(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

std::string ErrorJson(const absl::Status& status) {
  const nlohmann::json error = {
      {"error",
       {{"code", absl::StatusCodeToString(status.code())}, {"message", status.message()}}}};
  // Replacement, not an exception, for a message that is not valid UTF-8.
  return error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

HttpResponse ErrorResponse(const absl::Status& status) {
  return HttpResponse{.status = HttpStatusOf(status.code()),
                      .content_type = "application/json",
                      .body = ErrorJson(status),
                      .headers = {}};
}

HttpResponse JsonResponse(std::string body, int status) {
  return HttpResponse{
      .status = status, .content_type = "application/json", .body = std::move(body), .headers = {}};
}

}  // namespace boneyard::web
