// `boneyard tournament`: the commands that need no service — pairing the next round of a
// TRF-16 file (as FIDE asks of endorsed pairing programs, so programs can be checked against
// one another), checking every round of a file against the Dutch system (an arbiter's audit),
// standings — and the dispatch to the tournament service's commands
// (tournament_service_commands.cc).
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/cli/common.h"
#include "services/client/command_common.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "services/matchmaking/tournament/swiss_state.h"
#include "services/matchmaking/tournament/tiebreaks.h"
#include "services/matchmaking/tournament/trf.h"

namespace boneyard::client {
namespace {

using tournament::Board;
using tournament::EventRecord;

absl::StatusOr<EventRecord> ReadTrf(const std::string& path, cli::Io& io) {
  absl::StatusOr<std::string> text = cli::ReadInput(path, io.in);
  if (!text.ok()) return text.status();
  absl::StatusOr<EventRecord> event = tournament::ParseTrf(*text);
  if (!event.ok()) {
    const std::string source = path == "-" ? "standard input" : path;
    return absl::Status(event.status().code(),
                        absl::StrCat(source, ": ", event.status().message()));
  }
  return event;
}

// The pairing programs' exchange format (JaVaFo's and bbpPairings' -p output): the number of
// boards, then "white black" per board, the PAB as "TPN 0".
std::string PairingText(const std::vector<Board>& boards) {
  std::string out = absl::StrCat(boards.size(), "\n");
  for (const Board& b : boards) absl::StrAppend(&out, b.white, " ", b.black, "\n");
  return out;
}

int RunPairNext(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() != 2) {
    return cli::UsageError(io, "tournament pair-next needs a TRF file (or - for standard input)",
                           kTournamentUsage);
  }
  absl::StatusOr<EventRecord> event = ReadTrf(args.positional()[1], io);
  if (!event.ok()) return cli::Fail(io, cli::kExitBadInput, event.status().message());
  const int round = tournament::RoundsPlayed(*event) + 1;
  if (event->total_rounds == 0) {
    return cli::Fail(io, cli::kExitBadInput,
                     "the file does not say how many rounds the event has (an XXR line)");
  }
  auto boards = args.Has("fast") ? tournament::PairFastSwissRound(*event, round)
                                 : tournament::PairDutchRound(*event, round);
  if (!boards.ok()) {
    return cli::Fail(io, cli::kExitBadInput,
                     absl::StrCat("round ", round, ": ", boards.status().message()));
  }
  const std::string text = PairingText(*boards);
  if (std::optional<std::string> out = args.Value("out")) {
    if (absl::Status s = cli::WriteTextFile(*out, text); !s.ok()) {
      return cli::Fail(io, cli::kExitBadInput, s.message());
    }
    return cli::kExitOk;
  }
  io.out << text;
  return cli::kExitOk;
}

// Pairs every round of the file again from what came before it and compares.
int RunCheck(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() != 2) {
    return cli::UsageError(io, "tournament check needs a TRF file (or - for standard input)",
                           kTournamentUsage);
  }
  absl::StatusOr<EventRecord> event = ReadTrf(args.positional()[1], io);
  if (!event.ok()) return cli::Fail(io, cli::kExitBadInput, event.status().message());
  const int played = tournament::RoundsPlayed(*event);
  int differing = 0;
  for (int round = 1; round <= played; ++round) {
    auto expected = tournament::PairDutchRound(tournament::RecordBeforeRound(*event, round), round);
    if (!expected.ok()) {
      io.out << "round " << round << ": " << expected.status().message() << "\n";
      ++differing;
      continue;
    }
    std::vector<Board> actual;
    for (const auto& e : event->entrants) {
      if (static_cast<int>(e.rounds.size()) < round) continue;
      const auto& entry = e.rounds[round - 1];
      if (entry.code == tournament::RoundCode::kPairingBye) actual.push_back({e.tpn, 0});
      if (entry.opponent != 0 && entry.colour == tournament::Colour::kWhite) {
        actual.push_back({e.tpn, entry.opponent});
      }
    }
    auto by_tpn = [](const Board& a, const Board& b) {
      return std::pair(a.white, a.black) < std::pair(b.white, b.black);
    };
    std::vector<Board> want = *expected;
    std::sort(want.begin(), want.end(), by_tpn);
    std::sort(actual.begin(), actual.end(), by_tpn);
    if (want == actual) {
      io.out << "round " << round << ": agrees\n";
      continue;
    }
    ++differing;
    io.out << "round " << round << ": differs; the Dutch system pairs\n" << PairingText(*expected);
  }
  if (differing > 0) {
    return cli::Fail(
        io, cli::kExitBadInput,
        absl::StrCat(differing, " of ", played, " rounds differ from the Dutch system"));
  }
  return cli::kExitOk;
}

// The standings after the rounds played, with the tie-breaks in the order given (C.07 codes).
int RunStandings(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() != 2) {
    return cli::UsageError(
        io, "tournament standings needs a TRF file (or - for standard input) or a tournament id",
        kTournamentUsage);
  }
  std::vector<tournament::TieBreak> order;
  const std::string list = args.Value("tiebreaks").value_or("BH/C1,BH,SB,DE,WIN");
  for (absl::string_view name : absl::StrSplit(list, ',')) {
    absl::StatusOr<tournament::TieBreak> tb =
        tournament::ParseTieBreak(std::string_view(name.data(), name.size()));
    if (!tb.ok()) {
      return cli::UsageError(io, absl::StrCat("--tiebreaks: ", tb.status().message()),
                             kTournamentUsage);
    }
    order.push_back(*tb);
  }
  // Points rank first unless the list says where they (or a team event's match points) go.
  const bool points_listed =
      std::find(order.begin(), order.end(), tournament::TieBreak::kPoints) != order.end() ||
      std::find(order.begin(), order.end(), tournament::TieBreak::kMatchPoints) != order.end();
  std::vector<tournament::TieBreak> ranking = order;
  if (!points_listed) ranking.insert(ranking.begin(), tournament::TieBreak::kPoints);
  const size_t shown_from = points_listed ? 0 : 1;
  absl::StatusOr<EventRecord> event = ReadTrf(args.positional()[1], io);
  if (!event.ok()) return cli::Fail(io, cli::kExitBadInput, event.status().message());
  const int played = tournament::RoundsPlayed(*event);
  const auto rows = tournament::Standings(*event, played, ranking);
  io.out << absl::StrFormat("%-5s %-5s %-24s %6s", "rank", "tpn", "name", "points");
  for (tournament::TieBreak tb : order) {
    io.out << absl::StrFormat(" %6s", tournament::TieBreakName(tb));
  }
  io.out << "\n";
  for (const auto& row : rows) {
    io.out << absl::StrFormat("%-5d %-5d %-24s %6.1f", row.rank, row.tpn,
                              event->ByTpn(row.tpn).name.substr(0, 24), row.points);
    for (size_t k = shown_from; k < row.values.size(); ++k) {
      io.out << absl::StrFormat(" %6.2f", row.values[k]);
    }
    io.out << "\n";
  }
  return cli::kExitOk;
}

// `standings` has an offline and a service form; the argument tells which: "-", a name ending
// in .trf or an existing file is read offline, anything else is a tournament id.
bool NamesTrfFile(const cli::ParsedArgs& args) {
  if (args.positional().size() < 2) return true;  // the offline form explains what it needs
  const std::string& arg = args.positional()[1];
  std::error_code error;
  return arg == "-" || absl::EndsWithIgnoreCase(arg, ".trf") ||
         (std::filesystem::exists(arg, error) && !std::filesystem::is_directory(arg, error));
}

}  // namespace

int RunTournament(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     TournamentServiceFlags({{"fast", cli::FlagKind::kSwitch},
                                             {"out", cli::FlagKind::kValue},
                                             {"tiebreaks", cli::FlagKind::kValue}}),
                     /*max_positional=*/3);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kTournamentUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kTournamentUsage);
  if (parsed->positional().empty()) {
    return cli::UsageError(io, "tournament needs a subcommand", kTournamentUsage);
  }
  const std::string& sub = parsed->positional()[0];
  if (sub == "pair-next") return RunPairNext(*parsed, io);
  if (sub == "check") return RunCheck(*parsed, io);
  if (sub == "standings" && NamesTrfFile(*parsed)) return RunStandings(*parsed, io);
  return RunTournamentService(*parsed, io);
}

}  // namespace boneyard::client
