#include "services/client/client_commands.h"

#include "absl/strings/str_cat.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"

namespace boneyard::client {

std::optional<int> RunClientCommand(const std::string& command,
                                    const std::vector<std::string>& args, cli::Io& io) {
  if (command == "create") return RunCreate(args, io);
  if (command == "matches") return RunMatches(args, io);
  if (command == "match") return RunMatch(args, io);
  if (command == "abort") return RunAbort(args, io);
  if (command == "watch") return RunWatch(args, io);
  if (command == "record") return RunRecord(args, io);
  if (command == "connect") return RunConnect(args, io);
  if (command == "bot") return RunBot(args, io);
  if (command == "load") return RunLoad(args, io);
  if (command == "rate-bots") return RunRateBots(args, io);
  if (command == "leaderboard") return RunLeaderboard(args, io);
  if (command == "ratings") return RunRatings(args, io);
  if (command == "parked") return RunParked(args, io);
  if (command == "player") return RunPlayer(args, io);
  if (command == "queue") return RunQueue(args, io);
  if (command == "party") return RunParty(args, io);
  if (command == "ticket") return RunTicket(args, io);
  if (command == "tournament") return RunTournament(args, io);
  if (command == "ladder") return RunLadder(args, io);
  return std::nullopt;
}

std::string ClientUsage() {
  return absl::StrCat(
      "\n"
      "service commands (the execution service at --target HOST:PORT, else $", kTargetVariable,
      ", else ", kDefaultTarget, "):\n"
      "  create     create a match (operator token: --operator-token-file F or $",
      kOperatorTokenVariable, ")\n"
      "             ", kCreateUsage, "\n",
      "  matches    list matches, newest first\n"
      "             ", kMatchesUsage, "\n",
      "  match      show one match\n"
      "             ", kMatchUsage, "\n",
      "  abort      abort a match being played (operator token)\n"
      "             ", kAbortUsage, "\n",
      "  parked     results a receiver refused for good: list, deliver again, drop (operator token)\n"
      "             ", kParkedUsage, "\n",
      "  watch      follow a match as a spectator until it ends\n"
      "             ", kWatchUsage, "\n",
      "  record     fetch a finished match's record (for 'boneyard replay')\n"
      "             ", kRecordUsage, "\n",
      "  connect    play a seat from the terminal\n"
      "             ", kConnectUsage, "\n",
      "  bot        play a seat with a remote random bot\n"
      "             ", kBotUsage, "\n",
      "  load       keep K matches of remote bots running and report throughput and latency\n"
      "             ", kLoadUsage, "\n",
      "  rate-bots  rate bots on one Weng-Lin scale from a round robin on duplicate deals\n"
      "             (in-process, no service)\n"
      "             ", kRateBotsUsage, "\n",
      "\n"
      "ratings commands (the ratings service at --ratings-target HOST:PORT, else $",
      kRatingsTargetVariable, ", else ", kDefaultRatingsTarget, "):\n"
      "  leaderboard a game's leaderboard (Castle Rock: its best results)\n"
      "             ", kLeaderboardUsage, "\n",
      "  ratings    a player's rating in a game and its history, newest first\n"
      "             ", kRatingsUsage, "\n",
      "\n"
      "matchmaking commands (the matchmaking service at --matchmaking-target HOST:PORT, else $",
      kMatchmakingTargetVariable, ", else ", kDefaultMatchmakingTarget,
      "; a player's token: --player-token-file F or $", kPlayerTokenVariable, "):\n"
      "  player     create an account (operator), show one, list its matches\n"
      "             ", kPlayerUsage, "\n",
      "  queue      list, show, create and delete queues (operator); join one: search, then play\n"
      "             ", kQueueUsage, "\n",
      "  party      create, join (invite code), leave or show a party\n"
      "             ", kPartyUsage, "\n",
      "  ticket     show or cancel a ticket\n"
      "             ", kTicketUsage, "\n",
      "  ladder     ladders of people and bots: create (operator), show the standings, join,\n"
      "             challenge a house bot or a member, answer a challenge\n"
      "             ", kLadderUsage, "\n",
      "\n"
      "tournament commands (FIDE's TRF-16 files need no service, docs/tournaments.md; the rest\n"
      "talk to the tournament service at the matchmaking service's address):\n"
      "  tournament pair the next round of a Swiss (the Dutch system, or --fast); check every\n"
      "             round of a file against the Dutch system; standings with tie-breaks;\n"
      "             create, register, start and follow events on the service\n"
      "             ", kTournamentUsage, "\n",
      "\n"
      "exit code 4: the service answered with an error or could not be reached\n");
}

cli::CommandGroup ClientCommands() { return {&RunClientCommand, &ClientUsage}; }

}  // namespace boneyard::client
