// Moon's bots (engine/games/moon/moon.h): the heuristic bot's bidding, trumps and discard in
// explicit positions, the random bot's sane bids, determinism, and strength.
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/moon/moon.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::moon {
namespace {

using ::testing::Contains;
using engine_test::Choice;
using engine_test::Do;

tricks::Hand HandOf(const std::string& text) {
  tricks::Hand h = 0;
  for (const Tile& t : engine_test::Tiles(text)) h |= tricks::Bit(tricks::IdOf(t));
  return h;
}

const std::vector<std::string> kHands = {"6-6 6-5 6-4 6-3 6-2 6-1 5-5",
                                         "5-4 5-3 5-2 5-1 4-4 4-3 4-2",
                                         "4-1 3-3 3-2 3-1 2-2 2-1 1-1"};

TEST(MoonHeuristicBot, EstimatesFromTopTrumpsAndDoubles) {
  EXPECT_EQ(EstimateTricks(HandOf("6-6 6-5 6-4 6-3 6-2 6-1 5-5"), 6), 7);
  EXPECT_EQ(BestTrump(HandOf("6-6 6-5 6-4 6-3 6-2 6-1 5-5")), 6);
  EXPECT_LT(EstimateTricks(HandOf("4-1 3-2 3-1 2-1 5-2 6-1 5-3"), 1), 4);
}

// The strong hand shoots the moon, names sixes and discards the useless widow; the weak hand
// passes.
TEST(MoonHeuristicBot, BidsFromStrengthNamesItsSuitDiscardsTheLeastUseful) {
  auto game = *DefaultRegistry().CreateGame("moon", RuleText{});
  auto state = *game->NewMatch(1, {engine_test::MakeDeal(kHands, "0-0")});
  HeuristicBot bot(1);
  Do(*state, "pass");          // seat 1
  EXPECT_NE(Choice(bot, *state), "bid 21");  // seat 2: small tiles, no moon
  Do(*state, "pass");
  EXPECT_EQ(Choice(bot, *state), "bid 21");  // seat 0: six top sixes and 5-5
  Do(*state, "bid 21");
  EXPECT_EQ(Choice(bot, *state), "trump 6");
  Do(*state, "trump 6");
  EXPECT_EQ(Choice(bot, *state), "discard 0-0");
  Do(*state, "discard 0-0");
  EXPECT_EQ(Choice(bot, *state), "5-5");  // nobody else holds a trump: cash a sure winner
}

TEST(MoonRandomBot, BidsSanely) {
  auto game = *DefaultRegistry().CreateGame("moon", RuleText{});
  int bids = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    auto state = *game->NewMatch(1, {engine_test::MakeDeal(kHands, "0-0")});
    SaneRandomBot bot(seed);
    const std::string choice = Choice(bot, *state);  // seat 1: four fives, a bidding hand
    EXPECT_TRUE(choice == "pass" || choice == "bid 4") << choice;
    bids += choice == "bid 4" ? 1 : 0;
  }
  EXPECT_GT(bids, 5);
  EXPECT_LT(bids, 35);
}

TEST(MoonBots, AreRegistered) {
  EXPECT_THAT(DefaultBots().BotsFor("moon"), Contains("heuristic"));
  EXPECT_THAT(DefaultBots().BotsFor("moon"), Contains("random"));
}

// Plays a match; returns the actions as text, then the scores and the winner.
std::vector<std::string> PlayMatch(uint64_t seed, const std::vector<std::string>& bots) {
  std::vector<std::string> log;
  auto state = engine_test::PlayBots("moon", {}, seed, bots, &log);
  log.push_back(std::to_string(engine_test::As<MoonState>(*state).winner()));
  return log;
}

TEST(MoonBots, DeterministicBySeed) {
  const std::vector<std::string> bots = {"heuristic", "random", "random"};
  EXPECT_EQ(PlayMatch(4, bots), PlayMatch(4, bots));
  EXPECT_NE(PlayMatch(4, bots), PlayMatch(5, bots));
}

// Strength: one heuristic seat against two random ones wins well over its third of matches.
TEST(MoonBots, HeuristicBeatsRandom) {
  int wins = 0;
  constexpr int kMatches = 60;
  for (int i = 0; i < kMatches; ++i) {
    const int seat = i % 3;
    std::vector<std::string> bots = {"random", "random", "random"};
    bots[seat] = "heuristic";
    if (std::stoi(PlayMatch(3000 + i, bots).back()) == seat) ++wins;
  }
  EXPECT_GE(wins, kMatches * 6 / 10);
}

}  // namespace
}  // namespace boneyard::moon
