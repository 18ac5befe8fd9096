// `boneyard create`: CreateMatch with the operator token. Prints the match's name and one
// `seat N token T` line per player seat (the tokens are shown only here, once).
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "google/protobuf/util/time_util.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"

namespace boneyard::client {
namespace {

// The request from the flags; INVALID_ARGUMENT naming the flag.
absl::StatusOr<v1::CreateMatchRequest> BuildRequest(const cli::ParsedArgs& args) {
  v1::CreateMatchRequest request;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  request.set_game(*game);

  const std::optional<std::string> seats_text = args.Value("seats");
  if (!seats_text.has_value()) {
    return absl::InvalidArgumentError(
        "--seats is required: player:ID or bot:KIND[:LEVEL] for each seat, e.g. "
        "player:alice,bot:greedy");
  }
  absl::StatusOr<std::vector<v1::Seat>> seats = ParseSeatsFlag(*seats_text);
  if (!seats.ok()) return seats.status();
  for (v1::Seat& seat : *seats) *request.add_seats() = std::move(seat);

  absl::StatusOr<RuleMap> rules = ParseRulesFlag(*game, args.Value("rules").value_or(""));
  if (!rules.ok()) return rules.status();
  *request.mutable_rules() = *std::move(rules);

  const std::optional<std::string> per_move = args.Value("per-move");
  const std::optional<std::string> policy = args.Value("timeout-policy");
  if (per_move.has_value()) {
    absl::StatusOr<absl::Duration> duration = ParseDurationFlag(*per_move, "--per-move");
    if (!duration.ok()) return duration.status();
    if (*duration <= absl::ZeroDuration()) {
      return absl::InvalidArgumentError("--per-move must be longer than 0s");
    }
    *request.mutable_clock()->mutable_per_move() =
        google::protobuf::util::TimeUtil::NanosecondsToDuration(absl::ToInt64Nanoseconds(*duration));
  }
  if (policy.has_value()) {
    if (!per_move.has_value()) {
      return absl::InvalidArgumentError("--timeout-policy needs --per-move (a clock)");
    }
    const std::string lower = absl::AsciiStrToLower(*policy);
    if (lower == "auto") {
      request.mutable_clock()->set_timeout_policy(v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
    } else if (lower == "forfeit") {
      request.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--timeout-policy must be auto or forfeit, got '", *policy, "'"));
    }
  }
  if (const std::optional<std::string> id = args.Value("request-id")) request.set_request_id(*id);
  absl::StatusOr<std::optional<uint64_t>> seed = args.Uint64("seed");
  if (!seed.ok()) return seed.status();
  if (seed->has_value()) request.set_seed(**seed);
  return request;
}

}  // namespace

int RunCreate(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed = cli::ParseArgs(
      args, ServiceFlags({{"game", cli::FlagKind::kValue},
                          {"rules", cli::FlagKind::kValue},
                          {"seats", cli::FlagKind::kValue},
                          {"per-move", cli::FlagKind::kValue},
                          {"timeout-policy", cli::FlagKind::kValue},
                          {"request-id", cli::FlagKind::kValue},
                          {"seed", cli::FlagKind::kValue},
                          {"json", cli::FlagKind::kSwitch}},
                         TokenUse::kOperator));
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kCreateUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kCreateUsage);
  absl::StatusOr<v1::CreateMatchRequest> request = BuildRequest(*parsed);
  if (!request.ok()) return cli::UsageError(io, request.status().message(), kCreateUsage);
  std::string token;
  if (std::optional<int> code = GetOperatorToken(*parsed, io, kCreateUsage, token)) return *code;

  auto stub = NewStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, token);
  v1::CreateMatchResponse response;
  const grpc::Status status = stub->CreateMatch(&context, *request, &response);
  if (!status.ok()) return RpcFailure(io, "CreateMatch", status);

  if (parsed->Has("json")) {
    nlohmann::json tokens = nlohmann::json::array();
    for (const v1::SeatToken& seat_token : response.seat_tokens()) {
      tokens.push_back({{"seat", seat_token.seat()}, {"token", seat_token.token()}});
    }
    const nlohmann::json out = {{"name", response.match().name()},
                                {"match", MatchToJson(response.match())},
                                {"seat_tokens", tokens}};
    io.out << out.dump() << "\n";
    return cli::kExitOk;
  }
  io.out << response.match().name() << "\n";
  for (const v1::SeatToken& seat_token : response.seat_tokens()) {
    io.out << "seat " << seat_token.seat() << " token " << seat_token.token() << "\n";
  }
  return cli::kExitOk;
}

}  // namespace boneyard::client
