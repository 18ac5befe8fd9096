// What the service commands of `boneyard` share: their usage lines, the flags every one takes
// (--target), the extra exit code 4, reading tokens, and turning --rules, --seats and
// durations into request fields. Each command is one Run* function in its own file;
// client_commands.cc dispatches.
#ifndef BONEYARD_SERVICES_CLIENT_COMMAND_COMMON_H_
#define BONEYARD_SERVICES_CLIENT_COMMAND_COMMON_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "engine/cli/args.h"
#include "engine/cli/commands.h"
#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/status.h"
#include "services/client/proto_json.h"

namespace boneyard::client {

// The service answered with an error or could not be reached.
inline constexpr int kExitService = 4;

inline constexpr absl::string_view kCreateUsage =
    "boneyard create --game G --seats player:ID|bot:KIND[:LEVEL],... [--rules k=v,...] "
    "[--per-move 30s] [--timeout-policy auto|forfeit] [--request-id X] [--seed S] [--json]";
inline constexpr absl::string_view kMatchesUsage =
    "boneyard matches [--state active|finished|aborted] [--game G] [--page-size N] "
    "[--page-token T] [--json]";
inline constexpr absl::string_view kMatchUsage = "boneyard match NAME [--json]";
inline constexpr absl::string_view kAbortUsage = "boneyard abort NAME --reason R [--json]";
inline constexpr absl::string_view kWatchUsage = "boneyard watch NAME [--json]";
inline constexpr absl::string_view kRecordUsage = "boneyard record NAME [--out FILE]";
inline constexpr absl::string_view kConnectUsage =
    "boneyard connect NAME --token-file F | --token T";
inline constexpr absl::string_view kBotUsage =
    "boneyard bot NAME --token T | --token-file F [--kind random|KIND[:LEVEL]] [--seed S] "
    "[--reconnect-for 30s] | bot --ladder ID --player-token-file F [--kind KIND[:LEVEL]] "
    "[--matches N] [--max-concurrent N] [--accept-rated] [--matchmaking-target H:P] [--seed S]";
inline constexpr absl::string_view kRateBotsUsage =
    "boneyard rate-bots --game G --bots A,B,... --deals N [--rules k=v,...] [--seed S] "
    "[--jobs N] [--json]";
inline constexpr absl::string_view kLoadUsage =
    "boneyard load --matches K --game G [--rules k=v,...] [--seats N] [--duration 30s] "
    "[--warmup 0s] [--finish N] [--metrics-url URL] [--channels N] [--seed S] [--think-time 0s] "
    "[--lean-views] [--reconnect-for 0s] [--verify] [--json]";
inline constexpr absl::string_view kParkedUsage =
    "boneyard parked [list [--page-size N] [--page-token T] | retry NAME | drop NAME] [--json]";
inline constexpr absl::string_view kLeaderboardUsage =
    "boneyard leaderboard GAME [--page-size N] [--page-token T] [--all-results] [--json]";
inline constexpr absl::string_view kRatingsUsage =
    "boneyard ratings PLAYER --game G [--page-size N] [--page-token T] [--json]";

inline constexpr absl::string_view kPlayerUsage =
    "boneyard player create ID [--name N] [--bot] | show ID | matches ID [--page-size N] "
    "[--page-token T] | rotate-token ID [--json]";
inline constexpr absl::string_view kTournamentUsage =
    "boneyard tournament pair-next FILE.trf [--fast] [--out FILE] | check FILE.trf | "
    "standings FILE.trf [--tiebreaks BH/C1,BH,SB,DE,WIN] | "
    "create --game G --format swiss|round-robin|knockout|partner-rotation|arena|league [--id ID] "
    "[--name N] [--rounds N] [--duration D] [--round-interval D [--round-deadline D] "
    "[--first-round TIME] [--division-size N] [--promotion N] [--previous-season ID]] "
    "[--team-size N] [--best-of N] [--double] [--elimination single|double] "
    "[--table-size N [--min-table-size N] [--placement-points 3,2,1,0]] [--duplicate] "
    "[--tiebreaks BH,SB,...] [--rated] [--rules k=v,...] [--per-move D] "
    "[--timeout-policy auto|forfeit] [--manual-rounds] | "
    "register ID [--player P | --bot KIND] [--bye-rounds 2,3] | "
    "register-team ID --players A,B | --party P | --bot KIND | withdraw ID NUMBER | start ID | "
    "advance ID | show ID | list [--state registration|running|finished] | "
    "pairings ID [ROUND] | standings ID [--through ROUND] | export ID [--out FILE] | "
    "import FILE.trf --game G [--id ID] [--rounds N] [--entrants P1,A+B,bot:KIND,...] "
    "[create's other flags] [--json]";
inline constexpr absl::string_view kQueueUsage =
    "boneyard queue list [--game G] | show ID | join ID [--party P] [--no-play] | "
    "create ID --game G [--name N] [--format duel|table:MIN-MAX|teams:TxS] [--rules k=v,...] "
    "[--casual] [--window I,P,M] [--per-move D] [--bot-fill AFTER] [--bot KIND] "
    "[--bot-levels SKILL:KIND,...] [--bots-rated] [--max-wait D] [--short-table-after D] | "
    "delete ID [--json]";
inline constexpr absl::string_view kLadderUsage =
    "boneyard ladder create ID --game G [--name N] [--rules k=v,...] "
    "[--house-bots ID=KIND[:LEVEL],...] [--fill-bot ID] [--weight W] [--daily-cap N] "
    "[--pool-wait 30s] | "
    "list [--game G] | show ID | join ID [--rated-vs-bots] | "
    "challenge ID bots/BOT|PLAYER|pool [--rated] | "
    "challenge-show|accept|decline CHALLENGE [--reason R] [--json]";
inline constexpr absl::string_view kPartyUsage =
    "boneyard party create | join CODE | leave NAME | show NAME [--json]";
inline constexpr absl::string_view kTicketUsage =
    "boneyard ticket show NAME | cancel NAME [--json]";

// The matchmaking commands talk to the matchmaking service: --matchmaking-target, else this
// variable, else the default; a player's own calls take --player-token-file or this variable.
inline constexpr absl::string_view kDefaultMatchmakingTarget = "127.0.0.1:50071";
inline constexpr absl::string_view kMatchmakingTargetVariable = "BONEYARD_MATCHMAKING_TARGET";
inline constexpr absl::string_view kPlayerTokenVariable = "BONEYARD_PLAYER_TOKEN";

// The ratings commands talk to the ratings service: --ratings-target, else this variable,
// else the default.
inline constexpr absl::string_view kDefaultRatingsTarget = "127.0.0.1:50061";
inline constexpr absl::string_view kRatingsTargetVariable = "BONEYARD_RATINGS_TARGET";

int RunCreate(const std::vector<std::string>& args, cli::Io& io);
int RunMatches(const std::vector<std::string>& args, cli::Io& io);
int RunMatch(const std::vector<std::string>& args, cli::Io& io);
int RunAbort(const std::vector<std::string>& args, cli::Io& io);
int RunWatch(const std::vector<std::string>& args, cli::Io& io);
int RunRecord(const std::vector<std::string>& args, cli::Io& io);
int RunConnect(const std::vector<std::string>& args, cli::Io& io);
int RunBot(const std::vector<std::string>& args, cli::Io& io);
int RunLoad(const std::vector<std::string>& args, cli::Io& io);
int RunRateBots(const std::vector<std::string>& args, cli::Io& io);
int RunLeaderboard(const std::vector<std::string>& args, cli::Io& io);
int RunRatings(const std::vector<std::string>& args, cli::Io& io);
int RunParked(const std::vector<std::string>& args, cli::Io& io);
int RunPlayer(const std::vector<std::string>& args, cli::Io& io);
int RunQueue(const std::vector<std::string>& args, cli::Io& io);
int RunTournament(const std::vector<std::string>& args, cli::Io& io);
int RunParty(const std::vector<std::string>& args, cli::Io& io);
int RunTicket(const std::vector<std::string>& args, cli::Io& io);
int RunLadder(const std::vector<std::string>& args, cli::Io& io);

// The matchmaking service's call plumbing (matchmaking_commands.cc), shared with the
// tournament commands because the same service serves TournamentService: `specs` plus
// --matchmaking-target, --player-token-file, --operator-token-file and --json.
std::vector<cli::FlagSpec> MatchmakingFlags(std::vector<cli::FlagSpec> specs);
// A channel to --matchmaking-target, else $BONEYARD_MATCHMAKING_TARGET, else the default.
std::shared_ptr<grpc::Channel> MatchmakingChannel(const cli::ParsedArgs& args);
// The token a call goes with: the player's when given, else the operator's when given, else
// none (the service says what it needs).
absl::StatusOr<std::string> CallToken(const cli::ParsedArgs& args);
// A context for one unary call: the bearer token (if any) and a 30 s deadline.
std::unique_ptr<grpc::ClientContext> CallContext(const std::string& token);
// "KIND/ID" as given, or a bare ID prefixed.
std::string Named(absl::string_view collection, absl::string_view arg);
// Prints `message` as JSON with --json, else `text`; returns 0.
int Print(const cli::ParsedArgs& args, cli::Io& io, const google::protobuf::Message& message,
          const std::string& text);

// The `boneyard tournament` subcommands that talk to the tournament service
// (tournament_service_commands.cc): `specs` plus their flags, and running one; RunTournament
// parses with the first and hands every subcommand it does not run itself to the second.
std::vector<cli::FlagSpec> TournamentServiceFlags(std::vector<cli::FlagSpec> specs);
int RunTournamentService(const cli::ParsedArgs& args, cli::Io& io);

// Plays seat `token` of `match` on the execution service at `target` from the terminal, as
// `connect` does (connect_command.cc); the exit code.
int PlaySeat(const std::string& target, const std::string& match, const std::string& token,
             cli::Io& io);

// `specs` plus the flags of every service command: --target, and --operator-token-file when
// `operator_call` is kOperator.
enum class TokenUse { kNone, kOperator };
std::vector<cli::FlagSpec> ServiceFlags(std::vector<cli::FlagSpec> specs,
                                        TokenUse token_use = TokenUse::kNone);

// A stub on a fresh channel to --target (or $BONEYARD_TARGET, or the default).
std::unique_ptr<v1::ExecutionService::Stub> NewStub(const cli::ParsedArgs& args);

// Prints "boneyard: <rpc>: <CODE>: <message>"; returns kExitService.
int RpcFailure(cli::Io& io, absl::string_view rpc, const grpc::Status& status);

// The operator token (--operator-token-file or $BONEYARD_OPERATOR_TOKEN) into `token`; on
// failure prints the error and returns the exit code: 2 when neither is given, 3 when the file
// cannot be read.
std::optional<int> GetOperatorToken(const cli::ParsedArgs& args, cli::Io& io,
                                    absl::string_view usage, std::string& token);
// A seat token from --token or --token-file (exactly one), with the same exit codes.
std::optional<int> GetSeatToken(const cli::ParsedArgs& args, cli::Io& io, absl::string_view usage,
                                std::string& token);

// The match named on the command line: "matches/ID" as given, or a bare ID prefixed.
// INVALID_ARGUMENT when missing or empty.
absl::StatusOr<std::string> MatchNameArg(const cli::ParsedArgs& args);

// "30s", "1m30s", "500ms" (absl::ParseDuration); `flag` names it in errors. Negative values
// are errors.
absl::StatusOr<absl::Duration> ParseDurationFlag(absl::string_view text, absl::string_view flag);

// --rules "k=v,..." typed for `game`: each option's type comes from the engine registry's
// OptionSpec (its Parse also checks ranges and choices), `preset` is a string. An option the
// local registry does not know is passed on for the service to judge, typed by its look:
// true/false, a whole number, else a string. Errors name --rules and the option.
absl::StatusOr<RuleMap> ParseRulesFlag(absl::string_view game, absl::string_view text);

// --seats "player:alice,bot:greedy,bot:random:2": one Seat per entry. Errors name --seats.
absl::StatusOr<std::vector<v1::Seat>> ParseSeatsFlag(absl::string_view text);

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_COMMAND_COMMON_H_
