// `boneyard play`: one person against bots in the terminal (or through a pipe).
//
// The person sees only what their seat may know: before each of their decisions, the view of
// their seat and their numbered legal actions; after each bot decision, the action's text
// ("seat 1 plays 5-0 right", "seat 1 plays draw"), which never names a hidden tile.
//
// Reproducibility: the match is game->NewMatch(seed) (default seed 1) and the bot in seat s is
// seeded with DeriveSeed(seed, 1000 + s), the same bot seeding as one simulate match.
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/bots/bot.h"
#include "engine/cli/args.h"
#include "engine/cli/bot_match.h"  // kBotSeedStream, kWorldSeedStream: seeded as simulate seeds
#include "engine/cli/commands.h"
#include "engine/cli/common.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/records/record.h"

namespace boneyard::cli {
namespace {

constexpr absl::string_view kHuman = "human";

struct PlayOptions {
  std::string game;
  std::string rules;
  std::vector<std::string> seats;
  int human_seat = 0;
  uint64_t seed = 1;
  std::optional<std::string> record_path;
};

// The seat the person plays: --seat, or the (only) seat named "human".
absl::StatusOr<int> HumanSeat(const ParsedArgs& args, const std::vector<std::string>& seats) {
  const int n = static_cast<int>(seats.size());
  absl::StatusOr<std::optional<int64_t>> flag = args.Int("seat", 0, n - 1);
  if (!flag.ok()) return flag.status();
  std::optional<int> human;
  if (flag->has_value()) {
    human = static_cast<int>(**flag);
    if (seats[*human] != kHuman) {
      return absl::InvalidArgumentError(absl::StrCat("--seat ", *human, " is '", seats[*human],
                                                     "' in --seats; the seat you play must be '",
                                                     kHuman, "'"));
    }
  }
  for (int s = 0; s < n; ++s) {
    if (seats[s] != kHuman || s == human) continue;
    if (human.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat ", s, " is also '", kHuman, "': only one person can play for now (seat ", *human,
          "); give the other seats bots"));
    }
    human = s;
  }
  if (!human.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--seats names no '", kHuman, "' seat; use 'boneyard simulate' for bot-only matches"));
  }
  return *human;
}

absl::StatusOr<PlayOptions> ReadOptions(const ParsedArgs& args) {
  PlayOptions options;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  options.game = *game;
  options.rules = args.Value("rules").value_or("");

  const std::optional<std::string> seats = args.Value("seats");
  if (!seats.has_value()) {
    return absl::InvalidArgumentError("--seats is required ('human' for you, a bot for the others)");
  }
  absl::StatusOr<std::vector<std::string>> seat_list = ParseSeatList(*seats);
  if (!seat_list.ok()) return seat_list.status();
  options.seats = *std::move(seat_list);

  absl::StatusOr<int> human = HumanSeat(args, options.seats);
  if (!human.ok()) return human.status();
  options.human_seat = *human;

  absl::StatusOr<std::optional<uint64_t>> seed = args.Uint64("seed");
  if (!seed.ok()) return seed.status();
  options.seed = seed->value_or(1);
  options.record_path = args.Value("record");
  return options;
}

// One bot per seat; the person's seat has none.
absl::StatusOr<std::vector<std::unique_ptr<Bot>>> MakeBots(const Game& game,
                                                           const PlayOptions& options) {
  std::vector<std::unique_ptr<Bot>> bots;
  for (int s = 0; s < static_cast<int>(options.seats.size()); ++s) {
    if (s == options.human_seat) {
      bots.push_back(nullptr);
      continue;
    }
    absl::StatusOr<std::unique_ptr<Bot>> bot =
        DefaultBots().Make(options.seats[s], game, DeriveSeed(options.seed, kBotSeedStream + s));
    if (!bot.ok()) return bot.status();
    bots.push_back(*std::move(bot));
  }
  return bots;
}

bool AllDigits(absl::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

class PlaySession {
 public:
  PlaySession(const PlayOptions& options, std::unique_ptr<State> state,
              std::vector<std::unique_ptr<Bot>> bots, Io& io)
      : options_(options),
        state_(std::move(state)),
        bots_(std::move(bots)),
        builder_(*state_, options.seed, options.seats),
        io_(io) {}

  int Run() {
    PrintHeader();
    int shown_round = -1;
    while (!state_->IsTerminal()) {
      if (state_->Round() != shown_round) {
        AnnounceRound(shown_round);
        shown_round = state_->Round();
      }
      const int seat = state_->CurrentSeat();
      std::optional<Action> action;
      if (seat == options_.human_seat) {
        action = AskPerson();
        if (!action.has_value()) return Leave();
      } else {
        action = AskBot(*bots_[seat], *state_, seat, Legal().span(),
                        DeriveSeed(options_.seed, kWorldSeedStream + decisions_++));
        if (!state_->IsLegal(*action)) {
          return Fail(io_, kExitInternal,
                      absl::StrCat("bot '", options_.seats[seat], "' in seat ", seat,
                                   " chose an illegal action (code ", *action, ")"));
        }
        io_.out << "seat " << seat << " plays " << state_->ActionToString(*action) << "\n";
      }
      builder_.Add(*state_, *action);
      state_->Apply(*action);
    }
    PrintFinal();
    return SaveRecord();
  }

 private:
  ActionList Legal() const {
    ActionList legal;
    state_->LegalActions(legal);
    return legal;
  }

  std::string SeatName(int seat) const {
    return seat == options_.human_seat ? std::string("you") : options_.seats[seat];
  }

  void PrintHeader() {
    const Game& game = state_->game();
    io_.out << game.name() << " (" << game.rules().ToString() << "), seed " << options_.seed
            << "\n";
    for (int s = 0; s < game.num_seats(); ++s) {
      io_.out << "  seat " << s << ": " << SeatName(s) << "\n";
    }
    io_.out << "Answer with an action's number or its text; 'quit' leaves.\n";
  }

  void AnnounceRound(int previous_round) {
    if (previous_round >= 0) {
      io_.out << "round " << previous_round + 1
              << " over; scores: " << absl::StrJoin(state_->Scores(), " / ") << "\n";
    }
    io_.out << "\n=== round " << state_->Round() + 1 << " ===\n";
  }

  void ShowChoices(const std::vector<std::string>& legal) {
    io_.out << "\n" << state_->ViewFor(options_.human_seat)->ToText() << "\nyour actions:\n";
    for (size_t i = 0; i < legal.size(); ++i) io_.out << "  " << i + 1 << ") " << legal[i] << "\n";
  }

  // The person's next action, or nullopt when they quit or the input ends. Bad answers are
  // explained (the engine names the rule an illegal move breaks) and asked again.
  std::optional<Action> AskPerson() {
    const std::vector<std::string> legal_text = state_->LegalActionStrings();
    const ActionList legal = Legal();
    ShowChoices(legal_text);
    std::string line;
    while (true) {
      io_.out << "your move> " << std::flush;
      if (!std::getline(io_.in, line)) {
        io_.out << "\n";
        return std::nullopt;
      }
      const std::string answer(absl::StripAsciiWhitespace(line));
      // Piped answers are not echoed by a terminal; echo them so the transcript reads well.
      if (!io_.in_is_tty) io_.out << answer << "\n";
      if (answer.empty()) continue;
      const std::string lower = absl::AsciiStrToLower(answer);
      if (lower == "quit" || lower == "exit") return std::nullopt;
      if (lower == "help" || lower == "?") {
        ShowChoices(legal_text);
        continue;
      }
      if (AllDigits(answer)) {
        int number = 0;
        if (absl::SimpleAtoi(answer, &number) && number >= 1 && number <= legal.size()) {
          return legal[number - 1];
        }
        io_.out << "  no action numbered " << answer << "; choose 1 to " << legal.size()
                << " or type the action\n";
        continue;
      }
      absl::StatusOr<Action> action = state_->ResolveAction(options_.human_seat, answer);
      if (action.ok()) return *action;
      io_.out << "  '" << answer << "' is not possible: " << action.status().message() << "\n";
    }
  }

  int Leave() {
    io_.out << "You left the match in round " << state_->Round() + 1
            << "; scores: " << absl::StrJoin(state_->Scores(), " / ") << "\n";
    return SaveRecord();
  }

  void PrintFinal() {
    const std::vector<int> scores = state_->Scores();
    const std::vector<int> ranks = state_->Ranks();
    io_.out << "\n" << state_->ViewFor(options_.human_seat)->ToText() << "\n\nmatch over\n";
    for (int s = 0; s < static_cast<int>(scores.size()); ++s) {
      io_.out << "  seat " << s << " (" << SeatName(s) << "): score " << scores[s] << ", rank "
              << ranks[s] << "\n";
    }
    const nlohmann::json details = state_->ResultDetails();
    if (!details.empty()) io_.out << "details: " << details.dump() << "\n";
    io_.out << (ranks[options_.human_seat] == 1
                    ? std::string("You win!")
                    : absl::StrCat("You finished rank ", ranks[options_.human_seat], "."))
            << "\n";
  }

  int SaveRecord() {
    if (!options_.record_path.has_value()) return kExitOk;
    const std::string text = RecordToJson(builder_.Build(*state_)).dump(2) + "\n";
    if (absl::Status s = WriteTextFile(*options_.record_path, text); !s.ok()) {
      return Fail(io_, kExitBadInput, s.message());
    }
    io_.out << "record written to " << *options_.record_path << "\n";
    return kExitOk;
  }

  const PlayOptions& options_;
  std::unique_ptr<State> state_;
  std::vector<std::unique_ptr<Bot>> bots_;
  RecordBuilder builder_;
  Io& io_;
  uint64_t decisions_ = 0;  // bot decisions so far: seeds each one's worlds
};

}  // namespace

int RunPlay(const std::vector<std::string>& args, Io& io) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, {{"game", FlagKind::kValue},
                                                       {"rules", FlagKind::kValue},
                                                       {"seats", FlagKind::kValue},
                                                       {"seat", FlagKind::kValue},
                                                       {"seed", FlagKind::kValue},
                                                       {"record", FlagKind::kValue}});
  if (!parsed.ok()) return UsageError(io, parsed.status().message(), kPlayUsage);
  if (parsed->Has("help")) return PrintCommandHelp(io, kPlayUsage);

  absl::StatusOr<PlayOptions> options = ReadOptions(*parsed);
  if (!options.ok()) return UsageError(io, options.status().message(), kPlayUsage);
  absl::StatusOr<std::shared_ptr<const Game>> game =
      CreateGameForSeats(options->game, options->rules, static_cast<int>(options->seats.size()));
  if (!game.ok()) return UsageError(io, game.status().message(), kPlayUsage);
  options->seats = ResolveDefaultBots(**game, std::move(options->seats));
  absl::StatusOr<std::vector<std::unique_ptr<Bot>>> bots = MakeBots(**game, *options);
  if (!bots.ok()) return UsageError(io, bots.status().message(), kPlayUsage);
  absl::StatusOr<std::unique_ptr<State>> state = (*game)->NewMatch(options->seed);
  if (!state.ok()) return Fail(io, kExitInternal, state.status().message());

  PlaySession session(*options, *std::move(state), *std::move(bots), io);
  return session.Run();
}

}  // namespace boneyard::cli
