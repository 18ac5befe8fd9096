// `boneyard bot NAME --token T`: a remote bot (RemotePlayer with RandomChooser) plays one seat
// to the end of the match, reconnecting if the service restarts, and prints the result.
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/client/remote_player.h"

namespace boneyard::client {

int RunBot(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     ServiceFlags({{"token", cli::FlagKind::kValue},
                                   {"token-file", cli::FlagKind::kValue},
                                   {"kind", cli::FlagKind::kValue},
                                   {"seed", cli::FlagKind::kValue},
                                   {"reconnect-for", cli::FlagKind::kValue}}),
                     1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kBotUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kBotUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kBotUsage);
  const std::string kind = absl::AsciiStrToLower(parsed->Value("kind").value_or("random"));
  if (kind != "random") {
    // The engine's other bots read the engine's game-specific View, which a SeatView does not
    // rebuild; they play inside the service (create --seats bot:KIND).
    return cli::UsageError(
        io,
        absl::StrCat("--kind '", kind, "' is not a remote bot; only 'random' is (built-in "
                                       "bots play inside the service: create --seats bot:KIND)"),
        kBotUsage);
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
  }
  RemotePlayer player(*stub, *name, token, RandomChooser(seed->value_or(1)), options);
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
