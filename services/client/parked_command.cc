// `boneyard parked`: the results parked in execution's outbox — refused for good by the ratings
// service — listed (ListParkedResults), delivered again (RetryParkedResult) or dropped
// (DropParkedResult). Operator token.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "nlohmann/json.hpp"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/client/proto_json.h"

namespace boneyard::client {
namespace {

using nlohmann::json;

json ParkedToJson(const v1::ParkedResult& parked) {
  return {{"name", parked.name()},
          {"match", parked.match()},
          {"receiver", parked.receiver()},
          {"attempts", parked.attempts()},
          {"last_error", parked.last_error()},
          {"park_time", TimestampText(parked.park_time())}};
}

std::string ParkedText(const v1::ParkedResult& parked) {
  return absl::StrCat(parked.name(), "  ", parked.match(), "  refused by ", parked.receiver(),
                      ", parked ",
                      TimestampText(parked.park_time()), " after ", parked.attempts(),
                      " attempt(s): ", parked.last_error(), "\n");
}

// "parked_results/ID" as given, or a bare ID prefixed.
std::string ParkedName(const std::string& arg) {
  return absl::StartsWith(arg, "parked_results/") ? arg : absl::StrCat("parked_results/", arg);
}

}  // namespace

int RunParked(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed = cli::ParseArgs(
      args,
      ServiceFlags({{"page-size", cli::FlagKind::kValue},
                    {"page-token", cli::FlagKind::kValue},
                    {"json", cli::FlagKind::kSwitch}},
                   TokenUse::kOperator),
      2);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kParkedUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kParkedUsage);
  const std::vector<std::string>& words = parsed->positional();
  const std::string verb = words.empty() ? "list" : words[0];
  const bool acts_on_one = verb == "retry" || verb == "drop";
  if (verb == "list" ? words.size() > 1 : acts_on_one && words.size() != 2) {
    return cli::UsageError(io, absl::StrCat("'parked ", verb, "' takes ",
                                            verb == "list" ? "no NAME" : "one NAME"),
                           kParkedUsage);
  }
  if (verb != "list" && verb != "retry" && verb != "drop") {
    return cli::UsageError(io, absl::StrCat("unknown 'parked' action '", verb,
                                            "': use list, retry or drop"),
                           kParkedUsage);
  }
  std::string token;
  if (std::optional<int> code = GetOperatorToken(*parsed, io, kParkedUsage, token)) return *code;
  auto stub = NewStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, token);
  const bool as_json = parsed->Has("json");

  if (verb == "list") {
    v1::ListParkedResultsRequest request;
    absl::StatusOr<std::optional<int64_t>> page_size = parsed->Int("page-size", 0, 1000);
    if (!page_size.ok()) return cli::UsageError(io, page_size.status().message(), kParkedUsage);
    request.set_page_size(static_cast<int32_t>(page_size->value_or(0)));
    request.set_page_token(parsed->Value("page-token").value_or(""));
    v1::ListParkedResultsResponse response;
    const grpc::Status status = stub->ListParkedResults(&context, request, &response);
    if (!status.ok()) return RpcFailure(io, "ListParkedResults", status);
    if (as_json) {
      json parked = json::array();
      for (const v1::ParkedResult& p : response.parked_results()) {
        parked.push_back(ParkedToJson(p));
      }
      io.out << json{{"parked_results", parked}, {"next_page_token", response.next_page_token()}}
                    .dump()
             << "\n";
      return cli::kExitOk;
    }
    if (response.parked_results_size() == 0) io.out << "no parked results\n";
    for (const v1::ParkedResult& p : response.parked_results()) io.out << ParkedText(p);
    if (!response.next_page_token().empty()) {
      io.out << "next page: --page-token " << response.next_page_token() << "\n";
    }
    return cli::kExitOk;
  }

  v1::ParkedResult result;
  grpc::Status status;
  if (verb == "retry") {
    v1::RetryParkedResultRequest request;
    request.set_name(ParkedName(words[1]));
    status = stub->RetryParkedResult(&context, request, &result);
    if (!status.ok()) return RpcFailure(io, "RetryParkedResult", status);
  } else {
    v1::DropParkedResultRequest request;
    request.set_name(ParkedName(words[1]));
    status = stub->DropParkedResult(&context, request, &result);
    if (!status.ok()) return RpcFailure(io, "DropParkedResult", status);
  }
  if (as_json) {
    io.out << ParkedToJson(result).dump() << "\n";
  } else {
    io.out << result.name() << " of " << result.match()
           << (verb == "retry" ? ": queued for delivery again\n" : ": dropped\n");
  }
  return cli::kExitOk;
}

}  // namespace boneyard::client
