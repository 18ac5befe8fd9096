#include "services/client/channel.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"
#include "services/common/status_detail.h"

namespace boneyard::client {

std::string ResolveTarget(const std::optional<std::string>& flag, absl::string_view variable,
                          absl::string_view fallback) {
  if (flag.has_value()) return *flag;
  const char* env = std::getenv(std::string(variable).c_str());
  if (env != nullptr && *env != '\0') return env;
  return std::string(fallback);
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target) {
  return grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
}

std::vector<std::shared_ptr<grpc::Channel>> MakeChannels(const std::string& target, int count) {
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < count; ++i) {
    grpc::ChannelArguments args;
    // A per-channel subchannel pool and a distinguishing argument: a connection of its own.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt("boneyard.channel_index", i);
    channels.push_back(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
  }
  return channels;
}

void PrepareUnaryContext(grpc::ClientContext& context, absl::string_view token,
                         absl::Duration deadline) {
  AddBearerToken(context, token);
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
}

absl::Status FromGrpc(const grpc::Status& status) {
  // grpc::StatusCode and absl::StatusCode share their numbers (google.rpc.Code).
  absl::Status out(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  DecodeStatusDetails(status.error_details(), out);  // e.g. WrongReplica: where to call
  return out;
}

std::string DescribeRpcError(absl::string_view rpc, const absl::Status& status) {
  return absl::StrCat(rpc, ": ", absl::StatusCodeToString(status.code()), ": ", status.message());
}

absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(
        absl::StrCat("cannot read token file '", path, "': ", std::strerror(errno)));
  }
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string token(absl::StripAsciiWhitespace(text));
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("token file '", path, "' is empty"));
  }
  if (absl::Status s = CheckTokenText(token, absl::StrCat("token file '", path, "'")); !s.ok()) {
    return s;
  }
  return token;
}

absl::Status CheckTokenText(absl::string_view token, absl::string_view where) {
  for (char c : token) {
    if (c < 0x21 || c > 0x7e) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": a token is printable characters without spaces; this one holds byte ",
          static_cast<int>(static_cast<unsigned char>(c))));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadOperatorToken(const std::optional<std::string>& token_file) {
  if (token_file.has_value()) return ReadTokenFile(*token_file);
  const char* env = std::getenv(std::string(kOperatorTokenVariable).c_str());
  if (env != nullptr) {
    const std::string token(absl::StripAsciiWhitespace(env));
    if (!token.empty()) return token;
  }
  return absl::NotFoundError(absl::StrCat("this command needs the operator token: give ",
                                          "--operator-token-file FILE or set ",
                                          kOperatorTokenVariable));
}

}  // namespace boneyard::client
