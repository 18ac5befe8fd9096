// Chickenfoot's greedy bot: its heuristics on explicit positions, determinism, strength.
#include "engine/games/chickenfoot/chickenfoot_bots.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard::chickenfoot {
namespace {

using ::testing::Contains;
using engine_test::Match;
using engine_test::PlayBots;
using trains::train_test::MakeDeal;

std::string GreedyChoice(const State& state) { return engine_test::ChoiceOf<GreedyBot>(state); }

Match Small(const std::vector<std::string>& hands, int hand = 4) {
  return Match("chickenfoot", {{"players", "2"}, {"hand_size", std::to_string(hand)}},
               {MakeDeal(9, 9, hands)});
}

// The heaviest tile goes first.
TEST(ChickenfootGreedyBot, ShedsHighPips) {
  Match m = Small({"9-8 9-1 1-0 2-0", "9-3 9-4 9-5 1-1"});
  EXPECT_EQ(GreedyChoice(m.base()), "9-8 @0");
}

// The double-blank (50 if kept) goes before anything heavier.
TEST(ChickenfootGreedyBot, ShedsTheDoubleBlankFirst) {
  Match m = Small({"9-1 9-2 9-3 0-0 8-7 5-0", "9-4 9-5 9-0 4-0 5-1 6-1"}, 6);
  m.PlayAll({{0, "9-1 @0"}, {1, "9-4 @0"}, {0, "9-2 @0"}, {1, "9-5 @0"}, {0, "9-3 @0"},
             {1, "9-0 @0"}});
  // Seat 0 holds 0-0 (fits @6), 5-0 (fits @4 and @6) and 8-7.
  EXPECT_EQ(GreedyChoice(m.base()), "0-0 @6");
}

TEST(ChickenfootGreedyBot, IsRegistered) {
  auto game = *DefaultRegistry().CreateGame("chickenfoot", RuleText{});
  EXPECT_THAT(DefaultBots().BotsFor("chickenfoot"), Contains("greedy"));
  EXPECT_TRUE(DefaultBots().Make("greedy", *game, 3).ok());
}

TEST(ChickenfootGreedyBot, DeterministicBySeed) {
  const RuleText rules = {{"players", "3"}, {"rounds", "3"}};
  std::vector<std::string> a, b, c;
  PlayBots("chickenfoot", rules, 4, {"greedy", "random", "greedy"}, &a);
  PlayBots("chickenfoot", rules, 4, {"greedy", "random", "greedy"}, &b);
  PlayBots("chickenfoot", rules, 5, {"greedy", "random", "greedy"}, &c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Strength: greedy against random, seats alternated, lower total wins.
TEST(ChickenfootGreedyBot, BeatsRandom) {
  int wins = 0;
  constexpr int kMatches = 30;
  for (int i = 0; i < kMatches; ++i) {
    const bool first = i % 2 == 0;
    const std::vector<int> totals =
        PlayBots("chickenfoot", {{"players", "2"}}, 300 + i,
                 first ? std::vector<std::string>{"greedy", "random"}
                       : std::vector<std::string>{"random", "greedy"})
            ->Scores();
    if (totals[first ? 0 : 1] < totals[first ? 1 : 0]) ++wins;
  }
  EXPECT_GE(wins, kMatches * 2 / 3);
}

}  // namespace
}  // namespace boneyard::chickenfoot
