// The shared trick-taking core (engine/games/tricks/tricks.h): suits, trumps, ranks,
// follow-suit and trick winners as sheets 001/003/004 define them, Eighty-Four's identical
// tiles, the variants' suit rules, the bidding round, counts and the constrained redeal.
#include "engine/games/tricks/tricks.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::tricks {
namespace {

int Id(const std::string& text) { return IdOf(*Tile::Parse(text)); }

Hand Tiles(const std::string& text) {
  Hand h = 0;
  for (absl::string_view t : absl::StrSplit(text, ' ', absl::SkipEmpty())) h |= Bit(Id(std::string(t)));
  return h;
}

std::vector<std::string> Names(Hand h) {
  std::vector<std::string> out;
  for (; h; h &= h - 1) out.push_back(TileName(std::countr_zero(h)));
  return out;
}

Trick MakeTrick(const std::string& tiles, int leader = 0, int seats = 4) {
  Trick trick;
  int seat = leader;
  for (absl::string_view t : absl::StrSplit(tiles, ' ', absl::SkipEmpty())) {
    trick.Add(seat, Id(std::string(t)));
    seat = (seat + 1) % seats;
  }
  return trick;
}

// The winning tile of `tiles` (played in that order).
std::string Winner(const std::string& tiles, const TrickRules& rules) {
  const Trick trick = MakeTrick(tiles);
  return TileName(trick.tiles[WinningIndex(trick, rules)]);
}

TrickRules Trumps(int trump, int num_tiles = kSetTiles) {
  return TrickRules(trump, DoublesRank::kHigh, false, num_tiles);
}

// ---- Counts ----

// Rule: 5-5 and 6-4 count 10; 5-0, 4-1 and 3-2 count 5; 35 in a set (70 in two).
TEST(TrickRules, CountDominoes) {
  EXPECT_EQ(CountValue(Id("5-5")), 10);
  EXPECT_EQ(CountValue(Id("6-4")), 10);
  EXPECT_EQ(CountValue(Id("5-0")), 5);
  EXPECT_EQ(CountValue(Id("4-1")), 5);
  EXPECT_EQ(CountValue(Id("3-2")), 5);
  EXPECT_EQ(CountValue(Id("6-6")), 0);
  EXPECT_EQ(CountValue(Id("5-4")), 0);
  EXPECT_EQ(CountValue(Id("4-1'")), 5);
  EXPECT_EQ(CountPoints(AllTiles(kSetTiles)), 35);
  EXPECT_EQ(CountPoints(AllTiles(kMaxTiles)), 70);
}

// ---- Trumps ----

// Sheet example: fours trump rank 4-4 > 4-6 > 4-5 > 4-3 > 4-2 > 4-1 > 4-0, and 4-0 beats any
// tile that is not a four.
TEST(TrickRules, FoursTrumpRankingFromTheSheet) {
  const TrickRules fours = Trumps(4);
  const std::vector<std::string> order = {"4-4", "6-4", "5-4", "4-3", "4-2", "4-1", "4-0"};
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    EXPECT_EQ(Winner(order[i + 1] + " " + order[i], fours), order[i]) << order[i];
    EXPECT_EQ(Winner(order[i] + " " + order[i + 1], fours), order[i]) << order[i];
  }
  for (const char* other : {"6-6", "5-5", "6-5", "3-3", "0-0"}) {
    EXPECT_EQ(Winner(std::string(other) + " 4-0", fours), "4-0") << other;
  }
}

// Rule: a trump tile belongs only to the trump suit: with fours trump, 6-4 does not follow
// sixes, and led it calls trumps.
TEST(TrickRules, TrumpBelongsOnlyToTheTrumpSuit) {
  const TrickRules fours = Trumps(4);
  EXPECT_TRUE(fours.IsTrump(Id("6-4")));
  EXPECT_FALSE(fours.Follows(Id("6-4"), 6));
  EXPECT_TRUE(fours.Follows(Id("6-4"), 4));
  EXPECT_EQ(fours.LedSuit(Id("6-4")), 4);
  // Sixes led: holding 6-4 and 6-2, only 6-2 follows.
  EXPECT_THAT(Names(fours.LegalPlays(Tiles("6-4 6-2 1-0"), 6)), ::testing::ElementsAre("6-2"));
  // 6-4 led (trumps): the 6-2 does not follow, the 4-1 must be played.
  EXPECT_THAT(Names(fours.LegalPlays(Tiles("6-2 4-1 1-0"), fours.LedSuit(Id("6-4")))),
              ::testing::ElementsAre("4-1"));
}

// Sheet example: with no trump in it, 6-4 led calls sixes (its higher end).
TEST(TrickRules, LedNonTrumpCallsItsHigherEnd) {
  const TrickRules twos = Trumps(2);
  EXPECT_EQ(twos.LedSuit(Id("6-4")), 6);
  EXPECT_EQ(twos.LedSuit(Id("3-1")), 3);
  EXPECT_EQ(twos.LedSuit(Id("5-5")), 5);
  // A four does not follow 6-4; a six must.
  EXPECT_THAT(Names(twos.LegalPlays(Tiles("4-4 6-0 1-0"), 6)), ::testing::ElementsAre("6-0"));
}

// Rule: the double is the highest of its suit, then by the other end 6, 5, … 0.
TEST(TrickRules, DoubleHighestThenOtherEnd) {
  const TrickRules blanks = Trumps(0);
  EXPECT_EQ(Winner("6-5 6-6 6-4", blanks), "6-6");
  EXPECT_EQ(Winner("6-1 6-3 6-2", blanks), "6-3");
  EXPECT_EQ(Winner("5-1 5-4 6-5", blanks), "6-5");
  EXPECT_EQ(Winner("3-1 3-3 6-3", blanks), "3-3");
}

// Rule: must follow suit when able, else any tile, a trump included.
TEST(TrickRules, MustFollowSuitWhenAbleElseAnyTile) {
  const TrickRules fours = Trumps(4);
  EXPECT_EQ(fours.LegalPlays(Tiles("6-1 5-3 3-3 2-1"), 3), Tiles("5-3 3-3"));
  EXPECT_EQ(fours.LegalPlays(Tiles("6-1 4-0 2-1"), 3), Tiles("6-1 4-0 2-1"));
  EXPECT_EQ(fours.LegalPlays(Tiles("6-1 4-0 2-1"), -1), Tiles("6-1 4-0 2-1"));  // leading
}

// Rule: the highest trump wins, else the highest tile of the led suit; an off-suit tile
// never wins, however high.
TEST(TrickRules, HighestTrumpElseHighestOfLedSuit) {
  const TrickRules fours = Trumps(4);
  EXPECT_EQ(Winner("6-1 6-6 4-0 4-2", fours), "4-2");
  EXPECT_EQ(Winner("6-1 5-5 6-2 3-3", fours), "6-2");
  EXPECT_EQ(Winner("2-1 6-6 5-5 3-3", fours), "2-1");
}

// Eighty-Four: of two identical tiles, the first played ranks higher (either copy).
TEST(TrickRules, IdenticalTilesFirstPlayedWins) {
  const TrickRules fives = Trumps(5, kMaxTiles);
  EXPECT_EQ(Winner("6-4' 6-1 6-4", fives), "6-4'");
  EXPECT_EQ(Winner("6-4 6-1 6-4'", fives), "6-4");
  EXPECT_EQ(Winner("6-1 5-0 5-0'", fives), "5-0");
  EXPECT_EQ(Winner("6-1 5-0' 5-0", fives), "5-0'");
  EXPECT_NE(Id("6-4"), Id("6-4'"));
}

// ---- Variants' suits ----

// Doubles as trump: the seven doubles form the trump suit, 6-6 high; a double follows only
// the doubles; a non-double leads its higher end.
TEST(TrickRules, DoublesAsTrump) {
  const TrickRules doubles = Trumps(kTrumpDoubles);
  EXPECT_EQ(doubles.trump_suit(), kDoublesSuit);
  EXPECT_EQ(Winner("6-5 6-4 0-0", doubles), "0-0");
  EXPECT_EQ(Winner("1-1 6-6 5-5", doubles), "6-6");
  EXPECT_FALSE(doubles.Follows(Id("6-6"), 6));
  EXPECT_EQ(doubles.LegalPlays(Tiles("6-6 6-1 2-2"), 6), Tiles("6-1"));
  EXPECT_EQ(doubles.LegalPlays(Tiles("6-6 6-1 2-2"), kDoublesSuit), Tiles("6-6 2-2"));
}

// Follow-me: no trumps; doubles stay highest in their suit.
TEST(TrickRules, FollowMeHasNoTrumps) {
  const TrickRules none = Trumps(kNoTrump);
  EXPECT_EQ(none.trumps(), 0u);
  EXPECT_EQ(Winner("6-4 6-6 0-0", none), "6-6");
  EXPECT_EQ(Winner("6-4 5-5 4-4", none), "6-4");
  EXPECT_EQ(none.LegalPlays(Tiles("4-4 6-1"), none.LedSuit(Id("6-4"))), Tiles("6-1"));
}

// Nello options: the double lowest in its suit, or the doubles a suit of their own.
TEST(TrickRules, NelloDoublesLowOrOwnSuit) {
  const TrickRules low(kNoTrump, DoublesRank::kLow, false, kSetTiles);
  EXPECT_EQ(Winner("6-6 6-0", low), "6-0");
  EXPECT_EQ(Winner("6-0 6-6", low), "6-0");
  EXPECT_EQ(low.LedSuit(Id("6-6")), 6);
  const TrickRules own(kNoTrump, DoublesRank::kOwnSuit, false, kSetTiles);
  EXPECT_EQ(own.LedSuit(Id("3-3")), kDoublesSuit);
  EXPECT_EQ(Winner("3-3 6-6 6-5", own), "6-6");
  EXPECT_EQ(Winner("6-5 6-6", own), "6-5");  // 6-6 is not a six
  EXPECT_EQ(own.LegalPlays(Tiles("6-6 6-1 2-2"), 6), Tiles("6-1"));
}

// Sevens: the tile closest to seven pips wins, the first on a tie; each must play one of
// their tiles closest to seven.
TEST(TrickRules, SevensClosestToSevenWins) {
  const TrickRules sevens(kNoTrump, DoublesRank::kHigh, true, kSetTiles);
  EXPECT_EQ(Winner("6-6 4-2 2-2", sevens), "4-2");
  EXPECT_EQ(Winner("4-3 6-1 5-2", sevens), "4-3");
  EXPECT_EQ(Winner("6-2 3-3 0-0", sevens), "6-2");
  EXPECT_EQ(sevens.LegalPlays(Tiles("6-6 4-2 3-3 1-0"), -1), Tiles("4-2 3-3"));
  EXPECT_EQ(sevens.LegalPlays(Tiles("6-6 4-2 3-3 1-0"), 6), Tiles("4-2 3-3"));
}

// ---- Bidding ----

// Each seat bids or passes once, starting with `first`, clockwise; the highest bid wins.
TEST(BiddingRound, EachSeatOnceClockwiseHighestWins) {
  BiddingRound round(1, 4);
  EXPECT_EQ(round.current(), 1);
  round.Bid(30);
  EXPECT_EQ(round.current(), 2);
  round.Pass();
  round.Bid(34);
  EXPECT_FALSE(round.done());
  EXPECT_TRUE(round.is_last());
  EXPECT_EQ(round.current(), 0);
  round.Pass();
  EXPECT_TRUE(round.done());
  EXPECT_EQ(round.high_seat(), 3);
  EXPECT_EQ(round.high_value(), 34);
  EXPECT_EQ(round.said(1), 30);
  EXPECT_EQ(round.said(2), BiddingRound::kPassed);
}

TEST(BiddingRound, AllPassHasNoBid) {
  BiddingRound round(2, 4);
  for (int i = 0; i < 4; ++i) round.Pass();
  EXPECT_TRUE(round.done());
  EXPECT_FALSE(round.has_bid());
}

// ---- Constrained redeal ----

TEST(DealConstrained, RespectsEveryGroupsAllowedTiles) {
  const Hand pool = Tiles("6-6 6-5 6-4 6-3 5-5 5-4 5-3 4-4 4-3");
  const Hand sixes = Tiles("6-6 6-5 6-4 6-3");
  std::vector<Hand> allowed = {pool & ~sixes, pool, pool};
  std::vector<int> counts = {5, 2, 2};
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    std::vector<Hand> out(3);
    ASSERT_TRUE(DealConstrained(pool, allowed, counts, rng, out));
    EXPECT_EQ(out[0] & sixes, 0u);
    EXPECT_EQ(out[0] | out[1] | out[2], pool);
    for (int g = 0; g < 3; ++g) EXPECT_EQ(std::popcount(out[g]), counts[g]);
  }
}

TEST(DealConstrained, FailsWhenNoDealExists) {
  const Hand pool = Tiles("6-6 6-5 5-5");
  const Hand sixes = Tiles("6-6 6-5");
  std::vector<Hand> allowed = {pool & ~sixes, pool & ~sixes};
  std::vector<int> counts = {2, 1};
  Rng rng(1);
  std::vector<Hand> out(2);
  EXPECT_FALSE(DealConstrained(pool, allowed, counts, rng, out));
}

}  // namespace
}  // namespace boneyard::tricks
