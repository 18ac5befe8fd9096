#include "services/client/engine_seat.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots/bot.h"
#include "engine/bots/observed_match.h"
#include "engine/core/registry.h"
#include "services/client/channel.h"
#include "services/client/proto_json.h"
#include "services/common/engine_proto.h"

namespace boneyard::client {
namespace {

// The view as the engine's View::ToJson() writes it: the CLI's JSON of a SeatView, less what
// only the service adds and the game, which EngineViewMask() leaves out (the match's, known).
nlohmann::json ViewJson(const v1::SeatView& view) {
  nlohmann::json out = SeatViewToJson(view);
  for (const char* not_compared :
       {"match", "game", "sequence", "deadline", "last_event", "result"}) {
    out.erase(not_compared);
  }
  if (!view.has_layout()) out.erase("layout");
  return out;
}

// One seat's bot and its rebuilt match. The RemotePlayer calls on_view and the chooser one at a
// time, so nothing here is locked.
class Seat {
 public:
  Seat(std::shared_ptr<const Game> game, std::unique_ptr<Bot> bot, std::string match, uint64_t seed,
       SeatNote note)
      : game_(std::move(game)),
        bot_(std::move(bot)),
        match_(std::move(match)),
        seed_(seed),
        fallback_(RandomChooser(seed)),
        note_(std::move(note)) {}

  void OnView(const v1::SeatView& view) {
    if (lost_ || view.sequence() <= sequence_) return;  // a hello repeats the current view
    absl::Status status;
    if (!observed_.has_value()) {
      if (view.sequence() != 0) {
        return Lose(absl::StrCat("joined at event ", view.sequence(), ", not the first"));
      }
      observed_.emplace(game_, view.seat(), seed_);
      status = observed_->Start(ViewJson(view));
    } else if (view.sequence() != sequence_ + 1) {
      return Lose(absl::StrCat("events ", sequence_ + 1, " to ", view.sequence() - 1,
                               " were not seen (a reconnect)"));
    } else if (!view.has_last_event() || view.last_event().action().text().empty()) {
      status = absl::OkStatus();  // a forfeit or an abort: the match is over
    } else {
      const v1::MatchEvent& event = view.last_event();
      status = observed_->Observe(event.seat(), event.action().text(), ViewJson(view));
    }
    if (!status.ok()) return Lose(status.message());
    sequence_ = view.sequence();
  }

  std::optional<std::string> Choose(const v1::SeatView& view) {
    if (lost_ || !observed_.has_value() || sequence_ != view.sequence()) return fallback_(view);
    const State& state = observed_->state();
    ActionList legal;
    state.LegalActions(legal);
    if (legal.empty() || state.CurrentSeat() != view.seat()) {
      Lose("the rebuilt match does not have this seat to play");
      return fallback_(view);
    }
    const Action action =
        AskBot(*bot_, state, view.seat(), legal.span(), DeriveSeed(seed_, view.sequence()));
    std::string text = state.ActionToString(action);
    for (const v1::Action& offered : view.legal_actions()) {
      if (offered.text() == text) return text;
    }
    Lose(absl::StrCat("the bot chose '", text, "', which the service does not offer"));
    return fallback_(view);
  }

 private:
  void Lose(absl::string_view why) {
    lost_ = true;
    note_(absl::StrCat(match_, ": playing at random from here: ", why, "\n"));
  }

  std::shared_ptr<const Game> game_;
  std::unique_ptr<Bot> bot_;
  std::string match_;
  uint64_t seed_;
  Chooser fallback_;
  SeatNote note_;
  std::optional<ObservedMatch> observed_;
  int64_t sequence_ = -1;
  bool lost_ = false;
};

}  // namespace

absl::StatusOr<EngineSeat> MakeEngineSeat(const v1::Match& match, absl::string_view bot,
                                          uint64_t seed, SeatNote note) {
  const GameSpec* spec = DefaultRegistry().Find(match.game());
  if (spec == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown game '", match.game(), "'"));
  }
  absl::StatusOr<std::map<std::string, OptionValue>> rules =
      RuleValuesFromProto(match.rules(), *spec);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(match.game(), *rules);
  if (!game.ok()) return game.status();
  absl::StatusOr<std::unique_ptr<Bot>> made = DefaultBots().Make(bot, **game, seed);
  if (!made.ok()) return absl::InvalidArgumentError(made.status().message());
  auto seat = std::make_shared<Seat>(*std::move(game), *std::move(made), match.name(), seed,
                                     std::move(note));
  return EngineSeat{
      .chooser = [seat](const v1::SeatView& view) { return seat->Choose(view); },
      .on_view = [seat](const v1::SeatView& view) { seat->OnView(view); },
  };
}

absl::Status CheckBotKind(absl::string_view bot) {
  // The registry itself decides, with each game's default rules: the kind and level syntax, the
  // kinds, the levels.
  absl::Status level_error;
  for (const std::string& name : DefaultRegistry().Names()) {
    absl::StatusOr<std::shared_ptr<const Game>> game =
        DefaultRegistry().CreateGame(name, RuleText{});
    if (!game.ok()) continue;
    absl::StatusOr<std::unique_ptr<Bot>> made = DefaultBots().Make(bot, **game, 1);
    if (made.ok()) return absl::OkStatus();
    if (absl::IsInvalidArgument(made.status())) level_error = made.status();
  }
  if (!level_error.ok()) return level_error;  // a kind some game has, at a level it has not
  return absl::InvalidArgumentError(
      absl::StrCat("'", bot, "' is not a built-in bot of any game (boneyard games lists them)"));
}

absl::StatusOr<Chooser> PlayWithEngineBot(v1::ExecutionService::StubInterface& stub,
                                          const std::string& match_name, absl::string_view bot,
                                          uint64_t seed, SeatNote note,
                                          RemotePlayerOptions& options) {
  v1::GetMatchRequest get;
  get.set_name(match_name);
  v1::Match match;
  grpc::ClientContext context;
  PrepareUnaryContext(context, "");
  if (grpc::Status got = stub.GetMatch(&context, get, &match); !got.ok()) {
    return absl::UnavailableError(DescribeRpcError("GetMatch", FromGrpc(got)));
  }
  absl::StatusOr<EngineSeat> seat = MakeEngineSeat(match, bot, seed, std::move(note));
  if (!seat.ok()) return seat.status();
  options.on_view = std::move(seat->on_view);
  options.view_mask = EngineViewMask();
  options.replay_events = true;
  return std::move(seat->chooser);
}

google::protobuf::FieldMask EngineViewMask() {
  google::protobuf::FieldMask mask = PlayingViewMask();
  for (const char* field : {"hand", "round", "hand_counts", "boneyard_count", "scores", "layout"}) {
    mask.add_paths(field);
  }
  return mask;
}

}  // namespace boneyard::client
