// `boneyard ladder ...`: the LadderService from the command line (docs/cli.md). The operator
// creates ladders; a player (--player-token-file) joins, challenges a house bot or a member and
// reads their challenges, each with their own seat token once the match is created — the
// command prints how to play it (`boneyard connect`). Bot accounts run `boneyard bot --ladder`.
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/command_common.h"

namespace boneyard::client {
namespace {

using Stub = v1::LadderService::Stub;

std::unique_ptr<Stub> NewLadderStub(const cli::ParsedArgs& args) {
  return v1::LadderService::NewStub(MatchmakingChannel(args));
}

// The word after the subcommand, or a usage error naming `what`.
absl::StatusOr<std::string> Word(const cli::ParsedArgs& args, size_t index,
                                 absl::string_view what) {
  if (args.positional().size() <= index || args.positional()[index].empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ladder ", args.positional()[0], " needs ", what));
  }
  return args.positional()[index];
}

// "ID=KIND[:LEVEL]" items of --house-bots.
absl::Status ParseHouseBots(absl::string_view text, v1::Ladder& ladder) {
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    const std::vector<absl::string_view> id_kind = absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (id_kind.size() != 2 || id_kind[0].empty() || id_kind[1].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--house-bots takes ID=KIND[:LEVEL],..., got '", item, "'"));
    }
    v1::HouseBot& bot = *ladder.add_house_bots();
    bot.set_bot_id(std::string(id_kind[0]));
    const std::vector<absl::string_view> kind_level =
        absl::StrSplit(id_kind[1], absl::MaxSplits(':', 1));
    bot.set_kind(std::string(kind_level[0]));
    if (kind_level.size() == 2) {
      int level = 0;
      if (!absl::SimpleAtoi(kind_level[1], &level)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--house-bots: '", kind_level[1], "' is not a level"));
      }
      bot.set_level(level);
    }
  }
  return absl::OkStatus();
}

std::string ChallengeText(const v1::Challenge& c) {
  std::string out =
      absl::StrCat(c.name(), "  ", c.challenger(), " -> ", c.opponent(), "  ",
                   c.rated() ? "rated" : "casual", "  ", v1::Challenge::State_Name(c.state()));
  if (!c.decline_reason().empty()) absl::StrAppend(&out, " (", c.decline_reason(), ")");
  absl::StrAppend(&out, "\n");
  if (!c.match().empty()) {
    absl::StrAppend(&out, "match: ", c.match(), " on ", c.execution_target(), "\n");
    for (const v1::ChallengeSeat& seat : c.seats()) {
      if (seat.seat_token().empty()) continue;
      absl::StrAppend(&out, "your seat ", seat.seat(), "; play it with: boneyard connect ",
                      c.match(), " --target ", c.execution_target(), " --token ", seat.seat_token(),
                      "\n");
    }
  }
  if (c.has_result()) absl::StrAppend(&out, "result: ", ResultText(c.result()), "\n");
  return out;
}

int RunCreateLadder(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> id = Word(args, 1, "a ladder id");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kLadderUsage);
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return cli::UsageError(io, "--game is required", kLadderUsage);
  v1::CreateLadderRequest request;
  request.set_ladder_id(*id);
  v1::Ladder& ladder = *request.mutable_ladder();
  ladder.set_game(*game);
  ladder.set_display_name(args.Value("name").value_or(*id));
  if (const std::optional<std::string> rules = args.Value("rules")) {
    absl::StatusOr<RuleMap> parsed = ParseRulesFlag(*game, *rules);
    if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kLadderUsage);
    *ladder.mutable_rules() = *std::move(parsed);
  }
  if (absl::Status s = ParseHouseBots(args.Value("house-bots").value_or(""), ladder); !s.ok()) {
    return cli::UsageError(io, s.message(), kLadderUsage);
  }
  if (const std::optional<std::string> weight = args.Value("weight")) {
    double w = 0;
    if (!absl::SimpleAtod(*weight, &w)) {
      return cli::UsageError(io, absl::StrCat("--weight: '", *weight, "' is not a number"),
                             kLadderUsage);
    }
    ladder.set_human_vs_bot_weight(w);
  }
  absl::StatusOr<std::optional<int64_t>> cap = args.Int("daily-cap", 0, 10000);
  if (!cap.ok()) return cli::UsageError(io, cap.status().message(), kLadderUsage);
  if (cap->has_value()) ladder.set_bot_vs_bot_daily_cap(static_cast<int32_t>(**cap));
  if (const std::optional<std::string> wait = args.Value("pool-wait")) {
    absl::StatusOr<absl::Duration> d = ParseDurationFlag(*wait, "--pool-wait");
    if (!d.ok()) return cli::UsageError(io, d.status().message(), kLadderUsage);
    *ladder.mutable_pool_wait() = ToDuration(*d);
  }
  ladder.set_fill_bot_id(args.Value("fill-bot").value_or(""));
  std::string token;
  if (std::optional<int> code = GetOperatorToken(args, io, kLadderUsage, token)) return *code;
  v1::Ladder created;
  grpc::Status status =
      NewLadderStub(args)->CreateLadder(CallContext(token).get(), request, &created);
  if (!status.ok()) return RpcFailure(io, "CreateLadder", status);
  std::string text = absl::StrCat(created.name(), " created (", created.display_name(), ")\n");
  for (const v1::HouseBot& bot : created.house_bots()) {
    absl::StrAppend(&text, "  house bot ", bot.bot_id(), ": ", bot.display_name(), ", rated as ",
                    bot.rating_id(), "\n");
  }
  if (!created.fill_bot_id().empty()) {
    absl::StrAppend(&text, "  the other seats: ", created.fill_bot_id(), ", unrated\n");
  }
  return Print(args, io, created, text);
}

int RunShowLadder(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> id = Word(args, 1, "a ladder id");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kLadderUsage);
  auto stub = NewLadderStub(args);
  v1::GetLadderRequest get;
  get.set_name(Named("ladders", *id));
  v1::Ladder ladder;
  grpc::Status status = stub->GetLadder(CallContext("").get(), get, &ladder);
  if (!status.ok()) return RpcFailure(io, "GetLadder", status);
  v1::ListLadderStandingsRequest list;
  list.set_ladder(ladder.name());
  list.set_page_size(1000);
  v1::ListLadderStandingsResponse standings;
  status = stub->ListLadderStandings(CallContext("").get(), list, &standings);
  if (!status.ok()) return RpcFailure(io, "ListLadderStandings", status);
  std::string text =
      absl::StrCat(ladder.name(), "  ", ladder.display_name(), "  ", ladder.game(), "\n");
  for (const v1::LadderStanding& s : standings.standings()) {
    absl::StrAppend(
        &text, absl::StrFormat("%3d  %-30s %-4s %7.2f  (mu %.2f, sigma %.2f)  %d games\n", s.rank(),
                               s.display_name(), s.kind() == v1::PlayerAccount::BOT ? "BOT" : "",
                               s.ordinal(), s.mu(), s.sigma(), s.games_played()));
  }
  return Print(args, io, standings, text);
}

int RunJoinLadder(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> id = Word(args, 1, "a ladder id");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kLadderUsage);
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  v1::JoinLadderRequest request;
  request.set_ladder(Named("ladders", *id));
  request.set_rated_vs_bots(args.Has("rated-vs-bots"));
  if (const std::optional<std::string> player = args.Value("player")) {
    request.set_player(Named("players", *player));
  }
  v1::LadderMember member;
  grpc::Status status =
      NewLadderStub(args)->JoinLadder(CallContext(*token).get(), request, &member);
  if (!status.ok()) return RpcFailure(io, "JoinLadder", status);
  return Print(args, io, member,
               absl::StrCat(member.player(), " joined ", request.ladder(),
                            member.rated_vs_bots() ? " (rated games against bots)" : "", "\n"));
}

int RunChallenge(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> id = Word(args, 1, "a ladder id");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kLadderUsage);
  absl::StatusOr<std::string> opponent =
      Word(args, 2, "an opponent (bots/ID, a player id, or pool)");
  if (!opponent.ok()) return cli::UsageError(io, opponent.status().message(), kLadderUsage);
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  v1::CreateChallengeRequest request;
  request.set_ladder(Named("ladders", *id));
  // "bots/search-3" is the ladder's house bot, "pool" its pool; anything else a player.
  absl::string_view who = *opponent;
  if (who == "pool") {
    request.set_opponent(absl::StrCat(request.ladder(), "/pool"));
  } else if (absl::ConsumePrefix(&who, "bots/")) {
    request.set_opponent(absl::StrCat(request.ladder(), "/bots/", who));
  } else {
    request.set_opponent(Named("players", *opponent));
  }
  request.set_rated(args.Has("rated"));
  if (const std::optional<std::string> as = args.Value("player")) {
    request.set_challenger(Named("players", *as));
  }
  v1::Challenge challenge;
  grpc::Status status =
      NewLadderStub(args)->CreateChallenge(CallContext(*token).get(), request, &challenge);
  if (!status.ok()) return RpcFailure(io, "CreateChallenge", status);
  return Print(args, io, challenge, ChallengeText(challenge));
}

int RunChallengeCall(const cli::ParsedArgs& args, cli::Io& io, absl::string_view sub) {
  absl::StatusOr<std::string> name = Word(args, 1, "a challenge");
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kLadderUsage);
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  auto stub = NewLadderStub(args);
  const std::string challenge_name = Named("challenges", *name);
  v1::Challenge challenge;
  grpc::Status status;
  std::string rpc;
  if (sub == "accept") {
    v1::AcceptChallengeRequest request;
    request.set_name(challenge_name);
    rpc = "AcceptChallenge";
    status = stub->AcceptChallenge(CallContext(*token).get(), request, &challenge);
  } else if (sub == "decline") {
    v1::DeclineChallengeRequest request;
    request.set_name(challenge_name);
    request.set_reason(args.Value("reason").value_or(""));
    rpc = "DeclineChallenge";
    status = stub->DeclineChallenge(CallContext(*token).get(), request, &challenge);
  } else {
    v1::GetChallengeRequest request;
    request.set_name(challenge_name);
    rpc = "GetChallenge";
    status = stub->GetChallenge(CallContext(*token).get(), request, &challenge);
  }
  if (!status.ok()) return RpcFailure(io, rpc, status);
  return Print(args, io, challenge, ChallengeText(challenge));
}

int RunListLadders(const cli::ParsedArgs& args, cli::Io& io) {
  v1::ListLaddersRequest request;
  request.set_game(args.Value("game").value_or(""));
  request.set_page_size(1000);
  v1::ListLaddersResponse response;
  grpc::Status status = NewLadderStub(args)->ListLadders(CallContext("").get(), request, &response);
  if (!status.ok()) return RpcFailure(io, "ListLadders", status);
  std::string text;
  for (const v1::Ladder& l : response.ladders()) {
    absl::StrAppend(&text, l.name(), "  ", l.display_name(), "  ", l.game(), "  bots:");
    for (const v1::HouseBot& bot : l.house_bots()) absl::StrAppend(&text, " ", bot.bot_id());
    absl::StrAppend(&text, "\n");
  }
  return Print(args, io, response, text);
}

}  // namespace

int RunLadder(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     MatchmakingFlags({{"game", cli::FlagKind::kValue},
                                       {"name", cli::FlagKind::kValue},
                                       {"rules", cli::FlagKind::kValue},
                                       {"house-bots", cli::FlagKind::kValue},
                                       {"weight", cli::FlagKind::kValue},
                                       {"daily-cap", cli::FlagKind::kValue},
                                       {"pool-wait", cli::FlagKind::kValue},
                                       {"fill-bot", cli::FlagKind::kValue},
                                       {"player", cli::FlagKind::kValue},
                                       {"reason", cli::FlagKind::kValue},
                                       {"rated", cli::FlagKind::kSwitch},
                                       {"rated-vs-bots", cli::FlagKind::kSwitch}}),
                     /*max_positional=*/3);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kLadderUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kLadderUsage);
  if (parsed->positional().empty()) {
    return cli::UsageError(io, "ladder needs a subcommand", kLadderUsage);
  }
  const std::string& sub = parsed->positional()[0];
  if (sub == "create") return RunCreateLadder(*parsed, io);
  if (sub == "list") return RunListLadders(*parsed, io);
  if (sub == "show") return RunShowLadder(*parsed, io);
  if (sub == "join") return RunJoinLadder(*parsed, io);
  if (sub == "challenge") return RunChallenge(*parsed, io);
  if (sub == "accept" || sub == "decline" || sub == "challenge-show") {
    return RunChallengeCall(*parsed, io, sub);
  }
  return cli::UsageError(io, absl::StrCat("unknown ladder subcommand '", sub, "'"), kLadderUsage);
}

}  // namespace boneyard::client
