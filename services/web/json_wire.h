// JSON as the web API writes it: protobuf messages with their proto field
// names, enums as names and default values included (what docs/web.md
// promises), and errors with the HTTP status of their gRPC code.
#ifndef BONEYARD_SERVICES_WEB_JSON_WIRE_H_
#define BONEYARD_SERVICES_WEB_JSON_WIRE_H_

#include <google/protobuf/message.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "services/web/http_message.h"

namespace boneyard::web {

std::string ProtoJson(const google::protobuf::Message& message);
// The same as a JSON value, to put inside a larger answer (a page's data in one read).
inline nlohmann::json ProtoJsonValue(const google::protobuf::Message& message) {
  return nlohmann::json::parse(ProtoJson(message));
}

// The HTTP status of a gRPC code (docs/web.md's table).
int HttpStatusOf(absl::StatusCode code);

// {"error": {"code": "NOT_FOUND", "message": "..."}}, as a string.
std::string ErrorJson(const absl::Status& status);

// The error as a whole response.
HttpResponse ErrorResponse(const absl::Status& status);

// A 200 (or `status`) response with a JSON body.
HttpResponse JsonResponse(std::string body, int status = 200);

// The longest resource id the services issue.
inline constexpr std::size_t kMaxIdBytes = 64;

// A resource id taken from a path: what the services issue (letters, digits, '-', '_');
// INVALID_ARGUMENT naming `field` otherwise.
absl::StatusOr<std::string> PathId(absl::string_view field, const std::string& id);

// The request's JSON object body. A browser's cross-site form cannot send application/json,
// so requiring it is part of the CSRF defence for the requests that have no session yet.
absl::StatusOr<nlohmann::json> JsonBody(const HttpRequest& request);

// A string field of a JSON body: `required` ones must be present and non-empty.
absl::StatusOr<std::string> StringField(const nlohmann::json& body, const char* field,
                                        std::size_t max, bool required = true);

// The body as a 200 JSON response, or the error's response.
HttpResponse Answer(const absl::StatusOr<std::string>& body);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_JSON_WIRE_H_
