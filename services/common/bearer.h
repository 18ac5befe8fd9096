// The client side of the bearer tokens of auth.h: every credential travels as gRPC metadata
// `authorization: Bearer <token>`. Header-only, so any gRPC client (the CLI, a service calling
// another, tests, load tools) adds a token the same way without linking the server plumbing.
#ifndef BONEYARD_SERVICES_COMMON_BEARER_H_
#define BONEYARD_SERVICES_COMMON_BEARER_H_

#include <grpcpp/client_context.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace boneyard {

// Adds `authorization: Bearer <token>` to the call's metadata; nothing when `token` is empty.
inline void AddBearerToken(grpc::ClientContext& context, absl::string_view token) {
  if (token.empty()) return;
  context.AddMetadata("authorization", absl::StrCat("Bearer ", token));
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_BEARER_H_
