// JSON as the web API writes it: protobuf messages with their proto field
// names, enums as names and default values included (what docs/web.md
// promises), and errors with the HTTP status of their gRPC code.
#ifndef BONEYARD_SERVICES_WEB_JSON_WIRE_H_
#define BONEYARD_SERVICES_WEB_JSON_WIRE_H_

#include <google/protobuf/message.h>

#include <string>

#include "absl/status/status.h"
#include "services/web/http_message.h"

namespace boneyard::web {

std::string ProtoJson(const google::protobuf::Message& message);

// The HTTP status of a gRPC code (docs/web.md's table).
int HttpStatusOf(absl::StatusCode code);

// {"error": {"code": "NOT_FOUND", "message": "..."}}, as a string.
std::string ErrorJson(const absl::Status& status);

// The error as a whole response.
HttpResponse ErrorResponse(const absl::Status& status);

// A 200 (or `status`) response with a JSON body.
HttpResponse JsonResponse(std::string body, int status = 200);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_JSON_WIRE_H_
