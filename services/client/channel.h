// Talking to the execution service from a client: where it is (--target, BONEYARD_TARGET),
// channels, the bearer token and deadline every call carries, the operator token, and turning
// gRPC statuses into absl::Status and the CLI's error lines.
//
//   std::shared_ptr<grpc::Channel> channel = MakeChannel(ResolveTarget(flag));
//   auto stub = v1::ExecutionService::NewStub(channel);
//   grpc::ClientContext context;
//   PrepareUnaryContext(context, operator_token);   // bearer token + 10 s deadline
//   grpc::Status status = stub->CreateMatch(&context, request, &response);
//   if (!status.ok()) return RpcError("CreateMatch", FromGrpc(status));
//
// Channels are plaintext: the services listen on loopback or inside a cluster network.
#ifndef BONEYARD_SERVICES_CLIENT_CHANNEL_H_
#define BONEYARD_SERVICES_CLIENT_CHANNEL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/status.h"
#include "services/common/bearer.h"  // AddBearerToken

namespace boneyard::client {

inline constexpr absl::string_view kDefaultTarget = "127.0.0.1:50051";
inline constexpr absl::string_view kTargetVariable = "BONEYARD_TARGET";
inline constexpr absl::string_view kOperatorTokenVariable = "BONEYARD_OPERATOR_TOKEN";
// Every unary call has a deadline; this one unless told otherwise.
inline constexpr absl::Duration kDefaultDeadline = absl::Seconds(10);

// A service address: `flag` when given, else $`variable` when set and not empty, else
// `fallback`. Without the last two: execution's (--target, $BONEYARD_TARGET, kDefaultTarget).
std::string ResolveTarget(const std::optional<std::string>& flag,
                          absl::string_view variable = kTargetVariable,
                          absl::string_view fallback = kDefaultTarget);

// A plaintext channel to `target`.
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target);

// `count` channels to `target`, each with its own TCP connection (gRPC would otherwise share
// one connection between channels with equal arguments), for spreading many streams.
std::vector<std::shared_ptr<grpc::Channel>> MakeChannels(const std::string& target, int count);

// Readies `context` for one unary call: the bearer token (if any) and a deadline `deadline`
// from now.
void PrepareUnaryContext(grpc::ClientContext& context, absl::string_view token,
                         absl::Duration deadline = kDefaultDeadline);

// The same code and message as an absl::Status.
absl::Status FromGrpc(const grpc::Status& status);

// "<rpc>: <CODE>: <message>", e.g. "CreateMatch: UNAUTHENTICATED: unknown token"; the CLI
// prints it after "boneyard: ".
std::string DescribeRpcError(absl::string_view rpc, const absl::Status& status);

// OK when `token` can travel as a bearer token: printable ASCII without spaces (gRPC refuses
// anything else in metadata, and would abort the call). INVALID_ARGUMENT naming `where`.
absl::Status CheckTokenText(absl::string_view token, absl::string_view where);

// A token kept in a file: its contents without surrounding whitespace. NOT_FOUND when the file
// cannot be read, INVALID_ARGUMENT when it holds no token or one CheckTokenText refuses (both
// name the file).
absl::StatusOr<std::string> ReadTokenFile(const std::string& path);

// The operator token: from `token_file` (--operator-token-file) when given, else
// $BONEYARD_OPERATOR_TOKEN. NOT_FOUND when neither is set, or errors of ReadTokenFile.
absl::StatusOr<std::string> ReadOperatorToken(const std::optional<std::string>& token_file);

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_CHANNEL_H_
