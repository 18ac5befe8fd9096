#include "services/web/json_wire.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace boneyard::web {

using nlohmann::json;

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

// A resource id taken from a path: what the services issue (letters, digits,
// '-', '_').
absl::StatusOr<std::string> PathId(absl::string_view field, const std::string& id) {
  const bool ok =
      !id.empty() && id.size() <= kMaxIdBytes && std::all_of(id.begin(), id.end(), [](char c) {
        return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      });
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": not an id (1-64 letters, digits, '-' or '_')"));
  }
  return id;
}

// The request's JSON object body. A browser's cross-site form cannot send
// application/json, so requiring it is part of the CSRF defence for the
// requests that have no session yet.
absl::StatusOr<json> JsonBody(const HttpRequest& request) {
  if (!absl::StartsWith(absl::AsciiStrToLower(request.content_type), "application/json")) {
    return absl::InvalidArgumentError("Content-Type: must be application/json");
  }
  json body = json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    return absl::InvalidArgumentError("body: not a JSON object");
  }
  return body;
}

// A string field of a JSON body: `required` ones must be present and non-empty.
absl::StatusOr<std::string> StringField(const json& body, const char* field, std::size_t max,
                                        bool required) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) {
    if (required) return absl::InvalidArgumentError(absl::StrCat(field, ": required"));
    return std::string();
  }
  if (!it->is_string()) return absl::InvalidArgumentError(absl::StrCat(field, ": not a string"));
  std::string value = it->get<std::string>();
  if (required && value.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": required"));
  }
  if (value.size() > max) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": longer than ", max, " bytes"));
  }
  return value;
}

HttpResponse Answer(const absl::StatusOr<std::string>& body) {
  if (!body.ok()) return ErrorResponse(body.status());
  return JsonResponse(*body);
}

}  // namespace boneyard::web
