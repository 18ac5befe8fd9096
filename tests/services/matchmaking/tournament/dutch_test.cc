// The Dutch system rule by rule (C.04.3, the text applied from 1 February 2026), each with an
// explicit small event whose right pairing can be worked out by hand; the reasoning is in the
// comments. Broad agreement with other implementations is checked on generated tournaments
// (tests/services/matchmaking/tournament/testdata, dutch_corpus_test.cc).
#include "services/matchmaking/tournament/dutch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/swiss_state.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// Builds an event round by round: Game(r, white, black, result) with result "1" (white won),
// "0" (black won), "=" (draw), "+" (white won by forfeit), "-" (black won by forfeit).
class EventBuilder {
 public:
  EventBuilder(int entrants, int rounds) {
    event_.total_rounds = rounds;
    for (int i = 1; i <= entrants; ++i) {
      Entrant e;
      e.tpn = i;
      e.name = absl::StrCat("P", i);
      e.rounds.resize(rounds);
      event_.entrants.push_back(e);
    }
  }
  EventBuilder& Game(int r, int white, int black, const std::string& result) {
    RoundCode w = RoundCode::kDraw;
    RoundCode b = RoundCode::kDraw;
    if (result == "1") w = RoundCode::kWin, b = RoundCode::kLoss;
    if (result == "0") w = RoundCode::kLoss, b = RoundCode::kWin;
    if (result == "+") w = RoundCode::kForfeitWin, b = RoundCode::kForfeitLoss;
    if (result == "-") w = RoundCode::kForfeitLoss, b = RoundCode::kForfeitWin;
    event_.ByTpn(white).rounds[r - 1] = {black, Colour::kWhite, w};
    event_.ByTpn(black).rounds[r - 1] = {white, Colour::kBlack, b};
    return *this;
  }
  EventBuilder& Bye(int r, int tpn, RoundCode code) {
    event_.ByTpn(tpn).rounds[r - 1] = {0, Colour::kNone, code};
    return *this;
  }
  EventBuilder& Withdraw(int tpn) {
    event_.ByTpn(tpn).withdrawn = true;
    return *this;
  }
  EventBuilder& Forbid(int a, int b) {
    event_.forbidden_pairs.emplace_back(a, b);
    return *this;
  }
  EventBuilder& InitialColour(Colour c) {
    event_.initial_colour = c;
    return *this;
  }
  const EventRecord& event() const { return event_; }

 private:
  EventRecord event_;
};

std::vector<Board> Pair(const EventBuilder& b, int round) {
  auto boards = PairDutchRound(b.event(), round);
  EXPECT_TRUE(boards.ok()) << boards.status();
  return boards.ok() ? *boards : std::vector<Board>{};
}

TEST(DutchTest, FirstRoundPairsTopHalfAgainstBottomHalfWithAlternatingColours) {
  // S1 = 1..4, S2 = 5..8; odd TPNs of S1 take the initial colour (5.2.5).
  EXPECT_THAT(Pair(EventBuilder(8, 5), 1),
              ElementsAre(Board{1, 5}, Board{6, 2}, Board{3, 7}, Board{8, 4}));
}

TEST(DutchTest, InitialColourBlackSwapsEveryFirstRoundBoard) {
  EXPECT_THAT(Pair(EventBuilder(4, 3).InitialColour(Colour::kBlack), 1),
              ElementsAre(Board{3, 1}, Board{2, 4}));
}

TEST(DutchTest, OddFieldGivesThePairingAllocatedByeToTheLowestRanked) {
  // 5 entrants: S1 = 1,2; S2 = 3,4,5; 5 is left and gets the PAB, listed last.
  EXPECT_THAT(Pair(EventBuilder(5, 3), 1), ElementsAre(Board{1, 3}, Board{4, 2}, Board{5, 0}));
}

TEST(DutchTest, C1NoRematchEvenWhenItCostsTheNaturalPairing) {
  // Round 1: 1-3, 4-2 both drawn; everyone on 0.5, one bracket: S1 = 1,2 S2 = 3,4.
  // 1-3 is a rematch, so the transposition 1-4, 2-3 is taken.
  EventBuilder b(4, 3);
  b.Game(1, 1, 3, "=").Game(1, 4, 2, "=");
  const auto boards = Pair(b, 2);
  ASSERT_EQ(boards.size(), 2u);
  for (const Board& board : boards) {
    EXPECT_FALSE((board.white == 1 && board.black == 3) || (board.white == 3 && board.black == 1));
  }
}

TEST(DutchTest, ForfeitedGamesMayBeRepeated) {
  // C.04.2 3.5: 1 and 3 were paired but did not play; they may meet again.
  EventBuilder b(4, 3);
  b.Game(1, 1, 3, "+").Game(1, 4, 2, "1");
  // Scores: 1 and 4 on 1, 2 and 3 on 0. 1-4 in the top bracket, 2-3 below.
  EXPECT_THAT(Pair(b, 2), UnorderedElementsAre(::testing::AnyOf(Board{1, 4}, Board{4, 1}),
                                               ::testing::AnyOf(Board{2, 3}, Board{3, 2})));
}

TEST(DutchTest, ForbiddenPairsNeverMeet) {
  EventBuilder b(4, 3);
  b.Forbid(1, 3);
  const auto boards = Pair(b, 1);
  for (const Board& board : boards) {
    EXPECT_FALSE((board.white == 1 && board.black == 3) || (board.white == 3 && board.black == 1));
  }
}

TEST(DutchTest, C2NoSecondPairingAllocatedBye) {
  // Round 1: 1-3 (1 won), 4-2 (2 won), 5 had the PAB. Round 2: scores 1:1, 2:1, 5:1, 3:0,
  // 4:0. Odd field; 5 already had the PAB, so it goes to 3 or 4 (the lowest scores), never 5.
  EventBuilder b(5, 3);
  b.Game(1, 1, 3, "1").Game(1, 4, 2, "0").Bye(1, 5, RoundCode::kPairingBye);
  const auto boards = Pair(b, 2);
  ASSERT_FALSE(boards.empty());
  EXPECT_EQ(boards.back().black, 0);
  EXPECT_NE(boards.back().white, 5);
  EXPECT_TRUE(boards.back().white == 3 || boards.back().white == 4);
}

TEST(DutchTest, C2AForfeitWinAlsoRulesOutThePairingAllocatedBye) {
  // 1 beat 2 by forfeit in round 1; 3 and 4 drew; 5 had the PAB. Round 2 scores: 1:1, 5:1,
  // 3:0.5, 4:0.5, 2:0. The lowest score (2) takes the PAB: 2 is eligible (a forfeit loss).
  EventBuilder b(5, 3);
  b.Game(1, 1, 2, "+").Game(1, 3, 4, "=").Bye(1, 5, RoundCode::kPairingBye);
  EXPECT_EQ(Pair(b, 2).back(), (Board{2, 0}));
  // Had 2 won its forfeit instead, 2 would be ineligible: the bye goes elsewhere.
  EventBuilder c(5, 3);
  c.Game(1, 1, 2, "-").Game(1, 3, 4, "=").Bye(1, 5, RoundCode::kPairingBye);
  const auto boards = Pair(c, 2);
  EXPECT_NE(boards.back().white, 2);
  EXPECT_NE(boards.back().white, 5);
}

TEST(DutchTest, C3NonTopscorersWithTheSameAbsolutePreferenceDoNotMeet) {
  // Two rounds in, 1 and 2 both played white twice (absolute preference for black) and both
  // won; 3 and 4 played black twice. With 5 rounds round 3 is not the last: no topscorers,
  // so 1-2 and 3-4 may not be paired: 1-3 / 2-4 or 1-4 / 2-3 instead (C1 permitting).
  EventBuilder b(8, 5);
  b.Game(1, 1, 5, "1").Game(1, 2, 6, "1").Game(1, 7, 3, "0").Game(1, 8, 4, "0");
  b.Game(2, 1, 7, "1").Game(2, 2, 8, "1").Game(2, 5, 3, "0").Game(2, 6, 4, "0");
  const auto boards = Pair(b, 3);
  for (const Board& board : boards) {
    const bool one_two =
        (board.white == 1 && board.black == 2) || (board.white == 2 && board.black == 1);
    const bool three_four =
        (board.white == 3 && board.black == 4) || (board.white == 4 && board.black == 3);
    EXPECT_FALSE(one_two || three_four) << board.white << "-" << board.black;
  }
}

TEST(DutchTest, ByesAndAbsencesAreNotPaired) {
  // 5 asked for a half-point bye in round 2 (pre-entered 'H'); 6 withdrew. 1..4 are paired.
  EventBuilder b(6, 3);
  b.Game(1, 1, 4, "1").Game(1, 5, 2, "0").Game(1, 3, 6, "1");
  b.Bye(2, 5, RoundCode::kHalfBye).Withdraw(6);
  const auto boards = Pair(b, 2);
  ASSERT_EQ(boards.size(), 2u);
  for (const Board& board : boards) {
    EXPECT_NE(board.white, 5);
    EXPECT_NE(board.black, 5);
    EXPECT_NE(board.white, 6);
    EXPECT_NE(board.black, 6);
  }
}

TEST(DutchTest, C5ThePairingAllocatedByeGoesToTheLowestScorePossible) {
  // Round 2 of 7: scores 1:1 (beat 4), 2:1 (beat 5), 3:1 (beat 6), 7:1 (PAB), 4,5,6: 0.
  // The bottom scoregroup (4,5,6) is odd and all are eligible: one of them gets the bye.
  EventBuilder b(7, 5);
  b.Game(1, 1, 4, "1").Game(1, 5, 2, "0").Game(1, 3, 6, "1").Bye(1, 7, RoundCode::kPairingBye);
  const auto boards = Pair(b, 2);
  ASSERT_EQ(boards.back().black, 0);
  EXPECT_THAT(boards.back().white, ::testing::AnyOf(4, 5, 6));
}

TEST(DutchTest, C5TheLowestPossibleByeOutranksPairingTheTopBracket) {
  // Rounds 1-2 leave 1 and 3 on 2 points, 2 and 5 on 1, 6 on 0; 4 is absent from round 3.
  // 2 and 5 have met, so if 1 played 3 the PAB could not go to 6 (2 and 5 would be left).
  // C5 (the PAB to the lowest score) outranks C6 (fewest downfloaters): 1 and 3 float down
  // and meet 5 and 2; 6 gets the PAB.
  EventBuilder b(6, 3);
  b.Game(1, 1, 4, "1").Game(1, 5, 2, "0").Game(1, 3, 6, "1");
  b.Game(2, 2, 1, "0").Game(2, 4, 3, "0").Game(2, 6, 5, "0");
  b.Bye(3, 4, RoundCode::kZeroBye);
  EXPECT_THAT(Pair(b, 3), ElementsAre(Board{1, 5}, Board{3, 2}, Board{6, 0}));
}

TEST(DutchTest, C9ThePairingAllocatedByeGoesToWhoeverMissedFewestGames) {
  // Round 1: 1 beat 3, 2 beat 4, 5 was absent. Round 2: 3, 4 and 5 are on 0 and one of them
  // gets the PAB. 5 has an unplayed game already; 3 and 4 have none, so C9 rules 5 out and
  // the order of the bracket gives the bye to the lower of 3 and 4.
  EventBuilder b(5, 3);
  b.Game(1, 1, 3, "1").Game(1, 4, 2, "0").Bye(1, 5, RoundCode::kZeroBye);
  EXPECT_THAT(Pair(b, 2), ElementsAre(Board{2, 1}, Board{3, 5}, Board{4, 0}));
}

TEST(DutchTest, C12ColourPreferencesDecideBetweenTranspositions) {
  // Round 1 (7 entrants): 1-4, 5-2, 3-6 won by the higher TPN; 7 had the PAB. Round 2's top
  // bracket {1,2,3,7}: S1 = 1,2 S2 = 3,7. The first candidate 1-3, 2-7 leaves 1 and 3 both
  // wanting black (both had white); 1-7, 2-3 meets every preference, so it is chosen.
  EventBuilder b(7, 5);
  b.Game(1, 1, 4, "1").Game(1, 5, 2, "0").Game(1, 3, 6, "1").Bye(1, 7, RoundCode::kPairingBye);
  const auto boards = Pair(b, 2);
  EXPECT_THAT(boards, ::testing::Contains(Board{7, 1}));
  EXPECT_THAT(boards, ::testing::Contains(Board{2, 3}));
}

TEST(DutchTest, C6FewestDownfloatersBeforeColours) {
  // Round 2 of 4 entrants: 1 beat 3 (white), 2 beat 4 (black: 4-2). Scores 1:1, 2:1, 3:0,
  // 4:0. 1-2 is the only pairing of the top bracket (both preferences satisfiable: 1 wants
  // black, 2 wants white) — pairing it beats floating both down.
  EventBuilder b(4, 3);
  b.Game(1, 1, 3, "1").Game(1, 4, 2, "0");
  EXPECT_THAT(Pair(b, 2), ElementsAre(Board{2, 1}, Board{3, 4}));
}

TEST(DutchTest, HeterogeneousBracketPairsTheMovedDownPlayerWithTheHighestResident) {
  // Round 1: 1-4, 5-2 and 3-6, won by white. Round 2: three on 1 point (1, 3, 5), three on 0
  // (2, 4, 6).
  EventBuilder b(6, 4);
  b.Game(1, 1, 4, "1").Game(1, 5, 2, "1").Game(1, 3, 6, "1");
  const auto boards = Pair(b, 2);
  ASSERT_EQ(boards.size(), 3u);
  // The top bracket {1,3,5}: S1 = 1, S2 = 3,5: 1 (had white, wants black) against 3 (had
  // white, wants black) would miss a preference; 1-5 (5 had white too) the same; so the first
  // transposition, 1-3, is kept (C12 cannot do better) and 5 floats down.
  EXPECT_THAT(boards[0], ::testing::AnyOf(Board{1, 3}, Board{3, 1}));
  // 5 (1 point, wants black) meets the highest resident of {2,4,6} it has not met: not 2
  // (its round 1 opponent) but 4, who wants white: 4-5. The remainder pairs 2-6.
  EXPECT_THAT(boards[1], Board({4, 5}));
  EXPECT_THAT(boards[2], ::testing::AnyOf(Board{2, 6}, Board{6, 2}));
}

TEST(DutchTest, C14APlayerWhoFloatedDownLastRoundIsNotFloatedAgainWhenAvoidable) {
  // Round 1 (5 entrants): 1-3 (1 won), 4-2 (2 won), 5 had the PAB (a downfloat, 1.4.3).
  // Round 2: top bracket {1,2,5} on 1 point, odd: one floats down. 5 floated last round, so
  // 1 and 2 are not paired together unless necessary: 5 stays in, and the floater is 1 or 2.
  EventBuilder b(5, 4);
  b.Game(1, 1, 3, "1").Game(1, 4, 2, "0").Bye(1, 5, RoundCode::kPairingBye);
  const auto boards = Pair(b, 2);
  bool five_paired_at_top = false;
  for (const Board& board : boards) {
    const int other = board.white == 5 ? board.black : (board.black == 5 ? board.white : -1);
    if (other == 1 || other == 2) five_paired_at_top = true;
  }
  EXPECT_TRUE(five_paired_at_top);
}

TEST(DutchTest, ColourAllocationFollowsArticleFivePointTwo) {
  SwissEntrant a;
  a.tpn = 1;
  SwissEntrant b;
  b.tpn = 2;
  // 5.2.1: both preferences granted.
  a.preference = Colour::kBlack;
  a.strength = Strength::kMild;
  b.preference = Colour::kWhite;
  b.strength = Strength::kMild;
  EXPECT_EQ(AllocateColours(a, b, Colour::kWhite), (Board{2, 1}));
  // 5.2.2: the stronger preference wins (strong beats mild).
  b.preference = Colour::kBlack;
  b.strength = Strength::kStrong;
  b.colour_difference = 1;
  EXPECT_EQ(AllocateColours(a, b, Colour::kWhite), (Board{1, 2}));
  // 5.2.2: absolute beats strong.
  a.strength = Strength::kAbsolute;
  a.colour_difference = 2;
  EXPECT_EQ(AllocateColours(a, b, Colour::kWhite), (Board{2, 1}));
  // 5.2.3: equal mild preferences: alternate to the last round with different colours.
  SwissEntrant c;
  c.tpn = 3;
  c.colours = {Colour::kWhite, Colour::kBlack};
  c.preference = Colour::kWhite;
  c.strength = Strength::kMild;
  SwissEntrant d;
  d.tpn = 4;
  d.colours = {Colour::kBlack, Colour::kBlack, Colour::kWhite, Colour::kBlack};
  // Set by hand as an equal, mild preference for white, so that 5.2.1 and 5.2.2 cannot decide
  // (its history alone would make it absolute) and the tie goes on to 5.2.3.
  d.preference = Colour::kWhite;
  d.strength = Strength::kMild;
  // Latest games: c black / d black (same), then c white / d white (same): no difference;
  // c has no earlier game: 5.2.4 gives the higher ranked (c) its preference: white.
  EXPECT_EQ(AllocateColours(c, d, Colour::kWhite), (Board{3, 4}));
  c.colours = {Colour::kBlack, Colour::kWhite, Colour::kBlack};
  // Now: black/black, white/white, black/black... d's third-latest is black = c's: same;
  // c has no fourth: no difference, 5.2.4 again.
  EXPECT_EQ(AllocateColours(c, d, Colour::kWhite), (Board{3, 4}));
  c.colours = {Colour::kWhite, Colour::kWhite, Colour::kBlack};
  // Latest: black/black; then white/white; then c white / d black: differ. c takes d's
  // colour of then (black), d takes white.
  EXPECT_EQ(AllocateColours(c, d, Colour::kWhite), (Board{4, 3}));
  // 5.2.5: no preferences at all: the higher ranked takes the initial colour if its TPN is
  // odd, the other colour if even.
  SwissEntrant e;
  e.tpn = 6;
  SwissEntrant f;
  f.tpn = 9;
  EXPECT_EQ(AllocateColours(e, f, Colour::kWhite), (Board{9, 6}));
  EXPECT_EQ(AllocateColours(f, e, Colour::kWhite), (Board{9, 6}));
}

TEST(DutchTest, PreferencesFollowTheColourHistoryOfPlayedGamesOnly) {
  EventBuilder b(4, 5);
  b.Game(1, 1, 2, "1").Game(1, 3, 4, "1");
  b.Game(2, 1, 3, "+").Game(2, 4, 2, "=");  // 1's forfeit win does not count for colours
  auto round = PrepareSwissRound(b.event(), 3);
  ASSERT_TRUE(round.ok());
  for (const auto& e : round->entrants) {
    if (e.tpn == 1) {
      EXPECT_EQ(e.colours.size(), 1u);
      EXPECT_EQ(e.preference, Colour::kBlack);
      EXPECT_EQ(e.strength, Strength::kStrong);
      EXPECT_FALSE(e.bye_eligible);           // a win's points without playing
      EXPECT_EQ(e.float_last, Float::kDown);  // scored more than a loss without playing
    }
    if (e.tpn == 2) {
      EXPECT_EQ(e.colours, (std::vector<Colour>{Colour::kBlack, Colour::kBlack}));
      EXPECT_EQ(e.strength, Strength::kAbsolute);
      EXPECT_EQ(e.preference, Colour::kWhite);
    }
  }
}

TEST(DutchTest, ImpossibleRoundIsRefusedNotMispaired) {
  // Two entrants who already played each other cannot be paired again.
  EventBuilder b(2, 3);
  b.Game(1, 1, 2, "1");
  const auto boards = PairDutchRound(b.event(), 2);
  EXPECT_EQ(boards.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(DutchTest, RoundPastTheEventIsRefused) {
  EXPECT_EQ(PairDutchRound(EventBuilder(4, 3).event(), 4).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(PairDutchRound(EventBuilder(4, 3).event(), 0).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace boneyard::tournament
