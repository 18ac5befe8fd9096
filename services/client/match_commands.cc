// The unary match commands: `matches` (ListMatches), `match` (GetMatch), `abort` (AbortMatch,
// operator token) and `record` (GetRecord, written in the engine's record format).
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "engine/records/record.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/common/engine_proto.h"
#include "services/common/replica_router.h"

namespace boneyard::client {
namespace {

absl::StatusOr<v1::Match::State> ParseState(const std::optional<std::string>& text) {
  if (!text.has_value()) return v1::Match::STATE_UNSPECIFIED;
  const std::string lower = absl::AsciiStrToLower(*text);
  if (lower == "active") return v1::Match::ACTIVE;
  if (lower == "finished") return v1::Match::FINISHED;
  if (lower == "aborted") return v1::Match::ABORTED;
  return absl::InvalidArgumentError(
      absl::StrCat("--state must be active, finished or aborted, got '", *text, "'"));
}

}  // namespace

int RunMatches(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args, ServiceFlags({{"state", cli::FlagKind::kValue},
                                         {"game", cli::FlagKind::kValue},
                                         {"page-size", cli::FlagKind::kValue},
                                         {"page-token", cli::FlagKind::kValue},
                                         {"json", cli::FlagKind::kSwitch}}));
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kMatchesUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kMatchesUsage);
  absl::StatusOr<v1::Match::State> state = ParseState(parsed->Value("state"));
  if (!state.ok()) return cli::UsageError(io, state.status().message(), kMatchesUsage);
  absl::StatusOr<std::optional<int64_t>> page_size = parsed->Int("page-size", 1, 1000);
  if (!page_size.ok()) return cli::UsageError(io, page_size.status().message(), kMatchesUsage);

  v1::ListMatchesRequest request;
  request.set_state(*state);
  request.set_game(parsed->Value("game").value_or(""));
  request.set_page_size(static_cast<int32_t>(page_size->value_or(0)));
  request.set_page_token(parsed->Value("page-token").value_or(""));

  auto stub = NewStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, "");
  v1::ListMatchesResponse response;
  const grpc::Status status = stub->ListMatches(&context, request, &response);
  if (!status.ok()) return RpcFailure(io, "ListMatches", status);

  if (parsed->Has("json")) {
    nlohmann::json matches = nlohmann::json::array();
    for (const v1::Match& match : response.matches()) matches.push_back(MatchToJson(match));
    const nlohmann::json out = {{"matches", matches},
                                {"next_page_token", response.next_page_token()}};
    io.out << out.dump() << "\n";
    return cli::kExitOk;
  }
  for (const v1::Match& match : response.matches()) io.out << MatchLine(match) << "\n";
  if (response.matches().empty()) io.out << "no matches\n";
  if (!response.next_page_token().empty()) {
    io.out << "next page: --page-token " << response.next_page_token() << "\n";
  }
  return cli::kExitOk;
}

int RunMatch(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args, ServiceFlags({{"json", cli::FlagKind::kSwitch}}), 1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kMatchUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kMatchUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kMatchUsage);

  v1::GetMatchRequest request;
  request.set_name(*name);
  auto stub = NewStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, "");
  v1::Match match;
  const grpc::Status status = stub->GetMatch(&context, request, &match);
  if (!status.ok()) return RpcFailure(io, "GetMatch", status);
  if (parsed->Has("json")) {
    io.out << MatchToJson(match).dump() << "\n";
  } else {
    io.out << MatchText(match);
  }
  return cli::kExitOk;
}

int RunAbort(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed = cli::ParseArgs(
      args,
      ServiceFlags({{"reason", cli::FlagKind::kValue}, {"json", cli::FlagKind::kSwitch}},
                   TokenUse::kOperator),
      1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kAbortUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kAbortUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kAbortUsage);
  const std::optional<std::string> reason = parsed->Value("reason");
  if (!reason.has_value()) {
    return cli::UsageError(io, "--reason is required (it is stored with the match)", kAbortUsage);
  }
  std::string token;
  if (std::optional<int> code = GetOperatorToken(*parsed, io, kAbortUsage, token)) return *code;

  v1::AbortMatchRequest request;
  request.set_name(*name);
  request.set_reason(*reason);
  // Aborted by the replica that plays it (docs/scaling.md).
  ReplicaRouter router(ResolveTarget(parsed->Value("target")));
  v1::Match match;
  const grpc::Status status = router.Call(
      *name, [&](grpc::ClientContext& context) { PrepareUnaryContext(context, token); },
      [&](v1::ExecutionService::Stub& stub, grpc::ClientContext* context) {
        return stub.AbortMatch(context, request, &match);
      });
  if (!status.ok()) return RpcFailure(io, "AbortMatch", status);
  if (parsed->Has("json")) {
    io.out << MatchToJson(match).dump() << "\n";
  } else {
    io.out << match.name() << " aborted: " << match.abort_reason() << "\n";
  }
  return cli::kExitOk;
}

int RunRecord(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args, ServiceFlags({{"out", cli::FlagKind::kValue}}), 1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kRecordUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kRecordUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kRecordUsage);

  v1::GetRecordRequest request;
  request.set_name(absl::EndsWith(*name, "/record") ? *name : absl::StrCat(*name, "/record"));
  auto stub = NewStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, "");
  v1::Record proto;
  const grpc::Status status = stub->GetRecord(&context, request, &proto);
  if (!status.ok()) return RpcFailure(io, "GetRecord", status);

  absl::StatusOr<Record> record = RecordFromProto(proto);
  if (!record.ok()) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                     DescribeRpcError("GetRecord", record.status()));
  }
  if (ResultLeftOut(proto)) {
    io.err << "boneyard: note: seat " << absl::StrJoin(proto.result().forfeited_seats(), ", ")
           << " forfeited, so the match was not played to its end; the record has no result "
              "and replays to the position of the forfeit\n";
  }
  const std::string text = RecordToJson(*record).dump(2) + "\n";
  const std::optional<std::string> out_path = parsed->Value("out");
  if (!out_path.has_value()) {
    io.out << text;
    return cli::kExitOk;
  }
  if (absl::Status written = cli::WriteTextFile(*out_path, text); !written.ok()) {
    return cli::Fail(io, cli::kExitBadInput, written.message());
  }
  io.out << "record of " << *name << " written to " << *out_path << "\n";
  return cli::kExitOk;
}

}  // namespace boneyard::client
