// Mexican Train rules, one scenario per rule of sheets 000 (classic), 004 (first-turn
// strings) and the train rules of 002 (house), each from an explicit deal and named after its
// rule (docs/rules/mexican_train.md). Seats play by action text, as a player or a record would.
#include "engine/games/mexican_train/mexican_train.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard::mexican_train {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using engine_test::Contains;
using engine_test::Match;
using trains::train_test::MakeDeal;

constexpr int kSet = 12;

// Two players with small hands (hand_size overrides the table) on a double-12 set.
RuleText Small(int hand, const std::string& preset = "classic", int rounds = 0) {
  RuleText rules = {{"preset", preset}, {"players", "2"}, {"hand_size", std::to_string(hand)}};
  if (rounds > 0) rules.push_back({"rounds", std::to_string(rounds)});
  // The house preset's engine comes from the hands; its other rules are tested with the
  // engine in the centre, as the other presets' deals.
  if (preset == "house") rules.push_back({"engine_from_hands", "false"});
  return rules;
}

Match SmallMatch(int hand, const std::vector<std::string>& hands, const std::string& boneyard = "",
                 const std::string& preset = "classic", int rounds = 0) {
  return Match("mexican_train", Small(hand, preset, rounds),
               {MakeDeal(kSet, kSet, hands, boneyard)});
}

std::unique_ptr<MexicanTrainView> ViewOf(Match& m, int seat) {
  return m.ViewAs<MexicanTrainView>(seat);
}

// ---- Deal tables ----

std::vector<int> HandCounts(const RuleText& rules) {
  auto game = DefaultRegistry().CreateGame("mexican_train", rules);
  if (!game.ok()) return {};
  auto state = (*game)->NewMatch(1);
  return (*state)->ViewFor(kSpectator)->hand_counts;
}

// The deal's hand size (the largest hand: under engine_from_hands its holder has placed it).
int HandSizeFor(const std::string& preset, int set, int players) {
  std::vector<int> counts = HandCounts(
      {{"preset", preset}, {"set", std::to_string(set)}, {"players", std::to_string(players)}});
  return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
}

// Sheet 000's table: double-9 with 2..6 players draws 20 14 11 9 7; 7 and 8 are "X".
TEST(MexicanTrainRules, Sheet000DealTableDouble9) {
  const int expected[] = {20, 14, 11, 9, 7, 0, 0};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor("classic", 9, players), expected[players - 2]) << players;
  }
  auto game = DefaultRegistry().CreateGame("mexican_train",
                                           RuleText{{"set", "9"}, {"players", "7"}});
  EXPECT_THAT(std::string(game.status().message()), HasSubstr("no entry for double-9"));
}

// Sheet 000's table: double-12 with 4..8 players draws 18 14 12 10 9; 2 and 3 are "X".
TEST(MexicanTrainRules, Sheet000DealTableDouble12) {
  const int expected[] = {0, 0, 18, 14, 12, 10, 9};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor("classic", 12, players), expected[players - 2]) << players;
  }
}

// Sheet 004's table (double-12): 16 15 14 12 11 10 9 for 2..8 players.
TEST(MexicanTrainRules, Sheet004DealTable) {
  const int expected[] = {16, 15, 14, 12, 11, 10, 9};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor("first_turn_strings", 12, players), expected[players - 2]) << players;
  }
}

// Sheet 002's table (double-12): 15 15 15 14 12 10 9 for 2..8 players, and the removal
// table: double-(players+5) for 2..6 players, 10 each.
TEST(MexicanTrainRules, Sheet002DealTables) {
  const int expected[] = {15, 15, 15, 14, 12, 10, 9};
  for (int players = 2; players <= 8; ++players) {
    EXPECT_EQ(HandSizeFor("house", 12, players), expected[players - 2]) << players;
  }
  // Sheet 002's "BoneYard" column: the whole set is dealt (the engine comes from the hands).
  const int boneyard[] = {61, 46, 31, 21, 19, 21, 19};
  for (int players = 2; players <= 8; ++players) {
    auto game = *DefaultRegistry().CreateGame(
        "mexican_train", RuleText{{"preset", "house"}, {"players", std::to_string(players)}});
    EXPECT_EQ((*game->NewMatch(1))->CurrentDeal().boneyard.size(), boneyard[players - 2]);
  }
  for (int players = 2; players <= 6; ++players) {
    std::vector<int> counts = HandCounts({{"preset", "house"},
                                          {"deal_table", "sheet002_removal"},
                                          {"set", std::to_string(players + 5)},
                                          {"players", std::to_string(players)}});
    ASSERT_EQ(counts.size(), static_cast<size_t>(players));
    EXPECT_EQ(*std::max_element(counts.begin(), counts.end()), 10);
  }
  EXPECT_FALSE(DefaultRegistry()
                   .CreateGame("mexican_train", RuleText{{"deal_table", "sheet002_removal"},
                                                         {"set", "12"},
                                                         {"players", "2"}})
                   .ok());
}

// The engine is set in the centre before the deal: it is in nobody's hand nor the boneyard.
TEST(MexicanTrainRules, EngineIsSetBeforeTheDeal) {
  Match m("mexican_train", {{"players", "4"}}, {});
  auto view = ViewOf(m, kSpectator);
  EXPECT_EQ(view->engine, 12);
  EXPECT_THAT(view->hand_counts, ElementsAre(18, 18, 18, 18));
  EXPECT_EQ(view->boneyard_count, 91 - 1 - 72);
  EXPECT_FALSE(m.base().HiddenFrom(kSpectator).Test(trains::DoubleId(12)));
}

// ---- Starting ----

// Rule: the starter may start their personal train or the Mexican train, with a tile
// matching the engine; nobody else's train.
TEST(MexicanTrainRules, StarterStartsOwnTrainOrMexicanTrain) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 7-1 2-1 3-2"});
  EXPECT_THAT(m.Legal(), ElementsAre("12-5 train 0", "12-5 mexican"));
}

// Rule: eligible trains are your own, the Mexican train and marked trains; not another
// player's unmarked train.
TEST(MexicanTrainRules, OnlyOwnMexicanAndMarkedTrainsAreEligible) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 5-4 2-1 3-2"});
  m.Play(0, "12-5 train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("12-7 train 1", "12-7 mexican"));
  absl::Status error = m.Error("5-4 train 0");
  EXPECT_EQ(error.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(error.message()), HasSubstr("marker"));
}

// Rule: there is one Mexican train; once started anyone plays on its end, and no second one
// starts.
TEST(MexicanTrainRules, SingleMexicanTrainOpenToAll) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 5-4 2-1 3-2"});
  m.Play(0, "12-5 mexican");
  EXPECT_THAT(m.Legal(), ElementsAre("5-4 mexican", "12-7 train 1"));
}

// ---- Unable to play ----

// Rule: with no playable tile, draw one and play it if possible.
TEST(MexicanTrainRules, UnableDrawsOneAndPlaysItIfItFits) {
  Match m = SmallMatch(4, {"1-0 2-0 3-0 4-0", "12-7 7-1 2-1 3-2"}, "12-3");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  EXPECT_THAT(std::string(m.Error("pass").message()), HasSubstr("draw one tile first"));
  m.Play(0, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("12-3 train 0", "12-3 mexican"));
  EXPECT_THAT(std::string(m.Error("pass").message()), HasSubstr("must play"));
}

// Rule: still unable after the draw: the marker goes on your train and the turn ends; others
// may then play on it.
TEST(MexicanTrainRules, MarkerWhenStillUnableAfterDrawing) {
  Match m = SmallMatch(4, {"1-0 2-0 3-0 4-0", "12-7 7-1 2-1 3-2"}, "5-1");
  m.Play(0, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  m.Play(0, "pass");
  auto& state = m.As<MexicanTrainState>();
  EXPECT_TRUE(state.HasMarker(0));
  EXPECT_TRUE(ViewOf(m, 1)->trains[0].marker);
  EXPECT_THAT(m.Legal(), ElementsAre("12-7 train 0", "12-7 train 1", "12-7 mexican"));
}

// Rule: a player who can play must; drawing is not an option.
TEST(MexicanTrainRules, MustPlayIfAble) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 7-1 2-1 3-2"});
  absl::Status error = m.Error("draw");
  EXPECT_EQ(error.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(error.message()), HasSubstr("must play when able"));
}

// Rule (marker_off=own_train, classic): the marker stays while the owner plays elsewhere and
// comes off when the owner plays on their own train.
TEST(MexicanTrainRules, MarkerComesOffWhenOwnerPlaysOwnTrain) {
  Match m = SmallMatch(4, {"1-0 2-0 3-0 4-0", "12-7 7-1 2-1 3-2"}, "5-1 12-11 12-10");
  auto& state = m.As<MexicanTrainState>();
  m.PlayAll({{0, "draw"}, {0, "pass"}, {1, "12-7 train 1"}, {0, "draw"}, {0, "12-11 mexican"}});
  EXPECT_TRUE(state.HasMarker(0));
  m.PlayAll({{1, "7-1 train 1"}, {0, "draw"}, {0, "12-10 train 0"}});
  EXPECT_FALSE(state.HasMarker(0));
}

// Option marker_off=any_play (sheet 002): any play by the owner removes the marker.
TEST(MexicanTrainRules, MarkerOffOnAnyPlayOption) {
  Match m("mexican_train",
          {{"players", "2"}, {"hand_size", "4"}, {"marker_off", "any_play"}},
          {MakeDeal(kSet, kSet, {"1-0 2-0 3-0 4-0", "12-7 7-1 2-1 3-2"}, "5-1 12-11")});
  m.PlayAll({{0, "draw"}, {0, "pass"}, {1, "12-7 train 1"}, {0, "draw"}, {0, "12-11 mexican"}});
  EXPECT_FALSE(m.As<MexicanTrainState>().HasMarker(0));
}

// Rule: when the boneyard is empty, a player without a playable tile passes at once and puts
// the marker up.
TEST(MexicanTrainRules, PassWithMarkerOnceBoneyardIsEmpty) {
  // Double-9, 2 players of 27: the whole set but the engine is dealt. Seat 1 holds every 9.
  std::string no_nines;
  std::string nines;
  int others = 0;
  for (int id = 0; id < DistinctTiles(9); ++id) {
    const Tile t = trains::TileOf(id);
    if (t == Tile(9, 9)) continue;
    if (t.Has(9)) {
      nines += t.ToString() + " ";
    } else if (others++ < 27) {
      no_nines += t.ToString() + " ";
    } else {
      nines += t.ToString() + " ";
    }
  }
  Match m("mexican_train", {{"set", "9"}, {"players", "2"}, {"hand_size", "27"}},
          {MakeDeal(9, 9, {no_nines, nines})});
  EXPECT_EQ(ViewOf(m, 0)->boneyard_count, 0);
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  m.Play(0, "pass");
  EXPECT_TRUE(m.As<MexicanTrainState>().HasMarker(0));
  EXPECT_TRUE(Contains(m.Legal(), "9-0 train 0"));
}

// ---- Doubles ----

// Rule: a double is placed sideways and obliges another play in the same turn.
TEST(MexicanTrainRules, DoubleObligesAnotherPlay) {
  Match m = SmallMatch(4, {"12-6 6-6 6-2 1-0", "12-7 7-1 2-1 3-1"});
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "6-6 train 0"}});
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  EXPECT_TRUE(ViewOf(m, 0)->must_follow_double);
  EXPECT_THAT(ViewOf(m, 0)->trains[0].tiles, ElementsAre("12-6", "6-6"));
  EXPECT_THAT(m.Legal(), ElementsAre("6-2 train 0"));
  m.Play(0, "6-2 train 0");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule: the additional tile may go on another eligible train, leaving the double open.
// Rule: an open double makes every other train ineligible for everyone until it is closed.
TEST(MexicanTrainRules, OpenDoubleMustBeClosedBeforeAnyOtherTrain) {
  Match m = SmallMatch(4, {"12-6 6-6 12-4 1-0", "12-7 7-1 6-1 3-1"});
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "6-6 train 0"}, {0, "12-4 mexican"}});
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(ViewOf(m, 1)->blocking, "train 0");
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0"));
  EXPECT_THAT(m.Legal(), ElementsAre("6-1 train 0"));
  EXPECT_THAT(std::string(m.Error("7-1 train 1").message()), HasSubstr("open double"));
  m.Play(1, "6-1 train 0");
  EXPECT_TRUE(ViewOf(m, 0)->open_doubles.empty());
  EXPECT_EQ(ViewOf(m, 0)->blocking, "");
}

// Rule: a player who cannot play on the open double draws, then puts the marker up; the
// double stays open for the next player.
TEST(MexicanTrainRules, UnableToCloseOpenDoubleDrawsThenMarker) {
  Match m = SmallMatch(4, {"12-6 6-6 12-4 1-0", "12-7 7-1 2-1 3-1"}, "5-0 8-0");
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "6-6 train 0"}, {0, "12-4 mexican"}});
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.PlayAll({{1, "draw"}, {1, "pass"}});
  EXPECT_TRUE(m.As<MexicanTrainState>().HasMarker(1));
  EXPECT_EQ(ViewOf(m, 0)->blocking, "train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));  // seat 0 too must close it: 1-0 does not fit
}

// Rule: after a double with no tile to follow, draw once; still unable, the marker goes up.
TEST(MexicanTrainRules, DoubleWithoutFollowUpDrawsOnceThenMarker) {
  Match m = SmallMatch(4, {"12-6 6-6 1-0 2-0", "12-7 7-1 2-1 3-1"}, "5-0");
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "6-6 train 0"}});
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(0, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  m.Play(0, "pass");
  EXPECT_TRUE(m.As<MexicanTrainState>().HasMarker(0));
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0"));
}

// Rule: two doubles in one turn when a third tile from hand then goes on one of them; the
// other is left open.
TEST(MexicanTrainRules, TwoDoublesWhenAThirdTileClosesOne) {
  Match m = SmallMatch(6, {"12-6 12-4 6-6 4-4 4-3 1-0", "12-7 7-1 2-1 3-1 5-1 5-2"});
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "12-4 mexican"}, {1, "7-1 train 1"},
             {0, "6-6 train 0"}});
  EXPECT_TRUE(Contains(m.Legal(), "4-4 mexican"));
  m.Play(0, "4-4 mexican");
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  EXPECT_THAT(m.Legal(), ElementsAre("4-3 mexican"));
  m.Play(0, "4-3 mexican");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0"));
}

// Rule: without a third tile in hand, a second double may not be played.
TEST(MexicanTrainRules, SecondDoubleNeedsAThirdTileFromHand) {
  Match m = SmallMatch(6, {"12-6 12-4 6-6 4-4 1-0 2-0", "12-7 7-1 2-1 3-1 5-1 5-2"});
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "12-4 mexican"}, {1, "7-1 train 1"},
             {0, "6-6 train 0"}});
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  EXPECT_THAT(std::string(m.Error("4-4 mexican").message()), HasSubstr("third tile"));
}

// Rule: "play two doubles ... if you are also able to play an additional third tile from your
// hand (without drawing)" and "If you do not have an additional playable tile, draw a tile and
// play it if you can": a drawn tile never makes a second double playable; only the drawn tile
// may be played after the draw.
TEST(MexicanTrainRules, SecondDoubleMayNotBeMadePlayableByDrawing) {
  Match m = SmallMatch(6, {"12-5 12-7 5-5 7-7 1-0 3-0", "12-9 9-8 8-6 6-4 4-2 2-1"}, "7-2");
  m.PlayAll({{0, "12-5 train 0"}, {1, "12-9 train 1"}, {0, "12-7 mexican"}, {1, "9-8 train 1"},
             {0, "5-5 train 0"}});
  // Neither double can be followed from the hand: 7-7 may not be played, so the seat draws.
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(0, "draw");
  EXPECT_TRUE(ViewOf(m, 0)->drew_this_turn);
  EXPECT_THAT(m.Legal(), ElementsAre("7-2 mexican"));
  const absl::Status error = m.Error("7-7 mexican");
  EXPECT_EQ(error.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(error.message()), HasSubstr("only the drawn tile (7-2)"));
  m.Play(0, "7-2 mexican");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0"));
}

// Rule: "draw a tile and play it if you can" — the drawn tile, not another: after a draw that
// does not fit, the only move is the marker, even with a double in hand.
TEST(MexicanTrainRules, AfterADrawOnlyTheDrawnTileMayBePlayed) {
  Match m = SmallMatch(6, {"12-5 12-7 5-5 7-7 1-0 3-0", "12-9 9-8 8-6 6-4 4-2 2-1"}, "11-0");
  m.PlayAll({{0, "12-5 train 0"}, {1, "12-9 train 1"}, {0, "12-7 mexican"}, {1, "9-8 train 1"},
             {0, "5-5 train 0"}, {0, "draw"}});
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  EXPECT_THAT(std::string(m.Error("7-7 mexican").message()), HasSubstr("only the drawn tile"));
}

// ---- Ending a round and scoring ----

// Rule: a round ends when a player plays their last tile, even a double; each player scores
// the pips left in hand; the lowest total wins.
TEST(MexicanTrainRules, DominoEvenWithADoubleEndsTheRound) {
  Match m = SmallMatch(2, {"12-6 6-6", "12-7 7-1"}, "", "classic", /*rounds=*/1);
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "6-6 train 0"}});
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 8));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2));
  auto view = ViewOf(m, kSpectator);
  ASSERT_TRUE(view->last_round.has_value());
  EXPECT_EQ(view->last_round->ended_by, trains::RoundEnd::kDomino);
  EXPECT_EQ(view->last_round->seat, 0);
}

// Rule: a round ends when the boneyard is empty and nobody can play (blocked); every hand's
// pips are scored. Checked on random matches: every blocked round had an empty boneyard and
// no seat able to play.
TEST(MexicanTrainRules, BlockedRoundEndsWithEmptyBoneyard) {
  int blocked = 0;
  for (uint64_t seed = 1; seed <= 30 && blocked < 3; ++seed) {
    trains::train_test::RandomMatch(
        "mexican_train", {{"players", "2"}, {"hand_size", "20"}}, seed, [](const State&) {},
        [&](const State& before, const State& after) {
          auto view = after.ViewFor(kSpectator);
          const auto& last = static_cast<MexicanTrainView&>(*view).last_round;
          ASSERT_TRUE(last.has_value());
          if (last->ended_by != trains::RoundEnd::kBlocked) return;
          ++blocked;
          const auto& b = static_cast<const MexicanTrainState&>(before);
          EXPECT_EQ(b.boneyard_count(), 0);
          for (int s = 0; s < 2; ++s) {
            // The round's last action may have been a play by this seat.
            EXPECT_LE(last->pips[s], trains::MaskPips(b.hand(s)));
            EXPECT_GT(last->pips[s], 0);
          }
        });
  }
  EXPECT_GT(blocked, 0);
}

// Rule: engines count down one per round (13 rounds for double-12, 10 for double-9) and the
// starter moves to the next seat each round.
TEST(MexicanTrainRules, EnginesCountDownAndStarterRotates) {
  for (const int set : {12, 9}) {
    std::vector<int> engines;
    std::vector<int> starters;
    trains::train_test::RandomMatch(
        "mexican_train", {{"set", std::to_string(set)}, {"players", "3"}, {"hand_size", "8"}}, 7,
        [&](const State& state) {
          engines.push_back(static_cast<const MexicanTrainState&>(state).engine());
          starters.push_back(state.CurrentSeat());
        },
        [](const State&, const State&) {});
    ASSERT_EQ(static_cast<int>(engines.size()), set + 1);
    for (int r = 0; r <= set; ++r) {
      EXPECT_EQ(engines[r], set - r);
      EXPECT_EQ(starters[r], r % 3);
    }
  }
}

// ---- Hidden information, notation ----

// Views: own hand, others' counts, every train, markers and open doubles; never another hand.
TEST(MexicanTrainRules, ViewsHideOtherHands) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 7-1 2-1 3-2"});
  const std::string json = m.base().ViewFor(1)->ToJson().dump();
  for (const char* tile : {"5-12", "12-5", "3-1", "4-2", "6-0"}) {
    EXPECT_EQ(json.find(tile), std::string::npos) << tile;
  }
  EXPECT_NE(json.find("12-7"), std::string::npos);
  auto spectator = ViewOf(m, kSpectator);
  EXPECT_TRUE(spectator->hand.empty());
  EXPECT_THAT(spectator->hand_counts, ElementsAre(4, 4));
  ASSERT_EQ(spectator->trains.size(), 3u);
  EXPECT_EQ(spectator->trains[2].Name(), "mexican");
}

TEST(MexicanTrainNotation, TrainsAreAddressedByOwnerOrMexican) {
  Match m = SmallMatch(4, {"12-5 3-1 4-2 6-0", "12-7 7-1 2-1 3-2"});
  EXPECT_EQ(*m.base().ParseAction("5-12  Train 1"), PlayAction(Tile(12, 5).BaseId(), 1));
  EXPECT_EQ(*m.base().ParseAction("12-5 MEXICAN"), PlayAction(Tile(12, 5).BaseId(), kMexican));
  EXPECT_EQ(m.base().ActionToString(PlayAction(Tile(12, 5).BaseId(), kMexican)), "12-5 mexican");
  for (const char* bad : {"12-5 train 2", "12-5", "13-1 mexican", "12-5 mexican 1", "take"}) {
    EXPECT_EQ(m.base().ParseAction(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

// Determinization deals the hidden tiles anew but keeps the seat's view.
TEST(MexicanTrainRules, DeterminizeKeepsTheSeatsView) {
  Match m("mexican_train", {{"players", "4"}}, {}, 5);
  Rng rng(9);
  auto sampled = m.base().Determinize(2, rng);
  EXPECT_EQ(sampled->ViewFor(2)->ToJson(), m.base().ViewFor(2)->ToJson());
  EXPECT_NE(sampled->ToString(), m.base().ToString());
  EXPECT_TRUE(sampled->CheckInvariants().ok());
}

// ---- Sheet 004: first-turn strings ----

// Rule: on the first turn a player lays a string of matching tiles on their own train, and
// no Mexican train; "stop" ends the string.
TEST(MexicanTrainFirstTurnStrings, StringOnOwnTrainOnly) {
  Match m = SmallMatch(4, {"12-5 5-3 3-1 9-0", "12-7 7-2 2-2 8-0"}, "", "first_turn_strings");
  EXPECT_THAT(m.Legal(), ElementsAre("12-5 train 0"));
  m.Play(0, "12-5 train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("5-3 train 0", "stop"));
  m.Play(0, "5-3 train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("3-1 train 0", "stop"));
  m.Play(0, "stop");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(m.Legal(), ElementsAre("12-7 train 1"));
  m.PlayAll({{1, "12-7 train 1"}, {1, "7-2 train 1"}, {1, "2-2 train 1"}});
  // A double in the string still obliges a play: nothing fits, so a draw (not "stop").
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
}

// Rule: after the first turn the Mexican train and marked trains open as usual.
TEST(MexicanTrainFirstTurnStrings, LaterTurnsPlayOneTileAnywhereEligible) {
  Match m = SmallMatch(4, {"12-5 5-3 12-1 9-0", "12-7 7-2 2-2 8-0"}, "", "first_turn_strings");
  m.PlayAll({{0, "12-5 train 0"}, {0, "stop"}, {1, "12-7 train 1"}, {1, "stop"}});
  EXPECT_THAT(m.Legal(), ElementsAre("5-3 train 0", "12-1 mexican"));
  m.Play(0, "5-3 train 0");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule: a player who cannot start their train draws one; a match is played at once, else the
// marker goes where the train would start.
TEST(MexicanTrainFirstTurnStrings, CannotStartDrawsThenMarker) {
  Match m = SmallMatch(4, {"1-0 2-0 3-0 4-0", "12-7 7-2 2-2 8-0"}, "5-1", "first_turn_strings");
  m.PlayAll({{0, "draw"}, {0, "pass"}});
  EXPECT_TRUE(m.As<MexicanTrainState>().HasMarker(0));
  Match n = SmallMatch(4, {"1-0 2-0 3-0 4-0", "12-7 7-2 2-2 8-0"}, "12-3", "first_turn_strings");
  n.Play(0, "draw");
  EXPECT_THAT(n.Legal(), ElementsAre("12-3 train 0"));
}

// Rule (sheet 004): a drawn tile that starts the train "must [be played] at that time"; the
// string then goes on from the hand like any other.
TEST(MexicanTrainFirstTurnStrings, StringGoesOnFromTheHandAfterADrawnStart) {
  Match m = SmallMatch(4, {"3-1 1-0 2-0 4-0", "12-7 7-2 2-2 8-0"}, "12-3", "first_turn_strings");
  m.Play(0, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("12-3 train 0"));
  m.Play(0, "12-3 train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("3-1 train 0", "stop"));
  m.PlayAll({{0, "3-1 train 0"}, {0, "1-0 train 0"}, {0, "stop"}});
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule: if a player goes out on the first turn, the others still play their first turn before
// the round ends.
TEST(MexicanTrainFirstTurnStrings, EveryoneGetsAFirstTurn) {
  Match m = SmallMatch(2, {"12-5 5-3", "12-7 7-2"}, "", "first_turn_strings", /*rounds=*/1);
  m.PlayAll({{0, "12-5 train 0"}, {0, "5-3 train 0"}});
  EXPECT_FALSE(m.base().IsTerminal());
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  m.PlayAll({{1, "12-7 train 1"}, {1, "stop"}});
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 9));
}

// ---- Sheet 002's train rules (house) ----

// Rule: doubles chain (a second double needs no third tile); the doubler may close only the
// first double of the turn; open doubles are closed strictly in the order played.
TEST(MexicanTrainHouse, DoublesChainAndCloseInOrder) {
  Match m = SmallMatch(6, {"12-6 12-4 6-6 4-4 4-3 1-0", "12-7 7-1 6-5 4-2 5-2 3-0"}, "8-0",
                       "house");
  m.PlayAll({{0, "12-6 train 0"}, {1, "12-7 train 1"}, {0, "12-4 mexican"}, {1, "7-1 train 1"},
             {0, "6-6 train 0"}, {0, "4-4 mexican"}});
  // 4-3 would close the second double: not allowed to the doubler.
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.PlayAll({{0, "draw"}, {0, "pass"}});
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0", "mexican"));
  EXPECT_THAT(m.Legal(), ElementsAre("6-5 train 0"));  // not 4-2 on the Mexican train
  m.Play(1, "6-5 train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("4-3 mexican"));
}

// Rule (sheet 002, `dead_doubles_free`): a double that is the last of its suit restricts
// nothing: "he and the rest of the players are free to play wherever they otherwise can".
// Seat 0 lays every 0 of a double-7 set on its train, then 0-0, which no tile can close; its
// follow-up may go anywhere under either rule, so the difference shows for the next player.
Match PlayToDeadDouble(bool dead_doubles_free) {
  RuleText rules = {{"preset", "classic"},
                    {"set", "7"},
                    {"deal_table", "sheet002_removal"},
                    {"players", "2"},
                    {"hand_size", "13"},
                    {"dead_doubles_free", dead_doubles_free ? "true" : "false"}};
  Match m("mexican_train", rules,
          {MakeDeal(7, 7,
                    {"7-0 1-0 2-1 2-0 3-0 4-3 4-0 5-0 6-5 6-0 0-0 7-3 6-4",
                     "7-1 3-1 5-3 7-5 7-2 3-2 6-3 6-1 4-1 5-4 6-6 5-5 2-2"})});
  const std::vector<std::string> own = {"7-0", "1-0", "2-1", "2-0", "3-0",
                                        "4-3", "4-0", "5-0", "6-5", "6-0"};
  const std::vector<std::string> other = {"7-1", "3-1", "5-3", "7-5", "7-2",
                                          "3-2", "6-3", "6-1", "4-1", "5-4"};
  for (size_t turn = 0; turn < own.size(); ++turn) {
    m.Play(0, own[turn] + " train 0");
    m.Play(1, other[turn] + " train 1");
  }
  m.Play(0, "0-0 train 0");
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  EXPECT_TRUE(ViewOf(m, 0)->must_follow_double);
  EXPECT_THAT(m.Legal(), ElementsAre("7-3 mexican"));
  m.Play(0, "7-3 mexican");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(ViewOf(m, 1)->open_doubles, ElementsAre("train 0"));
  return m;
}

TEST(MexicanTrainHouse, DeadDoubleRestrictsNothing) {
  Match m = PlayToDeadDouble(/*dead_doubles_free=*/true);
  EXPECT_EQ(ViewOf(m, 1)->blocking, "");
  EXPECT_THAT(m.Legal(), ElementsAre("5-5 train 1"));
  m.Play(1, "5-5 train 1");
}

TEST(MexicanTrainHouse, WithoutTheOptionADeadDoubleStillBlocks) {
  Match m = PlayToDeadDouble(/*dead_doubles_free=*/false);
  EXPECT_EQ(ViewOf(m, 1)->blocking, "train 0");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  EXPECT_THAT(std::string(m.Error("5-5 train 1").message()), HasSubstr("open double"));
}

// Rule (sheet 002): the holder of the highest double not yet used as an engine places it and
// plays again (their own train or the Mexican train).
TEST(MexicanTrainHouse, HolderOfTheEnginePlacesItAndPlaysAgain) {
  Match h("mexican_train", {{"preset", "house"}, {"players", "2"}, {"hand_size", "4"}},
          {MakeDeal(kSet, -1, {"3-1 4-2 5-0 6-1", "12-12 12-5 7-1 2-0"})});
  auto& state = h.As<MexicanTrainState>();
  EXPECT_EQ(state.engine(), 12);
  EXPECT_EQ(h.base().CurrentSeat(), 1);
  EXPECT_THAT(ViewOf(h, 1)->hand_counts, ElementsAre(4, 3));
  EXPECT_THAT(h.Legal(), ElementsAre("12-5 train 1", "12-5 mexican"));
}

// Rule (sheet 002): an engine nobody holds is skipped and looked for first the next round, so
// every double is the engine once.
TEST(MexicanTrainHouse, SkippedEngineIsLookedForNextRound) {
  Match m("mexican_train", {{"preset", "house"}, {"players", "2"}, {"hand_size", "2"}},
          {MakeDeal(kSet, -1, {"11-11 11-3", "5-4 6-2"}),
           MakeDeal(kSet, -1, {"10-10 2-1", "12-12 1-0"})});
  auto& state = m.As<MexicanTrainState>();
  EXPECT_EQ(state.engine(), 11);  // 12-12 is in the boneyard
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  m.Play(0, "11-3 train 0");  // the holder's last tile: domino
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 17));
  EXPECT_EQ(state.engine(), 12);  // the skipped 12-12, now held by seat 1
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule (sheet 002): "every double must be the engine one time in the course of the game".
TEST(MexicanTrainHouse, EveryDoubleIsTheEngineOnce) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::vector<int> engines;
    trains::train_test::RandomMatch(
        "mexican_train", {{"preset", "house"}, {"players", "3"}}, seed,
        [&](const State& state) {
          engines.push_back(static_cast<const MexicanTrainState&>(state).engine());
        },
        [](const State&, const State&) {});
    std::sort(engines.begin(), engines.end());
    EXPECT_THAT(engines, ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  }
}

// Rule (sheet 002): when nobody holds an unused engine, everyone draws one until one turns
// up; the highest drawn becomes the engine and its drawer places it.
TEST(MexicanTrainHouse, AllDrawWhenNobodyHoldsAnEngine) {
  Match m("mexican_train", {{"preset", "house"}, {"players", "2"}, {"hand_size", "3"}},
          {MakeDeal(kSet, -1, {"3-1 4-2 5-0", "7-1 2-0 6-3"}, "3-2 5-5")});
  auto& state = m.As<MexicanTrainState>();
  EXPECT_EQ(state.engine(), 5);
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(ViewOf(m, 0)->hand_counts, ElementsAre(4, 3));  // 3-2 drawn; 5-5 placed
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));  // seat 1 holds no 5 to start a train
}

}  // namespace
}  // namespace boneyard::mexican_train
