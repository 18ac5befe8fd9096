// The public effect of each event (services/execution/events.h): the points each seat scored
// and whether a round or the match ended, as every seat and spectator sees it. Checked on every
// event of whole matches of bots against what the engine's states say.
#include "services/execution/events.h"

#include <memory>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "gtest/gtest.h"

namespace boneyard::execution {
namespace {

std::unique_ptr<State> NewMatch(absl::string_view game_name, uint64_t seed) {
  absl::StatusOr<std::shared_ptr<const Game>> game = DefaultRegistry().CreateGame(game_name, RuleText{});
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<State>> state = (*game)->NewMatch(seed);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *std::move(state) : nullptr;
}

// Plays the match with the game's default bot in every seat (bots that play to win end the
// match; the rules have no other bound) and checks each event's effect. Returns how many events
// scored, ended a round and ended the match.
struct Seen {
  int scored = 0;
  int round_over = 0;
  int match_over = 0;
};
Seen CheckEveryEffect(State& state) {
  Seen seen;
  std::vector<std::unique_ptr<Bot>> bots;
  for (int seat = 0; seat < state.game().num_seats(); ++seat) {
    absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().MakeDefault(state.game(), seat + 1);
    EXPECT_TRUE(bot.ok()) << bot.status();
    if (!bot.ok()) return seen;
    bots.push_back(*std::move(bot));
  }
  ActionList legal;
  for (int step = 0; !state.IsTerminal() && step < 100000; ++step) {
    legal.clear();
    state.LegalActions(legal);
    const std::unique_ptr<State> before = state.Clone();
    const int seat = state.CurrentSeat();
    state.Apply(bots[seat]->ChooseAction(*state.ViewFor(seat), legal.span()));
    const google::protobuf::Struct effect = EffectOf(*before, state);
    const auto& fields = effect.fields();

    const std::vector<int> old_scores = before->Scores();
    const std::vector<int> new_scores = state.Scores();
    if (old_scores != new_scores) {
      ++seen.scored;
      EXPECT_TRUE(fields.contains("points")) << "step " << step;
      if (fields.contains("points")) {
        const google::protobuf::ListValue& points = fields.at("points").list_value();
        EXPECT_EQ(points.values_size(), static_cast<int>(new_scores.size()));
        for (int seat = 0; seat < points.values_size(); ++seat) {
          EXPECT_EQ(points.values(seat).number_value(), new_scores[seat] - old_scores[seat])
              << "step " << step << ", seat " << seat;
        }
      }
    } else {
      EXPECT_FALSE(fields.contains("points")) << "step " << step;
    }

    const bool round_over = state.IsTerminal() || state.Round() != before->Round();
    EXPECT_EQ(fields.contains("round_over"), round_over) << "step " << step;
    if (round_over) ++seen.round_over;
    if (fields.contains("round_over")) {
      EXPECT_TRUE(fields.at("round_over").bool_value());
    }
    EXPECT_EQ(fields.contains("match_over"), state.IsTerminal()) << "step " << step;
    if (state.IsTerminal()) ++seen.match_over;
    if (fields.contains("match_over")) {
      EXPECT_TRUE(fields.at("match_over").bool_value());
    }
    EXPECT_EQ(fields.size(), (fields.contains("points") ? 1u : 0u) + (round_over ? 1u : 0u) +
                                 (state.IsTerminal() ? 1u : 0u))
        << "nothing else is public";
  }
  EXPECT_TRUE(state.IsTerminal());
  return seen;
}

TEST(EffectOfTest, MugginsPointsRoundsAndTheEndAsTheStatesSay) {
  std::unique_ptr<State> state = NewMatch("muggins", 11);
  ASSERT_NE(state, nullptr);
  const Seen seen = CheckEveryEffect(*state);
  EXPECT_GT(seen.scored, 0);
  EXPECT_GT(seen.round_over, 1);  // a match to 250 takes several hands
  EXPECT_EQ(seen.match_over, 1);
}

TEST(EffectOfTest, EveryRegisteredGame) {
  for (const std::string& name : DefaultRegistry().Names()) {
    SCOPED_TRACE(name);
    std::unique_ptr<State> state = NewMatch(name, 5);
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(CheckEveryEffect(*state).match_over, 1);
  }
}

TEST(EffectOfTest, AnAbortIsTheEndOfTheMatch) {
  const google::protobuf::Struct effect = EndingEffect();
  ASSERT_EQ(effect.fields().size(), 1u);
  EXPECT_TRUE(effect.fields().at("match_over").bool_value());
}

}  // namespace
}  // namespace boneyard::execution
