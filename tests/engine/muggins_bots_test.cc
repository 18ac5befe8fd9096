// Muggins' greedy bot: biggest immediate score (claimed), muggins whenever offered, then the
// heaviest tile; deterministic. The search bot's Muggins levels and level 5's scoring playouts.
#include "engine/games/muggins/muggins_bots.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/games/muggins/muggins.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::muggins {
namespace {

using engine_test::Play;
using ::testing::Contains;

Deal MakeDeal(const std::vector<std::string>& hands) { return engine_test::MakeFullDeal(6, hands); }

std::unique_ptr<State> NewState(const RuleText& rules, const Deal& deal) {
  auto game = engine_test::MakeGame("muggins", rules);
  auto state = game->NewMatch(1, {deal});
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

// What the greedy bot plays now, as text.
std::string GreedyChoice(const State& state) { return engine_test::ChoiceOf<GreedyBot>(state); }

// The sheet's example position: ends 6 (left), 0 (right), 4 (up), spinner 3-3 open down.
// Seat 0 holds 5-3 (down: 15), 3-2 (down: 12), 6-6 (left: 16), 1-1, 2-1.
const Deal kSheetDeal = MakeDeal({"3-3 3-0 5-3 3-2 1-1 2-1 6-6", "6-3 4-3 0-0 1-0 2-0 2-2 4-4"});

std::unique_ptr<State> SheetPosition(const RuleText& rules) {
  auto state = NewState(rules, kSheetDeal);
  const bool claims = rules.size() == 1 && rules[0].first == "claim_scoring";
  for (const char* text : {"3-3", "6-3 left", "3-0 right", claims ? "4-3 up claim" : "4-3 up"}) {
    Play(*state, text);
  }
  return state;
}

// Greedy: the largest immediate score first.
TEST(MugginsGreedyBot, TakesTheLargestImmediateScore) {
  auto state = SheetPosition({});
  EXPECT_EQ(GreedyChoice(*state), "5-3 down");  // 15 beats the heavier 6-6 scoring nothing
}

// Greedy under claim_scoring: the claimed form, since an unclaimed score is worth nothing.
TEST(MugginsGreedyBot, ClaimsItsScoreUnderClaimScoring) {
  auto state = SheetPosition({{"claim_scoring", "true"}});
  EXPECT_EQ(GreedyChoice(*state), "5-3 down claim");
}

// Greedy: "muggins" whenever offered; its turn then goes on.
TEST(MugginsGreedyBot, CallsMugginsWhenOffered) {
  auto state = SheetPosition({{"claim_scoring", "true"}});
  Play(*state, "5-3 down");  // left unclaimed
  EXPECT_THAT(state->LegalActionStrings(), Contains("muggins"));
  EXPECT_EQ(GreedyChoice(*state), "muggins");
  Play(*state, "muggins");
  // Then the best play of its own: 4-4 up makes 6 + 0 + 8 + 5 = 19, 0-0 right 15.
  EXPECT_EQ(GreedyChoice(*state), "0-0 right claim");
}

// Greedy ties: the heaviest tile, then the lowest action code.
TEST(MugginsGreedyBot, NoScoreShedsTheHeaviestTile) {
  // After 3-3 opens, seat 1's 6-3 / 1-3 / 2-3 make 12, 7, 8: no score; 6-3 is heaviest and
  // "left" is the lower code of its two ends.
  auto state =
      NewState({}, MakeDeal({"3-3 0-0 1-1 2-2 4-4 5-5 6-6", "6-3 3-1 3-2 1-0 2-0 5-0 6-0"}));
  Play(*state, "3-3");
  EXPECT_EQ(GreedyChoice(*state), "6-3 left");
}

// Greedy: draw (or pass) only when it is the only action.
TEST(MugginsGreedyBot, DrawsWhenThatIsAllItCanDo) {
  auto state =
      NewState({}, MakeDeal({"6-4 6-6 5-5 5-4 5-3 5-2 5-1", "3-3 3-2 3-1 3-0 2-1 2-0 1-1"}));
  Play(*state, "6-4");
  EXPECT_EQ(GreedyChoice(*state), "draw");
}

// The scoring helper works from the view alone.
TEST(MugginsGreedyBot, ImmediatePointsReadsTheView) {
  auto state = SheetPosition({});
  auto view = state->ViewFor(0);
  const auto& mv = static_cast<const MugginsView&>(*view);
  EXPECT_EQ(ImmediatePoints(mv, *state->ParseAction("5-3 down")), 15);
  EXPECT_EQ(ImmediatePoints(mv, *state->ParseAction("3-2 down")), 0);
  EXPECT_EQ(ImmediatePoints(mv, kDraw), 0);
}

// Level 5's playouts take the score three times in four: in the sheet's position, where one
// play of the seat's scores 15, over 4,000 draws the scoring play comes about 3/4 + 1/4 of its
// share of the random quarter; the rest are legal plays at random.
TEST(MugginsScoringPlayout, TakesTheScoreThreeTimesInFour) {
  auto state = SheetPosition({});
  ActionList legal;
  state->LegalActions(legal);
  const Action scoring = *state->ParseAction("5-3 down");
  ASSERT_TRUE(legal.Contains(scoring));
  Rng rng(3);
  int took = 0;
  constexpr int kDraws = 4000;
  for (int i = 0; i < kDraws; ++i) {
    const Action a = ScoringPlayout(*state, legal.span(), rng);
    ASSERT_TRUE(legal.Contains(a));
    took += a == scoring;
  }
  const double expected = 0.75 + 0.25 / static_cast<double>(legal.size());
  EXPECT_NEAR(static_cast<double>(took) / kDraws, expected, 0.03) << legal.size() << " legal";
}

// Muggins' own levels: 50, 150, 400, 1,000 and 6,000 iterations, level 1 drawn by visits.
TEST(MugginsScoringPlayout, MugginsLevelsAreSpreadBelowWhereUniformPlayoutsSaturate) {
  EXPECT_EQ(MugginsSearchLevel(1).iterations, 50);
  EXPECT_TRUE(MugginsSearchLevel(1).proportional);
  EXPECT_EQ(MugginsSearchLevel(2).iterations, 150);
  EXPECT_EQ(MugginsSearchLevel(0).iterations, MugginsSearchLevel(3).iterations);
  EXPECT_EQ(MugginsSearchLevel(4).iterations, 1'000);
  EXPECT_EQ(MugginsSearchLevel(5).iterations, 6'000);
  auto game = *DefaultRegistry().CreateGame("muggins", RuleText{});
  EXPECT_EQ(DefaultBots().LevelsOf("muggins", "search"), kSearchLevels);
  EXPECT_TRUE(DefaultBots().Make("search", *game, 3, 5).ok());
}

// The bot is registered as "greedy" for muggins.
TEST(MugginsGreedyBot, IsRegistered) {
  auto game = *DefaultRegistry().CreateGame("muggins", RuleText{});
  EXPECT_THAT(DefaultBots().BotsFor("muggins"), Contains("greedy"));
  EXPECT_TRUE(DefaultBots().Make("greedy", *game, 3).ok());
}

// Plays a whole match between bots; returns the actions as text, then the scores.
std::vector<std::string> PlayMatch(const RuleText& rules, uint64_t seed,
                                   const std::vector<std::string>& bots) {
  std::vector<std::string> log;
  engine_test::PlayBots("muggins", rules, seed, bots, &log);
  return log;
}

// Bots are deterministic: the same seed gives the same match.
TEST(MugginsGreedyBot, DeterministicBySeed) {
  const RuleText rules = {{"players", "3"}, {"claim_scoring", "true"}};
  EXPECT_EQ(PlayMatch(rules, 4, {"greedy", "greedy", "random"}),
            PlayMatch(rules, 4, {"greedy", "greedy", "random"}));
  EXPECT_NE(PlayMatch(rules, 4, {"greedy", "greedy", "random"}),
            PlayMatch(rules, 5, {"greedy", "greedy", "random"}));
}

// A sanity check of strength: greedy should beat random clearly (about 98% over 500).
TEST(MugginsGreedyBot, BeatsRandomMostOfTheTime) {
  int wins = 0;
  constexpr int kMatches = 60;
  for (int i = 0; i < kMatches; ++i) {
    // Alternate seats so neither bot always starts.
    const bool greedy_first = i % 2 == 0;
    auto log = PlayMatch({{"target", "100"}}, 100 + i,
                         greedy_first ? std::vector<std::string>{"greedy", "random"}
                                      : std::vector<std::string>{"random", "greedy"});
    const std::vector<std::string> scores = absl::StrSplit(log.back(), ',');
    const int greedy = std::stoi(scores[greedy_first ? 0 : 1]);
    const int random = std::stoi(scores[greedy_first ? 1 : 0]);
    if (greedy > random) ++wins;
  }
  EXPECT_GE(wins, kMatches * 2 / 3);
}

}  // namespace
}  // namespace boneyard::muggins
