// EngineSeat: a remote seat played by a built-in bot from the SeatViews the service sends
// (FillSeatView, with the events' public text) chooses at every turn what the same bot chooses
// on the real match; a seat that missed events says so and still plays legal moves.
#include "services/client/engine_seat.h"

#include <memory>
#include <sstream>
#include <string>

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/engine_proto.h"

namespace boneyard::client {
namespace {

using ::testing::HasSubstr;

v1::SeatView ViewOf(const State& state, int seat, int64_t sequence, int actor,
                    const std::string& action) {
  v1::SeatView view;
  FillSeatView(*state.ViewFor(seat), view);
  view.set_match("matches/t");  // the rest as the service fills it (LiveMatch::FillSeatViewOf)
  view.set_game(state.game().name());
  view.set_seat(seat);
  view.set_sequence(sequence);
  if (sequence > 0) {
    view.mutable_last_event()->set_sequence(sequence);
    view.mutable_last_event()->set_seat(actor);
    view.mutable_last_event()->mutable_action()->set_text(action);
  }
  return view;
}

struct Played {
  int decisions = 0;
  int matched = 0;  // the same move as the bot asked on the real match
};

// Plays a match in which `seat` is the EngineSeat running `bot` and the others play at random.
Played PlayAgainstTheRealBot(const std::string& game_name, const RuleText& rules, int seat,
                             const std::string& bot, int skip_view, std::ostream& log) {
  std::shared_ptr<const Game> game = *DefaultRegistry().CreateGame(game_name, rules);
  v1::Match match;
  match.set_name("matches/t");
  match.set_game(game_name);
  *match.mutable_rules() = RulesToProto(game->rules());
  const uint64_t seed = 7;
  absl::StatusOr<EngineSeat> remote =
      MakeEngineSeat(match, bot, seed, [&log](const std::string& l) { log << l; });
  EXPECT_TRUE(remote.ok()) << remote.status();
  if (!remote.ok()) return {};
  std::unique_ptr<Bot> real = *DefaultBots().Make(bot, *game, seed);

  std::unique_ptr<State> state = *game->NewMatch(3);
  Rng rng(9);
  ActionList legal;
  int64_t sequence = 0;
  int actor = -1;
  std::string action_text;
  Played played;
  for (int step = 0; step < 300 && !state->IsTerminal(); ++step) {
    const v1::SeatView view = ViewOf(*state, seat, sequence, actor, action_text);
    if (sequence != skip_view) remote->on_view(view);
    legal.clear();
    state->LegalActions(legal);
    Action action = legal[rng.Below(legal.size())];
    if (state->CurrentSeat() == seat) {
      const std::optional<std::string> chosen = remote->chooser(view);
      EXPECT_TRUE(chosen.has_value());
      if (!chosen.has_value()) return played;
      absl::StatusOr<Action> parsed = state->ResolveAction(seat, *chosen);
      EXPECT_TRUE(parsed.ok()) << *chosen << ": " << parsed.status();
      if (!parsed.ok()) return played;
      const Action expected = AskBot(*real, *state, seat, legal.span(), DeriveSeed(seed, sequence));
      ++played.decisions;
      played.matched += *parsed == expected;
      action = *parsed;
    }
    actor = state->CurrentSeat();
    action_text = state->PublicActionToString(action);
    state->Apply(action);
    ++sequence;
  }
  return played;
}

TEST(EngineSeat, ChoosesWhatTheBotChoosesOnTheRealMatch) {
  for (const auto& [game, rules, bot] : std::vector<std::tuple<std::string, RuleText, std::string>>{
           {"muggins", {{"target", "61"}}, "search:2"},
           {"forty_two", {{"scoring", "marks"}, {"marks_target", "1"}}, "search:4"},
           {"mexican_train",
            {{"preset", "classic_double_9"}, {"players", "3"}, {"rounds", "1"}},
            "greedy"},
           // The engine double leaves its holder's hand as each round begins.
           {"mexican_train",
            {{"preset", "house"}, {"players", "3"}, {"rounds", "2"}},
            "search:2"}}) {
    SCOPED_TRACE(game);
    std::ostringstream log;
    const Played played = PlayAgainstTheRealBot(game, rules, 1, bot, -1, log);
    EXPECT_GT(played.decisions, 5);
    EXPECT_EQ(played.matched, played.decisions);
    EXPECT_EQ(log.str(), "");  // it never fell back to random play
  }
}

TEST(EngineSeat, AfterMissedEventsItSaysSoAndPlaysLegalMoves) {
  std::ostringstream log;
  PlayAgainstTheRealBot("muggins", {{"target", "61"}}, 1, "search:2", 4, log);
  EXPECT_THAT(log.str(), HasSubstr("matches/t: playing at random from here: events 4 to 4"));
}

TEST(EngineSeat, RefusesABotTheGameDoesNotHave) {
  v1::Match match;
  match.set_game("muggins");
  EXPECT_EQ(MakeEngineSeat(match, "oracle", 1, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeEngineSeat(match, "search:9", 1, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  match.set_game("chess");
  EXPECT_EQ(MakeEngineSeat(match, "random", 1, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace boneyard::client
