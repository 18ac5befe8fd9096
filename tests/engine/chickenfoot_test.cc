// Chickenfoot rules, one scenario per rule of sheets 000 and 003 and the rulings, each from an
// explicit deal and named after its rule (docs/rules/chickenfoot.md).
#include "engine/games/chickenfoot/chickenfoot.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard::chickenfoot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using engine_test::Contains;
using engine_test::Match;
using trains::train_test::MakeDeal;

Match SmallMatch(int hand, const std::vector<std::string>& hands, const std::string& boneyard = "",
                 int rounds = 0) {
  RuleText rules = {{"players", "2"}, {"hand_size", std::to_string(hand)}};
  if (rounds > 0) rules.push_back({"rounds", std::to_string(rounds)});
  return Match("chickenfoot", rules, {MakeDeal(9, 9, hands, boneyard)});
}

std::unique_ptr<ChickenfootView> ViewOf(Match& m, int seat) {
  return m.ViewAs<ChickenfootView>(seat);
}

int HandSizeFor(int set, int players) {
  auto game = DefaultRegistry().CreateGame(
      "chickenfoot", RuleText{{"set", std::to_string(set)}, {"players", std::to_string(players)}});
  if (!game.ok()) return 0;
  return (*(*game)->NewMatch(1))->ViewFor(kSpectator)->hand_counts[0];
}

// Sheet 000's table for double-9 (2..6 players: 20 14 11 9 7) and sheet 003's 5 each for 7
// and 8 players.
TEST(ChickenfootRules, DealTableDouble9) {
  const int expected[] = {20, 14, 11, 9, 7, 5, 5};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor(9, players), expected[players - 2]) << players;
  }
}

// Sheet 000's table for double-12: 4..8 players draw 18 14 12 10 9; 2 and 3 are "X".
TEST(ChickenfootRules, DealTableDouble12) {
  const int expected[] = {0, 0, 18, 14, 12, 10, 9};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor(12, players), expected[players - 2]) << players;
  }
  EXPECT_FALSE(DefaultRegistry().CreateGame("chickenfoot", RuleText{{"set", "10"}}).ok());
}

// Rule: the round's centre double is taken out before the deal; round 1 uses the highest,
// one lower each round (10 rounds for double-9, 13 for double-12); the starter rotates.
TEST(ChickenfootRules, CentreDoubleCountsDownAndStarterRotates) {
  for (const int set : {9, 12}) {
    std::vector<int> centres;
    std::vector<int> starters;
    trains::train_test::RandomMatch(
        "chickenfoot", {{"set", std::to_string(set)}, {"players", "5"}}, 11,
        [&](const State& state) {
          auto view = state.ViewFor(kSpectator);
          centres.push_back(static_cast<ChickenfootView&>(*view).centre);
          starters.push_back(state.CurrentSeat());
          EXPECT_FALSE(state.HiddenFrom(kSpectator).Test(trains::DoubleId(set - state.Round())));
          EXPECT_EQ(view->boneyard_count + 5 * HandSizeFor(set, 5), DistinctTiles(set) - 1);
        },
        [](const State&, const State&) {});
    ASSERT_EQ(static_cast<int>(centres.size()), set + 1);
    for (int r = 0; r <= set; ++r) {
      EXPECT_EQ(centres[r], set - r);
      EXPECT_EQ(starters[r], r % 5);
    }
  }
}

// Rule: the next six plays must be on the centre double (the double chickenfoot).
TEST(ChickenfootRules, SixToesOnTheCentreDoubleFirst) {
  Match m = SmallMatch(4, {"9-1 9-2 3-1 4-0", "9-3 9-4 9-5 1-0"});
  EXPECT_THAT(m.Legal(), ElementsAre("9-1 @0", "9-2 @0"));
  m.Play(0, "9-1 @0");
  EXPECT_THAT(m.Legal(), ElementsAre("9-3 @0", "9-4 @0", "9-5 @0"));
  EXPECT_THAT(std::string(m.Error("1-0 @1").message()), HasSubstr("six on the centre double"));
  EXPECT_EQ(ViewOf(m, 0)->toes_needed, 5);
}

// The six centre toes as in the sheet's example, then the position after them.
Match AfterCentreFoot() {
  Match m = SmallMatch(6, {"9-1 9-2 9-3 1-0 3-3 0-0", "9-4 9-5 9-6 4-0 5-0 6-0"},
                       "3-1 3-2 8-0 3-0");
  m.PlayAll({{0, "9-1 @0"}, {1, "9-4 @0"}, {0, "9-2 @0"}, {1, "9-5 @0"}, {0, "9-3 @0"},
             {1, "9-6 @0"}});
  return m;
}

// Rule: after the six, plays go on any of the toes, by matching ends.
TEST(ChickenfootRules, AfterTheSixAnyToe) {
  Match m = AfterCentreFoot();
  auto view = ViewOf(m, 0);
  EXPECT_EQ(view->foot, -1);
  EXPECT_THAT(view->OpenEnds(), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(m.Legal(), ElementsAre("1-0 @1", "3-3 @5"));
}

// Rule: a double on a toe is played sideways and needs its three toes before any other play;
// playing it grants no extra play. Unable players draw one and play it if it fits, else pass.
TEST(ChickenfootRules, DoubleOnAToeNeedsThreeToesFirst) {
  Match m = AfterCentreFoot();
  m.Play(0, "3-3 @5");
  EXPECT_EQ(m.base().CurrentSeat(), 1);  // no extra play for a double
  EXPECT_EQ(ViewOf(m, 1)->foot, 7);
  EXPECT_EQ(ViewOf(m, 1)->toes_needed, 3);
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));  // 4-0 fits @2 but the foot comes first
  m.Play(1, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("3-1 @7"));
  m.Play(1, "3-1 @7");
  m.PlayAll({{0, "draw"}, {0, "3-2 @7"}});
  m.Play(1, "draw");  // 8-0 does not fit the foot
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  m.Play(1, "pass");
  m.PlayAll({{0, "draw"}, {0, "3-0 @7"}});
  EXPECT_EQ(ViewOf(m, 1)->foot, -1);
  EXPECT_TRUE(Contains(m.Legal(), "4-0 @2"));
  EXPECT_TRUE(Contains(m.Legal(), "8-0 @10"));
}

// Rule: a player who holds a playable tile must play it.
TEST(ChickenfootRules, MustPlayIfAble) {
  Match m = SmallMatch(4, {"9-1 9-2 3-1 4-0", "9-3 9-4 9-5 1-0"});
  EXPECT_THAT(std::string(m.Error("draw").message()), HasSubstr("must play when able"));
}

// Rule: unable after the single draw, play passes to the next player.
TEST(ChickenfootRules, DrawOneThenPass) {
  Match m = SmallMatch(4, {"1-0 2-0 3-0 4-0", "9-3 9-4 9-5 1-1"}, "5-0 9-8");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(0, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  EXPECT_THAT(std::string(m.Error("draw").message()), HasSubstr("only one tile"));
  m.Play(0, "pass");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule: a round ends when a player dominoes; each player scores the pips in hand, plus 50
// for holding the double-blank.
TEST(ChickenfootRules, DominoAndTheDoubleBlankCostsFifty) {
  Match m = SmallMatch(2, {"9-1 9-2", "0-0 4-3"}, "", /*rounds=*/1);
  m.PlayAll({{0, "9-1 @0"}, {1, "draw"}, {1, "pass"}, {0, "9-2 @0"}});
  EXPECT_TRUE(m.base().IsTerminal());
  // Seat 1 holds 0-0, 4-3 and the drawn 1-0: 8 pips + 50.
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 58));
  auto view = ViewOf(m, kSpectator);
  ASSERT_TRUE(view->last_round.has_value());
  EXPECT_EQ(view->last_round->pips[1] + 50, view->last_round->points[1]);
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2));
}

// Rule: a round also ends when the boneyard is empty and nobody can play (checked on random
// matches: every blocked round had an empty boneyard).
TEST(ChickenfootRules, BlockedRoundEndsWithEmptyBoneyard) {
  int blocked = 0;
  for (uint64_t seed = 1; seed <= 20 && blocked < 3; ++seed) {
    trains::train_test::RandomMatch(
        "chickenfoot", {{"players", "2"}}, seed, [](const State&) {},
        [&](const State& before, const State& after) {
          auto view = after.ViewFor(kSpectator);
          const auto& last = static_cast<ChickenfootView&>(*view).last_round;
          ASSERT_TRUE(last.has_value());
          if (last->ended_by != trains::RoundEnd::kBlocked) return;
          ++blocked;
          EXPECT_EQ(static_cast<const ChickenfootState&>(before).boneyard_count(), 0);
        });
  }
  EXPECT_GT(blocked, 0);
}

// Views show every placed tile with its id, the open ends and the foot; never another hand.
TEST(ChickenfootRules, ViewsShowIdsAndHideHands) {
  Match m = AfterCentreFoot();
  const nlohmann::json layout = m.base().ViewFor(1)->ToJson()["layout"];
  EXPECT_EQ(layout["tiles"][0], "@0 9-9");
  EXPECT_EQ(layout["tiles"][5], "@5 9-3 on @0");
  EXPECT_EQ(layout["open_ends"].size(), 6u);
  EXPECT_EQ(layout["open_ends"][4], nlohmann::json({{"id", "@5"}, {"pip", 3}}));
  const std::string json = m.base().ViewFor(1)->ToJson().dump();
  for (const char* tile : {"1-0", "3-3", "0-0"}) EXPECT_EQ(json.find(tile), std::string::npos);
}

TEST(ChickenfootNotation, EndsByStableId) {
  Match m = AfterCentreFoot();
  EXPECT_EQ(*m.base().ParseAction(" 0-1   @1 "), PlayAction(Tile(1, 0).BaseId(), 1));
  EXPECT_EQ(m.base().ActionToString(PlayAction(Tile(3, 3).BaseId(), 5)), "3-3 @5");
  for (const char* bad : {"1-0", "1-0 1", "1-0 @x", "10-0 @1", "1-0 @1 x"}) {
    EXPECT_EQ(m.base().ParseAction(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
  EXPECT_THAT(std::string(m.Error("1-0 @40").message()), HasSubstr("no tile @40"));
}

}  // namespace
}  // namespace boneyard::chickenfoot
