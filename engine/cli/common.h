// Helpers shared by the boneyard subcommands: reporting errors with the right exit code,
// one-line usage hints, JSON for rule values, reading and writing files, and building a game
// from --game/--rules/--seats (simulate and play take those the same way).
#ifndef BONEYARD_ENGINE_CLI_COMMON_H_
#define BONEYARD_ENGINE_CLI_COMMON_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/cli/commands.h"
#include "engine/core/game.h"
#include "engine/core/rules.h"
#include "engine/records/record.h"  // OptionValueToJson, RulesToJson
#include "nlohmann/json.hpp"

namespace boneyard::cli {

// The seat name that stands for the game's default bot in --seats.
inline constexpr absl::string_view kDefaultBot = "default";

// One-line usage of each command; the hint printed after a command-line error.
inline constexpr absl::string_view kGamesUsage = "boneyard games [--json]";
inline constexpr absl::string_view kSimulateUsage =
    "boneyard simulate --game G --seats BOT,BOT,... --matches N [--seed S] [--rules k=v,...] "
    "[--jobs J] [--max-actions N] [--records DIR] [--json]";
inline constexpr absl::string_view kMatchBotsUsage =
    "boneyard match-bots --game G --bots A,B --deals N [--players N] [--seed S] [--rules k=v,...] "
    "[--jobs J] [--forced-bid 30..42] [--json]";
inline constexpr absl::string_view kReplayUsage = "boneyard replay FILE|- [--json]";
inline constexpr absl::string_view kPlayUsage =
    "boneyard play --game G --seats human,BOT,... [--seat K] [--seed S] [--rules k=v,...] "
    "[--record FILE]";

// Prints "boneyard: <message>" and the usage hint; returns kExitUsage.
int UsageError(Io& io, absl::string_view message, absl::string_view usage);
// Prints "boneyard: <message>"; returns `code`.
int Fail(Io& io, ExitCode code, absl::string_view message);
// Prints the usage line for "<command> --help"; returns kExitOk.
int PrintCommandHelp(Io& io, absl::string_view usage);

// "greedy, random" → {"greedy", "random"}; an empty entry is an error.
absl::StatusOr<std::vector<std::string>> ParseSeatList(absl::string_view text);

// The seat list with every "default" replaced by `game`'s default bot (GameSpec::default_bot),
// so records and summaries name the bot that played.
std::vector<std::string> ResolveDefaultBots(const Game& game, std::vector<std::string> seats);

// The game named `game` with the rules in `rules_text` ("k=v,..."), checked to have
// `num_seats` seats. When the rules do not set `players` and the game has that option, it is
// set to `num_seats`, so "--seats a,b,c" alone picks a three-player game. Errors (unknown game,
// bad rules, wrong number of seats) are INVALID_ARGUMENT or NOT_FOUND naming the problem.
absl::StatusOr<std::shared_ptr<const Game>> CreateGameForSeats(absl::string_view game,
                                                               absl::string_view rules_text,
                                                               int num_seats);

// The whole of `path`, or of `in` when `path` is "-". NOT_FOUND / UNAVAILABLE naming the file.
absl::StatusOr<std::string> ReadInput(const std::string& path, std::istream& in);
// Writes `contents` to `path` (replacing it). UNAVAILABLE naming the file on failure.
absl::Status WriteTextFile(const std::string& path, absl::string_view contents);

}  // namespace boneyard::cli

#endif  // BONEYARD_ENGINE_CLI_COMMON_H_
