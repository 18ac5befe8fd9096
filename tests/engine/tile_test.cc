#include "engine/core/tile.h"

#include "engine/core/tile_mask.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

TEST(Tile, CanonicalNotationIsHighPipFirst) {
  EXPECT_EQ(Tile(4, 6).ToString(), "6-4");
  EXPECT_EQ(Tile(6, 4).ToString(), "6-4");
  EXPECT_EQ(Tile(0, 0).ToString(), "0-0");
  EXPECT_EQ(Tile(18, 17).ToString(), "18-17");
}

TEST(Tile, ParsingAcceptsEitherOrder) {
  EXPECT_EQ(*Tile::Parse("4-6"), Tile(6, 4));
  EXPECT_EQ(*Tile::Parse("6-4"), Tile(6, 4));
  EXPECT_EQ(*Tile::Parse(" 12-3 "), Tile(12, 3));
}

TEST(Tile, SecondCopyIsMarkedWithAPrime) {
  const Tile t = *Tile::Parse("4-6'");
  EXPECT_EQ(t, Tile(6, 4, 1));
  EXPECT_EQ(t.ToString(), "6-4'");
  EXPECT_NE(t, Tile(6, 4));
}

TEST(Tile, MalformedTextIsRejectedWithAMessage) {
  for (const char* bad : {"", "6", "6-", "-4", "a-b", "6_4", "19-1", "6-4''", "+6-4", "6--4"}) {
    absl::StatusOr<Tile> t = Tile::Parse(bad);
    EXPECT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(Tile::Parse("19-1").status().message().find("0 to 18"), absl::string_view::npos);
}

TEST(Tile, Properties) {
  const Tile t(5, 3);
  EXPECT_FALSE(t.IsDouble());
  EXPECT_TRUE(Tile(2, 2).IsDouble());
  EXPECT_EQ(t.Pips(), 8);
  EXPECT_TRUE(t.Has(3));
  EXPECT_FALSE(t.Has(4));
  EXPECT_EQ(t.Other(3), 5);
  EXPECT_EQ(Tile(2, 2).Other(2), 2);
}

TEST(TileSet, SizesFromDoubleSixToDoubleEighteen) {
  EXPECT_EQ(TileSet::DoubleN(6)->size(), 28);
  EXPECT_EQ(TileSet::DoubleN(9)->size(), 55);
  EXPECT_EQ(TileSet::DoubleN(12)->size(), 91);
  EXPECT_EQ(TileSet::DoubleN(15)->size(), 136);
  EXPECT_EQ(TileSet::DoubleN(18)->size(), 190);
  EXPECT_EQ(TileSet::DoubleN(6, 2)->size(), 56);  // Eighty-Four's two double-6 sets
  EXPECT_FALSE(TileSet::DoubleN(19).ok());
  EXPECT_FALSE(TileSet::DoubleN(-1).ok());
  EXPECT_FALSE(TileSet::DoubleN(18, 2).ok());  // does not fit in a tile id
}

TEST(TileSet, IdsAreDenseNestedAndRoundTrip) {
  for (int n : {6, 9, 12, 15, 18}) {
    const TileSet set = *TileSet::DoubleN(n);
    std::vector<Tile> all = set.AllTiles();
    ASSERT_EQ(static_cast<int>(all.size()), set.size());
    TileMask seen;
    for (int id = 0; id < set.size(); ++id) {
      const Tile t = set.TileAt(id);
      EXPECT_EQ(set.IdOf(t), id);
      EXPECT_TRUE(set.Contains(t));
      EXPECT_FALSE(seen.Test(id));
      seen.Set(id);
    }
    EXPECT_EQ(seen.Count(), set.size());
    // A tile of a smaller set has the same id in a bigger one.
    EXPECT_EQ(set.IdOf(Tile(6, 4)), TileSet::DoubleN(6)->IdOf(Tile(6, 4)));
  }
  EXPECT_FALSE(TileSet::DoubleN(6)->Contains(Tile(7, 0)));
}

TEST(TileSet, TwoCopiesAreDistinguished) {
  const TileSet set = *TileSet::DoubleN(6, 2);
  EXPECT_NE(set.IdOf(Tile(6, 4, 0)), set.IdOf(Tile(6, 4, 1)));
  EXPECT_EQ(set.TileAt(set.IdOf(Tile(6, 4, 1))), Tile(6, 4, 1));
  EXPECT_FALSE(TileSet::DoubleN(6)->Contains(Tile(6, 4, 1)));
}

TEST(TileSet, TotalPips) {
  EXPECT_EQ(TileSet::DoubleN(6)->TotalPips(), 168);
  int sum = 0;
  for (const Tile& t : TileSet::DoubleN(12)->AllTiles()) sum += t.Pips();
  EXPECT_EQ(TileSet::DoubleN(12)->TotalPips(), sum);
}

TEST(TileMask, SetTestCountIterate) {
  TileMask m;
  EXPECT_TRUE(m.Empty());
  m.Set(0);
  m.Set(63);
  m.Set(64);
  m.Set(189);
  EXPECT_EQ(m.Count(), 4);
  EXPECT_TRUE(m.Test(189));
  m.Reset(63);
  std::vector<int> ids;
  m.ForEach([&](int id) { ids.push_back(id); });
  EXPECT_EQ(ids, (std::vector<int>{0, 64, 189}));
}

}  // namespace
}  // namespace boneyard
