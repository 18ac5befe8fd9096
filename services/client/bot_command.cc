// `boneyard bot NAME --token T [--kind K[:LEVEL]]`: a remote bot (RemotePlayer; at random, or
// any built-in bot rebuilding the match from its views, engine_seat.h) plays one seat to the
// end of the match, reconnecting if the service restarts, and prints the result.
// `boneyard bot --ladder L --player-token-file F`: a bot account on a ladder (ladder_bot.h)
// answers its challenges and plays its matches.
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/client/engine_seat.h"
#include "services/client/ladder_bot.h"
#include "services/client/remote_player.h"

namespace boneyard::client {

namespace {

int RunLadderBotCommand(const cli::ParsedArgs& args, cli::Io& io) {
  if (!args.positional().empty()) {
    return cli::UsageError(io, "a ladder bot plays the matches it is offered, not one NAME",
                           kBotUsage);
  }
  LadderBotOptions options;
  options.ladder = Named("ladders", *args.Value("ladder"));
  absl::StatusOr<std::optional<int64_t>> matches = args.Int("matches", 0, 1'000'000);
  if (!matches.ok()) return cli::UsageError(io, matches.status().message(), kBotUsage);
  options.matches = static_cast<int>(matches->value_or(0));
  absl::StatusOr<std::optional<int64_t>> concurrent = args.Int("max-concurrent", 1, 1000);
  if (!concurrent.ok()) return cli::UsageError(io, concurrent.status().message(), kBotUsage);
  options.max_concurrent = static_cast<int>(concurrent->value_or(1));
  options.accept_rated = args.Has("accept-rated");
  options.kind = absl::AsciiStrToLower(args.Value("kind").value_or("random"));
  if (absl::Status known = CheckBotKind(options.kind); !known.ok()) {
    return cli::UsageError(io, absl::StrCat("--kind ", known.message()), kBotUsage);
  }
  absl::StatusOr<std::optional<uint64_t>> seed = args.Uint64("seed");
  if (!seed.ok()) return cli::UsageError(io, seed.status().message(), kBotUsage);
  options.seed = seed->value_or(1);
  if (const std::optional<std::string> text = args.Value("reconnect-for")) {
    absl::StatusOr<absl::Duration> d = ParseDurationFlag(*text, "--reconnect-for");
    if (!d.ok()) return cli::UsageError(io, d.status().message(), kBotUsage);
    options.reconnect_for = *d;
  }
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  if (token->empty()) {
    return cli::UsageError(io, "a ladder bot needs its account's --player-token-file", kBotUsage);
  }
  const absl::Status status = RunLadderBot(MatchmakingChannel(args), *token, options, io.out);
  if (!status.ok()) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                     absl::StrCat("ladder bot: ", status.message()));
  }
  return cli::kExitOk;
}

}  // namespace

int RunBot(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     MatchmakingFlags(ServiceFlags({{"token", cli::FlagKind::kValue},
                                                    {"token-file", cli::FlagKind::kValue},
                                                    {"kind", cli::FlagKind::kValue},
                                                    {"seed", cli::FlagKind::kValue},
                                                    {"reconnect-for", cli::FlagKind::kValue},
                                                    {"ladder", cli::FlagKind::kValue},
                                                    {"matches", cli::FlagKind::kValue},
                                                    {"max-concurrent", cli::FlagKind::kValue},
                                                    {"accept-rated", cli::FlagKind::kSwitch}})),
                     1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kBotUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kBotUsage);
  if (parsed->Value("ladder").has_value()) return RunLadderBotCommand(*parsed, io);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kBotUsage);
  const std::string kind = absl::AsciiStrToLower(parsed->Value("kind").value_or("random"));
  if (absl::Status known = CheckBotKind(kind); !known.ok()) {
    return cli::UsageError(io, absl::StrCat("--kind ", known.message()), kBotUsage);
  }
  absl::StatusOr<std::optional<uint64_t>> seed = parsed->Uint64("seed");
  if (!seed.ok()) return cli::UsageError(io, seed.status().message(), kBotUsage);
  absl::Duration reconnect_for = absl::Seconds(30);
  if (const std::optional<std::string> text = parsed->Value("reconnect-for")) {
    absl::StatusOr<absl::Duration> d = ParseDurationFlag(*text, "--reconnect-for");
    if (!d.ok()) return cli::UsageError(io, d.status().message(), kBotUsage);
    reconnect_for = *d;
  }
  std::string token;
  if (std::optional<int> code = GetSeatToken(*parsed, io, kBotUsage, token)) return *code;

  auto stub = NewStub(*parsed);
  RemotePlayerOptions options;
  if (reconnect_for > absl::ZeroDuration()) {
    options.reconnect = ReconnectPolicy{.give_up_after = reconnect_for};
    options.follow_replica = PlaintextStubs();  // to whichever replica plays the match
  }
  Chooser chooser = RandomChooser(seed->value_or(1));
  if (kind != "random") {
    // Any built-in bot, from the seat's views alone (engine_seat.h).
    absl::StatusOr<Chooser> engine = PlayWithEngineBot(
        *stub, *name, kind, seed->value_or(1), [&io](const std::string& line) { io.err << line; },
        options);
    if (!engine.ok()) {
      if (absl::IsInvalidArgument(engine.status())) {
        return cli::UsageError(io, absl::StrCat("--kind: ", engine.status().message()), kBotUsage);
      }
      return cli::Fail(io, static_cast<cli::ExitCode>(kExitService), engine.status().message());
    }
    chooser = *std::move(engine);
  }
  RemotePlayer player(*stub, *name, token, std::move(chooser), options);
  player.Start();
  const absl::Status status = player.Wait();
  const RemotePlayerStats stats = player.stats();
  if (!status.ok()) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                     DescribeRpcError("Play", status));
  }
  const std::optional<v1::SeatView> view = player.last_view();
  io.out << *name << ": match over";
  if (view.has_value() && view->has_result()) {
    const v1::MatchResult& result = view->result();
    io.out << ": " << ResultText(result);
    if (view->seat() < result.ranks_size()) {
      io.out << "; seat " << view->seat() << " (this bot) ranks " << result.ranks(view->seat());
    }
  } else if (view.has_value()) {
    io.out << ": aborted by the operator";
    if (view->has_last_event()) io.out << ": " << view->last_event().message();
  }
  io.out << "\nactions: " << stats.actions_sent << " sent, " << stats.actions_acknowledged
         << " acknowledged, " << stats.stale_rejections << " stale, " << stats.error_rejections
         << " rejected; reconnects: " << stats.reconnects << "\n";
  return cli::kExitOk;
}

}  // namespace boneyard::client
