// Mexican Train's greedy bot: its heuristics on explicit positions, determinism, strength.
#include "engine/games/mexican_train/mexican_train_bots.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard::mexican_train {
namespace {

using ::testing::Contains;
using engine_test::Match;
using engine_test::PlayBots;
using trains::train_test::MakeDeal;

std::string GreedyChoice(const State& state) { return engine_test::ChoiceOf<GreedyBot>(state); }

Match Small(const std::vector<std::string>& hands, const std::string& boneyard = "") {
  return Match("mexican_train", {{"players", "2"}, {"hand_size", std::to_string(4)}},
               {MakeDeal(12, 12, hands, boneyard)});
}

// The chain 12-5 5-3 is kept for its own train; the heavy loose 12-10 goes on the Mexican
// train.
TEST(MexicanTrainGreedyBot, ShedsHighPipsAndKeepsItsChain) {
  Match m = Small({"12-5 5-3 12-10 1-0", "12-7 7-1 2-1 3-2"});
  EXPECT_EQ(GreedyChoice(m.base()), "12-10 mexican");
  EXPECT_EQ(LongestChain(m.As<MexicanTrainState>().hand(0), 12).Count(), 2);
}

// A double it can follow from hand is worth playing; one it cannot is avoided.
TEST(MexicanTrainGreedyBot, PlaysDoublesItCanFollow) {
  Match m = Small({"12-6 6-6 6-1 12-2", "12-7 7-1 2-1 3-2"});
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}});
  EXPECT_EQ(GreedyChoice(m.base()), "6-6 train 0");
  Match n = Small({"12-6 6-6 1-0 12-2", "12-7 7-1 2-1 3-2"});
  n.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}});
  EXPECT_EQ(GreedyChoice(n.base()), "12-2 mexican");
}

TEST(MexicanTrainGreedyBot, IsRegistered) {
  auto game = *DefaultRegistry().CreateGame("mexican_train", RuleText{});
  EXPECT_THAT(DefaultBots().BotsFor("mexican_train"), Contains("greedy"));
  EXPECT_TRUE(DefaultBots().Make("greedy", *game, 3).ok());
}

TEST(MexicanTrainGreedyBot, DeterministicBySeed) {
  const RuleText rules = {{"players", "4"}, {"rounds", "3"}};
  std::vector<std::string> a, b, c;
  PlayBots("mexican_train", rules, 4, {"greedy", "random", "greedy", "random"}, &a);
  PlayBots("mexican_train", rules, 4, {"greedy", "random", "greedy", "random"}, &b);
  PlayBots("mexican_train", rules, 5, {"greedy", "random", "greedy", "random"}, &c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Strength: greedy against random, seats alternated, lower total wins.
TEST(MexicanTrainGreedyBot, BeatsRandom) {
  for (const char* preset : {"classic_double_9", "first_turn_strings", "house"}) {
    int wins = 0;
    constexpr int kMatches = 30;
    for (int i = 0; i < kMatches; ++i) {
      const bool first = i % 2 == 0;
      const std::vector<int> totals =
          PlayBots("mexican_train", {{"preset", preset}, {"players", "2"}, {"hand_size", "15"}},
                   200 + i, first ? std::vector<std::string>{"greedy", "random"}
                                  : std::vector<std::string>{"random", "greedy"})
              ->Scores();
      if (totals[first ? 0 : 1] < totals[first ? 1 : 0]) ++wins;
    }
    EXPECT_GE(wins, kMatches * 2 / 3) << preset;
  }
}

}  // namespace
}  // namespace boneyard::mexican_train
