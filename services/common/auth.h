// Bearer tokens: every credential travels as gRPC metadata `authorization: Bearer <token>`
// (see the header of proto/boneyard/v1/execution.proto). There are three kinds:
// - the operator token (a service flag; see flags.h), needed for administrative calls such as
//   `CreateMatch` and `AbortMatch`;
// - service tokens, which services present to one another;
// - tokens only one service knows, such as execution's seat tokens. The Authenticator calls
//   these kOther; the service decides whether it knows them.
//
// A handler checks its credentials first, before it reads its request:
//
//   grpc::ServerUnaryReactor* AbortMatch(grpc::CallbackServerContext* ctx,
//                                        const AbortMatchRequest* request, Match* match) {
//     grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
//     std::optional<std::string> token = BearerToken(*ctx);
//     absl::Status allowed = auth_.RequireOperator(token, seats_.IsSeatToken(token));
//     if (!allowed.ok()) {
//       reactor->Finish(ToGrpcStatus(allowed));
//       return reactor;
//     }
//     ...
//
// Why a check in each handler rather than an interceptor: gRPC 1.51's server interceptors
// (grpc::experimental::Interceptor) cannot end a call with a status. They may only observe or
// modify the batches of a call that the handler runs anyway; hijacking is client-side only, and
// ModifySendStatus rewrites the status only after the handler has done its work. An
// interceptor that rejected a call would still run the handler, so it would be no protection.
// Which token a call needs also depends on the method (and for seat tokens on the request), so
// the handler is where that knowledge lives anyway. A missing or unknown token is
// UNAUTHENTICATED, a known token that does not grant the call PERMISSION_DENIED.
#ifndef BONEYARD_SERVICES_COMMON_AUTH_H_
#define BONEYARD_SERVICES_COMMON_AUTH_H_

#include <grpcpp/server_context.h>

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "services/common/tokens.h"  // TokensEqual, NewSecretToken, Authenticator

namespace boneyard {

// The token of an `authorization` header value "Bearer <token>": the scheme is matched without
// regard to case and is followed by one or more spaces; the token is the rest, which must be
// non-empty and hold no whitespace. Anything else (another scheme, "Bearer" alone or followed
// only by spaces) gives nullopt.
std::optional<std::string> ParseBearerHeader(absl::string_view header_value);

// The bearer token of a call: ParseBearerHeader of its `authorization` metadata, or nullopt
// when there is no such header or more than one.
std::optional<std::string> BearerToken(const grpc::ServerContextBase& ctx);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_AUTH_H_
