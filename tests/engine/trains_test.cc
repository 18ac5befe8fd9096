// The shared train core (engine/games/trains/): deal tables, the round's deck and its
// determinization redeal, setup resolution and the small helpers both train games use.
#include "engine/games/trains/trains.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard::trains {
namespace {

using ::testing::ElementsAre;

TEST(TrainsTiles, TablesMatchTheEngineIds) {
  for (int id = 0; id < kMaxTiles; ++id) {
    const Tile t = TileOf(id);
    EXPECT_EQ(t.BaseId(), id);
    EXPECT_TRUE(TilesWithPip(t.hi).Test(id));
    EXPECT_TRUE(TilesWithPip(t.lo).Test(id));
  }
  EXPECT_EQ(TileOf(DoubleId(12)), Tile(12, 12));
  EXPECT_EQ(TilesWithPip(5).Count(), kMaxSetPip + 1);
  EXPECT_EQ(PlacedName(Tile(9, 4).BaseId(), 4), "4-9");
}

TEST(TrainsDealTables, EverySheetAndPlayerCount) {
  auto row = [](DealTable table, int set) {
    std::vector<int> out;
    for (int players = 2; players <= 8; ++players) out.push_back(HandSize(table, set, players));
    return out;
  };
  EXPECT_THAT(row(DealTable::kSheet000, 9), ElementsAre(20, 14, 11, 9, 7, 0, 0));
  EXPECT_THAT(row(DealTable::kSheet000, 12), ElementsAre(0, 0, 18, 14, 12, 10, 9));
  EXPECT_THAT(row(DealTable::kSheet003, 9), ElementsAre(20, 14, 11, 9, 7, 5, 5));
  EXPECT_THAT(row(DealTable::kSheet004, 12), ElementsAre(16, 15, 14, 12, 11, 10, 9));
  EXPECT_THAT(row(DealTable::kSheet002, 12), ElementsAre(15, 15, 15, 14, 12, 10, 9));
  EXPECT_THAT(row(DealTable::kSheet004, 9), ElementsAre(0, 0, 0, 0, 0, 0, 0));
  for (int players = 2; players <= 6; ++players) {
    EXPECT_EQ(RemovalSet(players), players + 5);
    EXPECT_EQ(HandSize(DealTable::kSheet002Removal, players + 5, players), 10);
  }
  EXPECT_EQ(RemovalSet(7), -1);
}

TEST(TrainsSetup, HandSizeAndRoundsAreChecked) {
  EXPECT_EQ(*ResolveHandSize("g", DealTable::kSheet000, 12, 2, 5), 5);
  EXPECT_FALSE(ResolveHandSize("g", DealTable::kSheet000, 12, 2, 0).ok());
  EXPECT_FALSE(ResolveHandSize("g", DealTable::kSheet000, 9, 2, 30).ok());  // 60 > 54 tiles
  EXPECT_EQ(*ResolveRounds(9, 0), 10);
  EXPECT_EQ(*ResolveRounds(12, 3), 3);
  EXPECT_FALSE(ResolveRounds(9, 11).ok());
}

TEST(TrainsDeck, DealsDrawsAndHidesByTheBook) {
  TileMask tiles;
  for (int id = 0; id < DistinctTiles(6); ++id) {
    if (id != DoubleId(6)) tiles.Set(id);
  }
  const Deal deal = train_test::MakeDeal(6, 6, {"6-5 6-4 1-0", "5-5 3-2 2-2"}, "6-0");
  RoundDeck deck;
  deck.Start(tiles, 2, 3, &deal, 1);
  EXPECT_EQ(deck.OriginalDeal(), deal);
  EXPECT_EQ(deck.boneyard_count(), 27 - 6);
  EXPECT_EQ(deck.HandPips(0), 11 + 10 + 1);
  EXPECT_EQ(deck.Draw(0), Tile(6, 0).BaseId());
  deck.Take(0, Tile(6, 5).BaseId());
  EXPECT_EQ(deck.hand_count(0), 3);
  EXPECT_EQ(deck.OriginalDeal(), deal);  // the deal as dealt, whatever happened since
  const TileMask hidden = deck.HiddenFrom(0);
  EXPECT_FALSE(hidden.Test(Tile(6, 0).BaseId()));
  EXPECT_TRUE(hidden.Test(Tile(5, 5).BaseId()));
  EXPECT_EQ(hidden.Count(), 3 + 20);
  EXPECT_EQ(deck.HiddenFrom(kSpectator).Count(), 3 + 3 + 20);
}

TEST(TrainsDeck, RedealKeepsTheSeatsHandAndEveryCount) {
  TileMask tiles;
  for (int id = 0; id < DistinctTiles(9); ++id) tiles.Set(id);
  RoundDeck deck;
  deck.Start(tiles, 4, 7, nullptr, 42);
  deck.Draw(1);
  RoundDeck copy = deck;
  Rng rng(3);
  copy.Redeal(2, rng);
  EXPECT_EQ(copy.hand(2), deck.hand(2));
  TileMask all = copy.Boneyard();
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(copy.hand_count(s), deck.hand_count(s));
    EXPECT_EQ(copy.hand(s).Count(), deck.hand_count(s));
    all |= copy.hand(s);
  }
  EXPECT_EQ(all.Count(), DistinctTiles(9));
  EXPECT_EQ(copy.boneyard_count(), deck.boneyard_count());
  EXPECT_NE(copy.ToString(), deck.ToString());
}

TEST(TrainsHelpers, WordsAndBestAction) {
  EXPECT_THAT(Words("  5-3 \tTRAIN  2 "), ElementsAre("5-3", "train", "2"));
  const std::vector<Action> legal = {3, 5, 9, 11};
  EXPECT_EQ(BestAction(std::span<const Action>(legal), [](Action a) { return a == 9 ? 1 : 0; }),
            9u);
  EXPECT_EQ(BestAction(std::span<const Action>(legal), [](Action) { return 0; }), 3u);
}

}  // namespace
}  // namespace boneyard::trains
