// `boneyard replay FILE|- [--json]`: checks a record with the referee and shows the position
// it ends in. A record is complete evidence (it holds every deal), so the spectator view and
// the current seat's legal actions are both shown.
#include <memory>
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/cli/args.h"
#include "engine/cli/commands.h"
#include "engine/cli/common.h"
#include "engine/core/game.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "nlohmann/json.hpp"

namespace boneyard::cli {
namespace {

using nlohmann::json;

json ResultJson(const RecordedResult& result) {
  return {{"scores", result.scores},
          {"ranks", result.ranks},
          {"winners", result.winners},
          {"details", result.details}};
}

json StateJson(const State& state) {
  json out = {{"game", state.game().name()},
              {"rules", RulesToJson(state.game().rules().values())},
              {"round", state.Round()},
              {"terminal", state.IsTerminal()},
              {"current_seat", state.CurrentSeat()},
              {"scores", state.Scores()},
              {"legal_actions", state.LegalActionStrings()},
              {"view", state.ViewFor(kSpectator)->ToJson()}};
  if (state.IsTerminal()) {
    out["ranks"] = state.Ranks();
    out["result"] = ResultJson(ResultOf(state));
  }
  return out;
}

// The view's text already says the round, whose turn it is and the scores.
void PrintStateText(const State& state, std::ostream& out) {
  out << "game: " << state.game().name() << " (" << state.game().rules().ToString() << ")\n";
  out << state.ViewFor(kSpectator)->ToText() << "\n";
  if (state.IsTerminal()) {
    const RecordedResult result = ResultOf(state);
    out << "result: ranks " << absl::StrJoin(result.ranks, " / ") << ", winners seat"
        << (result.winners.size() == 1 ? " " : "s ") << absl::StrJoin(result.winners, ", ");
    if (!result.details.empty()) out << ", details " << result.details.dump();
    out << "\n";
    return;
  }
  out << "legal actions of seat " << state.CurrentSeat() << ": "
      << absl::StrJoin(state.LegalActionStrings(), ", ") << "\n";
}

}  // namespace

int RunReplay(const std::vector<std::string>& args, Io& io) {
  absl::StatusOr<ParsedArgs> parsed =
      ParseArgs(args, {{"json", FlagKind::kSwitch}}, /*max_positional=*/1);
  if (!parsed.ok()) return UsageError(io, parsed.status().message(), kReplayUsage);
  if (parsed->Has("help")) return PrintCommandHelp(io, kReplayUsage);
  if (parsed->positional().empty()) {
    return UsageError(io, "replay needs a record file (or - for standard input)", kReplayUsage);
  }
  const std::string& path = parsed->positional()[0];

  absl::StatusOr<std::string> text = ReadInput(path, io.in);
  if (!text.ok()) return Fail(io, kExitBadInput, text.status().message());
  const std::string source = path == "-" ? "standard input" : path;
  absl::StatusOr<Record> record = ParseRecord(*text);
  if (!record.ok()) {
    return Fail(io, kExitBadInput, absl::StrCat(source, ": ", record.status().message()));
  }
  // Every referee error (unknown game, bad deal, illegal action) is a problem with the data.
  absl::StatusOr<std::unique_ptr<State>> state = Replay(*record);
  if (!state.ok()) {
    return Fail(io, kExitBadInput, absl::StrCat(source, ": ", state.status().message()));
  }

  if (parsed->Has("json")) {
    io.out << StateJson(**state).dump(2) << "\n";
  } else {
    PrintStateText(**state, io.out);
  }
  return kExitOk;
}

}  // namespace boneyard::cli
