// Eighty-Four's bots: Forty-Two's heuristic and random bots at the 8- and 6-player tables —
// registration, sane bids, determinism, and that the heuristic team beats the random team.
#include <memory>
#include <string>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/games/eighty_four/eighty_four.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_bots.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::eighty_four {
namespace {

using ::testing::Contains;

// Plays a whole match; returns the actions as text, then the scores and the winning team.
std::vector<std::string> PlayMatch(const RuleText& rules, uint64_t seed,
                                   const std::vector<std::string>& bots) {
  std::vector<std::string> log;
  auto state = engine_test::PlayBots("eighty_four", rules, seed, bots, &log);
  log.push_back(
      std::to_string(engine_test::As<forty_two::FortyTwoState>(*state).winning_team()));
  return log;
}

std::vector<std::string> Teams(int players, const std::string& even, const std::string& odd) {
  std::vector<std::string> bots;
  for (int s = 0; s < players; ++s) bots.push_back(s % 2 == 0 ? even : odd);
  return bots;
}

TEST(EightyFourBots, AreRegistered) {
  auto game = *DefaultRegistry().CreateGame("eighty_four", RuleText{});
  EXPECT_THAT(DefaultBots().BotsFor("eighty_four"), Contains("heuristic"));
  EXPECT_THAT(DefaultBots().BotsFor("eighty_four"), Contains("random"));
  auto random = DefaultBots().Make("random", *game, 3);
  ASSERT_TRUE(random.ok());
  EXPECT_NE(dynamic_cast<forty_two::SaneRandomBot*>(random->get()), nullptr);
}

// The heuristic estimate is on the table's scale: a hand of top trumps expects most of 84.
TEST(EightyFourBots, EstimatesOnTheTablesScale) {
  tricks::Hand sixes = 0;
  for (const char* t : {"6-6", "6-6'", "6-5", "6-5'", "6-4", "6-4'", "6-3"}) {
    sixes |= tricks::Bit(tricks::IdOf(*Tile::Parse(t)));
  }
  EXPECT_GE(forty_two::EstimatePoints(sixes, 6, kEightPlayers), 60);
  EXPECT_EQ(forty_two::BestTrump(sixes, kEightPlayers), 6);
}

TEST(EightyFourBots, DeterministicBySeed) {
  const auto bots = Teams(8, "heuristic", "random");
  EXPECT_EQ(PlayMatch({}, 4, bots), PlayMatch({}, 4, bots));
  EXPECT_NE(PlayMatch({}, 4, bots), PlayMatch({}, 5, bots));
}

// Random-only matches finish at both tables (the random bot bids sanely).
TEST(EightyFourBots, RandomMatchesFinish) {
  for (uint64_t seed = 0; seed < 6; ++seed) {
    PlayMatch({}, seed, Teams(8, "random", "random"));
    PlayMatch({{"players", "6"}}, seed, Teams(6, "random", "random"));
  }
}

// Strength: the heuristic team beats the random team in most seeded matches, at both tables.
TEST(EightyFourBots, HeuristicBeatsRandom) {
  for (int players : {8, 6}) {
    int wins = 0;
    constexpr int kMatches = 30;
    for (int i = 0; i < kMatches; ++i) {
      const bool heuristic_even = i % 2 == 0;
      const auto bots = heuristic_even ? Teams(players, "heuristic", "random")
                                       : Teams(players, "random", "heuristic");
      const auto log = PlayMatch({{"players", std::to_string(players)}}, 2000 + i, bots);
      if (std::stoi(log.back()) == (heuristic_even ? 0 : 1)) ++wins;
    }
    EXPECT_GE(wins, kMatches * 7 / 10) << players << " players";
  }
}

}  // namespace
}  // namespace boneyard::eighty_four
