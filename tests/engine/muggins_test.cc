// Muggins rules, one scenario per rule or ruling (docs/rules/muggins.md), each from an
// explicit deal. Seats play by action text, as a player or a record would.
#include "engine/games/muggins/muggins.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::muggins {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using engine_test::Contains;
using engine_test::Tiles;

// Hands as given; the boneyard starts with `boneyard` and goes on with every other tile in
// id order.
Deal MakeDeal(const std::vector<std::string>& hands, const std::string& boneyard = "") {
  return engine_test::MakeFullDeal(6, hands, boneyard);
}

std::shared_ptr<const Game> MakeGame(const RuleText& rules) {
  return engine_test::MakeGame("muggins", rules);
}

class Match : public engine_test::TypedMatch<MugginsState, MugginsView> {
 public:
  Match(const RuleText& rules, std::vector<Deal> deals, uint64_t seed = 1)
      : TypedMatch("muggins", rules, std::move(deals), seed) {}

  int Count() { return state().layout().Count(); }
  std::vector<int> Scores() { return base().Scores(); }
};

// ---- The sheet's counting example: ends 6 + 0 + 4 + 5 = 15 (Diagram 1). ----
// Seat 0 opens the spinner 3-3; 6-3 left, 3-0 right, 4-3 up; seat 0 then plays down.
Deal SheetExampleDeal() {
  return MakeDeal({"3-3 3-0 5-3 3-2 1-1 2-1 6-6", "6-3 4-3 0-0 1-0 2-0 2-2 4-4"});
}
const std::vector<std::pair<int, std::string>> kSheetExampleOpening = {
    {0, "3-3"}, {1, "6-3 left"}, {0, "3-0 right"}, {1, "4-3 up"}};

// ---- A long chain played on the right end: pips 6,5,4,3,2,1,0,6,4,2,0,5,3,1,6,3,0,4,... ----
const std::vector<std::string> kChain = {"6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-6",
                                         "6-4", "4-2", "2-0", "0-5", "5-3", "3-1", "1-6",
                                         "6-3", "3-0", "0-4", "4-1", "1-5", "5-2", "2-6"};
// Seat (i % players) plays kChain[i]: the opening, then always on the right.
std::vector<std::pair<int, std::string>> ChainMoves(int players, int plays) {
  std::vector<std::pair<int, std::string>> moves;
  for (int i = 0; i < plays; ++i) {
    moves.push_back({i % players, i == 0 ? kChain[0] : kChain[i] + " right"});
  }
  return moves;
}

// ---- Deal ----

// Rule: 2 players draw 7 tiles each; the other 14 are the boneyard.
TEST(MugginsRules, TwoPlayersDrawSevenEach) {
  Match m({{"players", "2"}}, {});
  auto view = m.View(0);
  EXPECT_THAT(view->hand_counts, ElementsAre(7, 7));
  EXPECT_EQ(view->boneyard_count, 14);
  EXPECT_EQ(view->hand.size(), 7u);
}

// Rule: 3 or 4 players draw 5 tiles each.
TEST(MugginsRules, ThreeAndFourPlayersDrawFiveEach) {
  Match three({{"players", "3"}}, {});
  EXPECT_THAT(three.View(kSpectator)->hand_counts, ElementsAre(5, 5, 5));
  EXPECT_EQ(three.View(kSpectator)->boneyard_count, 13);
  Match four({{"players", "4"}}, {});
  EXPECT_THAT(four.View(kSpectator)->hand_counts, ElementsAre(5, 5, 5, 5));
  EXPECT_EQ(four.View(kSpectator)->boneyard_count, 8);
}

// Rule: an explicit deal must be the whole double-6 set with hands of the right size.
TEST(MugginsRules, InvalidDealSizesRejected) {
  auto game = MakeGame({{"players", "2"}});
  Deal five_each = MakeDeal({"6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1"});
  absl::Status s = game->NewMatch(1, {five_each}).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("deals 7 each"));

  auto three = MakeGame({{"players", "3"}});
  Deal seven_each = MakeDeal({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
                              "4-3 4-2 4-1 4-0 3-3 3-2 3-1"});
  s = three->NewMatch(1, {seven_each}).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("deals 5 each"));

  Deal twice = MakeDeal({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"});
  twice.boneyard.back() = Tile(6, 6);
  s = game->NewMatch(1, {twice}).status();
  EXPECT_THAT(s.message(), HasSubstr("appears twice"));
}

// Rule: without an explicit deal, round r shuffles all 28 tiles with
// Rng(DeriveSeed(seed, r)); hands are consecutive blocks, the rest is the boneyard in order.
TEST(MugginsRules, SeededDealIsConsecutiveBlocksOfTheShuffle) {
  Match m({{"players", "3"}}, {}, 42);
  std::array<int, kTiles> deck{};
  for (int i = 0; i < kTiles; ++i) deck[i] = i;
  Rng rng(DeriveSeed(42, 0));
  rng.Shuffle(deck.data(), kTiles);
  const Deal deal = m.base().CurrentDeal();
  for (int s = 0; s < 3; ++s) {
    for (int k = 0; k < 5; ++k) EXPECT_EQ(deal.hands[s][k], TileOf(deck[s * 5 + k]));
  }
  ASSERT_EQ(deal.boneyard.size(), 13u);
  for (int i = 0; i < 13; ++i) EXPECT_EQ(deal.boneyard[i], TileOf(deck[15 + i]));
}

// Rule: CurrentDeal() gives back exactly the deal the round started with, and replaying it
// gives the same state.
TEST(MugginsRules, CurrentDealRoundTrips) {
  const Deal deal = SheetExampleDeal();
  Match m({{"players", "2"}}, {deal});
  EXPECT_EQ(m.base().CurrentDeal(), deal);
  m.PlayAll(kSheetExampleOpening);
  EXPECT_EQ(m.base().CurrentDeal(), deal);  // plays do not change the round's deal

  Match seeded({{"players", "4"}}, {}, 9);
  Match again({{"players", "4"}}, {seeded.base().CurrentDeal()}, 12345);
  EXPECT_EQ(again.base().ToString(), seeded.base().ToString());
}

// ---- Turn order ----

// Rule: seat 0 starts the first round; the starter rotates clockwise each round.
TEST(MugginsRules, SeatZeroStartsAndStarterRotates) {
  // Round 1: the three-player domino below; rounds 2 and 3 are dealt from the seed.
  Deal first = MakeDeal({"6-5 3-2 0-6 2-0 3-1", "5-4 2-1 6-4 0-5 3-3", "4-3 1-0 4-2 5-3 5-2"});
  Match m({{"players", "3"}}, {first});
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  m.PlayAll(ChainMoves(3, 13));
  ASSERT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  // Round 2 with first legal moves until round 3 starts.
  while (m.base().Round() == 1 && !m.base().IsTerminal()) {
    ActionList legal;
    m.base().LegalActions(legal);
    m.base().Apply(legal[0]);
  }
  ASSERT_EQ(m.base().Round(), 2);
  EXPECT_EQ(m.base().CurrentSeat(), 2);
}

// Rule: the first play of a round may be any tile, written without an end; play then moves
// clockwise to the next seat.
TEST(MugginsRules, OpeningPlaysAnyTileThenNextSeat) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  EXPECT_THAT(m.Legal(), ElementsAre("1-1", "2-1", "3-0", "3-2", "3-3", "5-3", "6-6"));
  m.Play(0, "2-1");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(m.Count(), 3);
}

// Rule: play goes clockwise (seat + 1), wrapping to seat 0.
TEST(MugginsRules, PlayMovesClockwise) {
  Deal deal = MakeDeal({"6-5 3-2 0-6 2-0 3-1", "5-4 2-1 6-4 0-5 3-3", "4-3 1-0 4-2 5-3 5-2"});
  Match m({{"players", "3"}}, {deal});
  const auto moves = ChainMoves(3, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(m.base().CurrentSeat(), i % 3);
    m.Play(moves[i].first, moves[i].second);
  }
  EXPECT_EQ(m.base().CurrentSeat(), 1);
}

// Rule: later plays put a tile that matches an open end, on that end.
TEST(MugginsRules, LaterPlaysMatchAnOpenEnd) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  m.Play(0, "3-2");  // left 3, right 2
  EXPECT_THAT(m.Legal(), ElementsAre("2-0 right", "2-2 right", "4-3 left", "6-3 left"));
  EXPECT_THAT(m.Error("4-4 left").message(), HasSubstr("does not match the left end (3)"));
}

// ---- Drawing and passing ----

// Rule: a player who can play must: "draw" and "pass" are not legal while a tile fits.
TEST(MugginsRules, MustPlayWhenAble) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  m.Play(0, "3-3");
  absl::Status draw = m.Error("draw");
  EXPECT_EQ(draw.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(draw.message(), HasSubstr("must play when able"));
  EXPECT_THAT(draw.message(), HasSubstr("4-3"));  // names a tile that fits
  EXPECT_THAT(m.Error("pass").message(), HasSubstr("must play when able"));
}

// Rule: with no tile that fits, the player draws, keeps the turn and draws again until a
// drawn tile fits, and must then play it.
TEST(MugginsRules, DrawUntilPlayableThenPlayIt) {
  // Seat 1 holds no 6 or 4; the boneyard gives 1-0, 2-2, then 6-1.
  Deal deal = MakeDeal({"6-4 6-6 5-5 5-4 5-3 5-2 5-1", "3-3 3-2 3-1 3-0 2-1 2-0 1-1"},
                       "1-0 2-2 6-1");
  Match m({{"players", "2"}}, {deal});
  m.Play(0, "6-4");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(1, "draw");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(1, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("draw"));
  m.Play(1, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("6-1 left"));  // the drawn tile fits: play it
  EXPECT_EQ(m.View(kSpectator)->hand_counts[1], 10);
  EXPECT_EQ(m.View(kSpectator)->boneyard_count, 11);
  m.Play(1, "6-1 left");
  EXPECT_EQ(m.base().CurrentSeat(), 0);
}

// Four players, seat 0 opens 6-6; seat 1 holds no 6 and nor does the boneyard, so seat 1
// draws all eight tiles and then must pass.
Deal PassDeal() {
  return MakeDeal({"6-6 6-5 6-4 1-1 1-0", "5-5 5-4 5-3 5-2 5-1", "6-3 6-2 4-4 4-3 4-2",
                   "6-1 6-0 4-1 4-0 3-3"});
}

// Rule: with nothing to play and an empty boneyard the player passes; "pass" is not legal
// while the boneyard has tiles, and "draw" not once it is empty.
TEST(MugginsRules, PassOnlyWhenBoneyardEmpty) {
  Match m({{"players", "4"}}, {PassDeal()});
  m.Play(0, "6-6");
  EXPECT_THAT(m.Error("pass").message(),
              HasSubstr("cannot pass while the boneyard has 8 tiles"));
  for (int i = 0; i < 8; ++i) m.Play(1, "draw");
  EXPECT_THAT(m.Legal(), ElementsAre("pass"));
  EXPECT_THAT(m.Error("draw").message(), HasSubstr("the boneyard is empty"));
  m.Play(1, "pass");
  EXPECT_EQ(m.base().CurrentSeat(), 2);
  EXPECT_THAT(m.View(0)->void_pips[1], ElementsAre(6));  // public: seat 1 has no 6
}

// ---- Spinner ----

// Rule: the first double is the spinner, also when it is the opening tile; up and down open
// only after its left and right both have a tile.
TEST(MugginsRules, OpeningDoubleIsSpinnerAndArmsOpenAfterLeftAndRight) {
  Deal deal = MakeDeal({"5-5 5-1 2-2 3-3 4-4 6-6 6-0", "5-0 5-2 5-3 5-4 1-0 2-0 3-0"});
  Match m({{"players", "2"}}, {deal});
  m.Play(0, "5-5");
  EXPECT_TRUE(m.state().layout().has_spinner());
  EXPECT_FALSE(m.state().layout().arms_open());
  EXPECT_FALSE(Contains(m.Legal(), "5-0 up"));
  m.Play(1, "5-0 left");
  EXPECT_FALSE(m.state().layout().arms_open());  // right side still empty
  EXPECT_THAT(m.Error("5-1 up").message(), HasSubstr("only after its left and right both"));
  m.Play(0, "5-1 right");
  EXPECT_TRUE(m.state().layout().arms_open());
  EXPECT_TRUE(Contains(m.Legal(), "5-2 up"));
  EXPECT_TRUE(Contains(m.Legal(), "5-2 down"));
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->spinner_index, 1);
  EXPECT_EQ(view->ToJson()["layout"]["spinner"], "5-5");
}

// Rule: the first double played later, at an end of the line, is the spinner; its line side
// is already filled, so up and down open once its outer side is played on.
TEST(MugginsRules, FirstDoublePlayedAtAnEndIsSpinner) {
  Deal deal = MakeDeal({"6-4 6-1 2-2 3-3 5-5 1-0 2-0", "6-6 6-2 6-3 4-0 4-1 3-0 5-0"});
  Match m({{"players", "2"}}, {deal});
  m.Play(0, "6-4");
  EXPECT_FALSE(m.state().layout().has_spinner());
  m.Play(1, "6-6 left");
  EXPECT_EQ(m.state().layout().spinner_pip(), 6);
  EXPECT_FALSE(m.state().layout().arms_open());
  EXPECT_EQ(m.Count(), 16);  // the spinner at the left end counts both halves: 12 + 4
  m.Play(0, "6-1 left");
  EXPECT_TRUE(m.state().layout().arms_open());
  EXPECT_EQ(m.Count(), 5);  // 1 + 4; up and down not played on yet
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->spinner_index, 1);
  ASSERT_EQ(view->line.size(), 3u);
  EXPECT_EQ(view->line[0].ToString(), "1-6");
  EXPECT_EQ(view->line[1].ToString(), "6-6");
  EXPECT_EQ(view->line[2].ToString(), "6-4");
}

// Rule: only the first double is a spinner; a later double is placed sideways at the end it
// is played on and counts both halves there.
TEST(MugginsRules, LaterDoublesCountBothHalvesAndAreNotSpinners) {
  Deal deal = MakeDeal({"5-5 5-1 3-3 6-6 6-0 4-0 2-0", "5-3 5-2 1-1 4-4 1-0 3-0 2-2"});
  Match m({{"players", "2"}}, {deal});
  m.Play(0, "5-5");
  m.Play(1, "5-3 left");   // 3 + spinner 10 = 13
  EXPECT_EQ(m.Count(), 13);
  m.Play(0, "5-1 right");  // 3 + 1
  EXPECT_EQ(m.Count(), 4);
  m.Play(1, "1-1 right");  // a later double at the right end: 3 + 2
  EXPECT_EQ(m.Count(), 5);
  EXPECT_EQ(m.state().layout().spinner_pip(), 5);
  EXPECT_TRUE(m.state().layout().EndIsDouble(kRight));
  m.Play(0, "3-3 left");  // 6 + 2
  EXPECT_EQ(m.Count(), 8);
  EXPECT_THAT(m.Legal(), ::testing::Contains("5-2 up"));
  m.Play(1, "5-2 up");  // up counts once played on: 6 + 2 + 2
  EXPECT_EQ(m.Count(), 10);
}

// Ruling: up and down count only once played on; "up" without a spinner is refused.
TEST(MugginsRules, UpAndDownNeedASpinner) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  m.Play(0, "2-1");
  absl::Status s = m.Error("5-5 up");
  EXPECT_THAT(s.message(), HasSubstr("not in your hand"));
  m.Play(1, "1-0 right");
  s = m.Error("3-2 up");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("no spinner yet"));
}

// ---- Counting ----

// Ruling: a lone first tile counts both its ends: 5-5 alone makes 10, 3-2 makes 5.
TEST(MugginsRules, LoneFirstTileCountsBothEnds) {
  Deal deal = MakeDeal({"5-5 3-2 1-1 1-0 2-0 2-2 6-6", "6-5 6-4 6-3 4-4 4-3 4-2 4-1"});
  Match five_five({{"players", "2"}}, {deal});
  five_five.Play(0, "5-5");
  EXPECT_EQ(five_five.Count(), 10);
  EXPECT_THAT(five_five.Scores(), ElementsAre(10, 0));
  Match three_two({{"players", "2"}}, {deal});
  three_two.Play(0, "3-2");
  EXPECT_EQ(three_two.Count(), 5);
  EXPECT_THAT(three_two.Scores(), ElementsAre(5, 0));
}

// Ruling: the spinner counts both halves while its left or right side is still empty.
TEST(MugginsRules, SpinnerWithOneSideEmptyCountsBothHalves) {
  Deal deal = MakeDeal({"5-5 1-1 2-2 3-3 4-4 6-6 6-0", "5-0 5-3 1-0 2-0 3-0 4-0 6-1"});
  Match m({{"players", "2"}}, {deal});
  m.Play(0, "5-5");
  m.Play(1, "5-0 left");  // 0 + 5 + 5
  EXPECT_EQ(m.Count(), 10);
  EXPECT_THAT(m.Scores(), ElementsAre(10, 10));
}

// Rule (sheet example): ends 6 + 0 + 4 + 5 = 15 scores 15.
TEST(MugginsRules, CountFifteenScores) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  m.PlayAll(kSheetExampleOpening);
  EXPECT_THAT(m.Scores(), ElementsAre(0, 10));  // 4-3 up made 6 + 0 + 4 = 10
  m.Play(0, "5-3 down");
  EXPECT_EQ(m.Count(), 15);
  EXPECT_THAT(m.Scores(), ElementsAre(15, 10));
  auto view = m.View(kSpectator);
  EXPECT_THAT(view->ToText(), HasSubstr("line: [6-3][3-3][3-0]"));
  EXPECT_THAT(view->ToText(), HasSubstr("up: [3-4]   down: [3-5]"));
  EXPECT_THAT(view->ToText(), HasSubstr("ends: left 6, right 0, up 4, down 5  count 15"));
}

// Rule (sheet example): ends 6 + 0 + 4 + 2 = 12 scores nothing.
TEST(MugginsRules, CountTwelveScoresNothing) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  m.PlayAll(kSheetExampleOpening);
  m.Play(0, "3-2 down");
  EXPECT_EQ(m.Count(), 12);
  EXPECT_THAT(m.Scores(), ElementsAre(0, 10));
}

// ---- End of round ----

// Ruling: the opponents' pips are rounded once to the nearest five: 12 → 10, 13 → 15.
TEST(MugginsRules, RoundToNearestFive) {
  EXPECT_EQ(RoundToFive(12), 10);
  EXPECT_EQ(RoundToFive(13), 15);
  EXPECT_EQ(RoundToFive(10), 10);
  EXPECT_EQ(RoundToFive(11), 10);
  EXPECT_EQ(RoundToFive(14), 15);
  EXPECT_EQ(RoundToFive(0), 0);
  EXPECT_EQ(RoundToFive(2), 0);
}

// Rule: a player who dominoes adds the opponent's pips rounded to five (12 → 10).
TEST(MugginsRules, DominoScoresOpponentPipsRounded) {
  Deal deal = MakeDeal({"6-5 4-3 2-1 0-6 4-2 0-5 3-1", "5-4 3-2 1-0 6-4 2-0 5-3 6-6"});
  Match m({{"players", "2"}}, {deal});
  auto moves = ChainMoves(2, 13);
  m.PlayAll({moves.begin(), moves.end() - 1});
  const int before = m.Scores()[0];
  const int count_points = m.state().ScoreOf(IdOf(Tile(3, 1)), kRight);
  m.Play(0, "3-1 right");  // seat 0's last tile; seat 1 keeps 6-6 = 12 pips
  EXPECT_EQ(m.Scores()[0], before + count_points + 10);
  EXPECT_EQ(m.base().Round(), 1);
  auto view = m.View(kSpectator);
  ASSERT_TRUE(view->last_round.has_value());
  EXPECT_EQ(view->last_round->ended_by, RoundEnd::kDomino);
  EXPECT_EQ(view->last_round->seat, 0);
  EXPECT_THAT(view->last_round->pips, ElementsAre(0, 12));
  EXPECT_THAT(view->last_round->points, ElementsAre(10, 0));
}

// Rule: with three players the domino adds both opponents' sums, summed then rounded once:
// 6 + 7 = 13 → 15 (rounding each would give 5 + 5).
TEST(MugginsRules, ThreePlayerDominoAddsBothOpponentsRoundedOnce) {
  Deal deal = MakeDeal({"6-5 3-2 0-6 2-0 3-1", "5-4 2-1 6-4 0-5 3-3", "4-3 1-0 4-2 5-3 5-2"});
  Match m({{"players", "3"}}, {deal});
  auto moves = ChainMoves(3, 13);
  m.PlayAll({moves.begin(), moves.end() - 1});
  const int before = m.Scores()[0];
  const int count_points = m.state().ScoreOf(IdOf(Tile(3, 1)), kRight);
  m.Play(0, "3-1 right");
  EXPECT_EQ(m.Scores()[0], before + count_points + 15);
  EXPECT_THAT(m.View(kSpectator)->last_round->pips, ElementsAre(0, 6, 7));
}

// Four partners: seat 0 dominoes with 0-4; opponents keep 5-2 (7) and 3-3 (6), the partner
// keeps 6-6 (12).
Deal TeamDominoDeal() {
  return MakeDeal({"6-5 2-1 4-2 3-1 0-4", "5-4 1-0 2-0 1-6 5-2", "4-3 0-6 0-5 6-3 6-6",
                   "3-2 6-4 5-3 3-0 3-3"});
}

// Rule: in team play the partner's pips are not added: 7 + 6 = 13 → 15, not 25.
TEST(MugginsRules, TeamDominoExcludesPartner) {
  Match m({{"players", "4"}, {"teams", "true"}}, {TeamDominoDeal()});
  auto moves = ChainMoves(4, 17);
  m.PlayAll({moves.begin(), moves.end() - 1});
  const std::vector<int> before = m.Scores();
  const int count_points = m.state().ScoreOf(IdOf(Tile(4, 0)), kRight);
  EXPECT_EQ(count_points, 10);  // 6 + 4
  m.Play(0, "0-4 right");
  const int team_gain = count_points + 15;
  EXPECT_THAT(m.Scores(), ElementsAre(before[0] + team_gain, before[1], before[0] + team_gain,
                                      before[1]));
}

// Blocked at once after seat 2 draws the last tile: the line 0-0 ... 6-0 shows 0 at both
// ends, all seven 0 tiles are down and the arms never open (the spinner's left is empty).
// Left over: seat 0 {1-1 4-1} = 7, seat 1 {2-2 3-1} = 8, seat 3 {3-3 5-1 4-2} = 18, seat 2
// its three doubles plus the whole boneyard = 93.
Deal BlockedDeal() {
  return MakeDeal({"0-0 3-0 6-5 1-1 4-1", "1-0 4-3 6-0 2-2 3-1", "2-1 4-0 6-6 5-5 4-4",
                   "2-0 5-0 3-3 5-1 4-2"},
                  "6-1 3-2 5-2 6-2 5-3 6-3 5-4 6-4");
}
const std::vector<std::pair<int, std::string>> kBlockedMoves = {
    {0, "0-0"},       {1, "1-0 right"}, {2, "2-1 right"}, {3, "2-0 right"}, {0, "3-0 right"},
    {1, "4-3 right"}, {2, "4-0 right"}, {3, "5-0 right"}, {0, "6-5 right"}, {1, "6-0 right"},
    {2, "draw"},      {2, "draw"},      {2, "draw"},      {2, "draw"},      {2, "draw"},
    {2, "draw"},      {2, "draw"}};

// Rule: a blocked round (boneyard empty, nobody can play) ends at once; the player with
// the lowest pip sum adds the opponents' sums rounded once (8 + 93 + 18 = 119 → 120).
TEST(MugginsRules, BlockedLowestSumScoresOpponents) {
  Match m({{"players", "4"}}, {BlockedDeal()});
  m.PlayAll(kBlockedMoves);
  EXPECT_EQ(m.base().Round(), 0);
  const std::vector<int> before = m.Scores();
  m.Play(2, "draw");  // the last tile: nobody can play now
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_THAT(m.Scores(), ElementsAre(before[0] + 120, before[1], before[2], before[3]));
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->last_round->ended_by, RoundEnd::kBlocked);
  EXPECT_THAT(view->last_round->pips, ElementsAre(7, 8, 93, 18));
  EXPECT_THAT(view->last_round->points, ElementsAre(120, 0, 0, 0));
}

// Rule: in team play the team with the lowest combined sum adds the other team's sum:
// seats 1+3 have 8 + 18 = 26 against 7 + 93 = 100, so they score 100 although seat 0 alone
// has the fewest pips.
TEST(MugginsRules, BlockedTeamLowestCombinedScores) {
  Match m({{"players", "4"}, {"teams", "true"}}, {BlockedDeal()});
  m.PlayAll(kBlockedMoves);
  const std::vector<int> before = m.Scores();
  m.Play(2, "draw");
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_THAT(m.Scores(), ElementsAre(before[0], before[1] + 100, before[2], before[3] + 100));
}

// Ruling: blocked with a tie for the lowest sum: nobody scores (seats 0 and 1 have 8 each).
TEST(MugginsRules, BlockedTieNobodyScores) {
  Deal deal = MakeDeal({"0-0 3-0 6-5 2-2 3-1", "1-0 4-3 6-0 1-1 5-1", "2-1 4-0 6-6 5-5 4-4",
                        "2-0 5-0 3-3 4-1 4-2"},
                       "6-1 3-2 5-2 6-2 5-3 6-3 5-4 6-4");
  Match m({{"players", "4"}}, {deal});
  m.PlayAll(kBlockedMoves);
  const std::vector<int> before = m.Scores();
  m.Play(2, "draw");
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.Scores(), before);
  EXPECT_THAT(m.View(kSpectator)->last_round->pips, ElementsAre(8, 8, 93, 17));
}

// ---- Target ----

// Seat 0 scores 10 (5-5 alone), 10, 15 and 20 in its first four plays: 55.
Deal FastScoresDeal() {
  return MakeDeal({"5-5 5-4 5-2 2-2 1-0 2-1 3-0", "6-5 5-3 3-3 1-1 2-0 4-1 6-6"});
}
const std::vector<std::pair<int, std::string>> kFastScores = {
    {0, "5-5"}, {1, "6-5 left"}, {0, "5-4 right"}, {1, "5-3 up"}, {0, "5-2 down"},
    {1, "3-3 up"}};

// Rule: reaching the target wins at once, even mid-round: the match is over.
TEST(MugginsRules, TargetWinsMidRound) {
  Match m({{"target", "50"}}, {FastScoresDeal()});
  m.PlayAll(kFastScores);
  EXPECT_THAT(m.Scores(), ElementsAre(35, 0));
  m.Play(0, "2-2 down");  // 6 + 4 + 6 + 4 = 20
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_EQ(m.base().CurrentSeat(), kNobody);
  EXPECT_THAT(m.Scores(), ElementsAre(55, 0));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2));
  EXPECT_TRUE(m.Legal().empty());
  EXPECT_EQ(m.base().ResultDetails()["ended_by"], "count");
  EXPECT_THAT(m.Error("draw").message(), HasSubstr("over"));
}

// Rule option: `target` (default 250) sets the score that wins.
TEST(MugginsRules, OptionTarget) {
  Match m({}, {FastScoresDeal()});
  EXPECT_EQ(m.View(0)->target, 250);
  m.PlayAll(kFastScores);
  m.Play(0, "2-2 down");
  EXPECT_FALSE(m.base().IsTerminal());  // 55 < 250
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  Match quick({{"preset", "quick"}}, {FastScoresDeal()});
  EXPECT_EQ(quick.View(0)->target, 100);
}

// ---- claim_scoring ----

// Rule option: with claim_scoring a scoring play has a "claim" form that scores.
TEST(MugginsClaimScoring, ClaimedScoreCounts) {
  Match m({{"claim_scoring", "true"}}, {SheetExampleDeal()});
  m.Play(0, "3-3");
  m.Play(1, "6-3 left");
  m.Play(0, "3-0 right");
  EXPECT_TRUE(Contains(m.Legal(), "4-3 up claim"));
  m.Play(1, "4-3 up claim");
  EXPECT_THAT(m.Legal(), ::testing::IsSupersetOf({"5-3 down", "5-3 down claim", "3-2 down"}));
  EXPECT_FALSE(Contains(m.Legal(), "3-2 down claim"));  // 12: nothing to claim
  EXPECT_THAT(m.Error("3-2 down claim").message(), HasSubstr("nothing to claim"));
  m.Play(0, "5-3 down claim");
  EXPECT_THAT(m.Scores(), ElementsAre(15, 10));
  EXPECT_FALSE(Contains(m.Legal(), "muggins"));
}

// Rule option: the opening play's claim form is "<tile> claim".
TEST(MugginsClaimScoring, OpeningClaim) {
  Deal deal = MakeDeal({"5-5 3-2 1-1 1-0 2-0 2-2 6-6", "6-5 6-4 6-3 4-4 4-3 4-2 4-1"});
  Match m({{"claim_scoring", "true"}}, {deal});
  EXPECT_TRUE(Contains(m.Legal(), "5-5 claim"));
  EXPECT_FALSE(Contains(m.Legal(), "1-1 claim"));
  m.Play(0, "5-5 claim");
  EXPECT_THAT(m.Scores(), ElementsAre(10, 0));
}

// Rule option: an unclaimed score scores nothing, and the next seat may call "muggins"
// first thing in its turn to take it; its turn then goes on.
TEST(MugginsClaimScoring, MugginsStealsUnclaimedScore) {
  Match m({{"claim_scoring", "true"}}, {SheetExampleDeal()});
  m.PlayAll({{0, "3-3"}, {1, "6-3 left"}, {0, "3-0 right"}, {1, "4-3 up claim"}});
  m.Play(0, "5-3 down");  // 15, not claimed
  EXPECT_THAT(m.Scores(), ElementsAre(0, 10));
  EXPECT_EQ(m.View(1)->unclaimed_points, 15);
  EXPECT_EQ(m.View(1)->unclaimed_by, 0);
  EXPECT_EQ(m.Legal().back(), "muggins");
  m.Play(1, "muggins");
  EXPECT_THAT(m.Scores(), ElementsAre(0, 25));
  EXPECT_EQ(m.base().CurrentSeat(), 1);  // still seat 1's turn
  EXPECT_FALSE(Contains(m.Legal(), "muggins"));
  EXPECT_THAT(m.Error("muggins").message(), HasSubstr("nothing to steal"));
}

// Rule option: if the next seat plays instead of calling muggins, the points are lost.
TEST(MugginsClaimScoring, UnclaimedPointsLostIfNotCalled) {
  Match m({{"claim_scoring", "true"}}, {SheetExampleDeal()});
  m.PlayAll({{0, "3-3"}, {1, "6-3 left"}, {0, "3-0 right"}, {1, "4-3 up claim"}});
  m.Play(0, "5-3 down");
  m.Play(1, "1-0 right");  // 6 + 1 + 4 + 5 = 16: no score of its own
  EXPECT_THAT(m.Scores(), ElementsAre(0, 10));
  EXPECT_EQ(m.View(0)->unclaimed_points, 0);
  EXPECT_FALSE(Contains(m.Legal(), "muggins"));
}

// Rule option: an unclaimed score on the play that ends the round cannot be called: the
// new round starts without "muggins".
TEST(MugginsClaimScoring, NoMugginsAfterTheRoundEnds) {
  Match m({{"players", "4"}, {"teams", "true"}, {"claim_scoring", "true"}}, {TeamDominoDeal()});
  auto moves = ChainMoves(4, 17);
  m.PlayAll({moves.begin(), moves.end() - 1});
  const std::vector<int> before = m.Scores();
  m.Play(0, "0-4 right");  // the count of 10 is not claimed
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.Scores()[0], before[0] + 15);  // only the domino
  EXPECT_FALSE(Contains(m.Legal(), "muggins"));
}

// Rule: claims and muggins belong to claim_scoring only.
TEST(MugginsClaimScoring, ClaimAndMugginsNeedTheOption) {
  Match m({}, {SheetExampleDeal()});
  m.PlayAll(kSheetExampleOpening);
  EXPECT_THAT(m.Error("5-3 down claim").message(), HasSubstr("claim_scoring=true"));
  EXPECT_THAT(m.Error("muggins").message(), HasSubstr("claim_scoring=true"));
}

// ---- Illegal moves and notation ----

// Rule: illegal moves are refused with FAILED_PRECONDITION naming the rule.
TEST(MugginsIllegal, SpecificMessages) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  auto expect = [&](const std::string& action, const std::string& why) {
    absl::Status s = m.Error(action);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << action << ": " << s;
    EXPECT_THAT(s.message(), HasSubstr(why)) << action;
  };
  expect("3-3 left", "first tile goes alone in the centre");
  expect("4-4", "not in your hand");
  m.Play(0, "3-3");
  expect("6-3", "first tile is already down");
  expect("4-4 left", "does not match the left end (3)");
  expect("6-3 up", "only after its left and right both have a tile");
  expect("5-5 left", "not in your hand");
  expect("draw", "must play when able");
  expect("pass", "must play when able");
  expect("muggins", "claim_scoring=true");
  expect("6-3 left claim", "claim_scoring=true");
  absl::Status turn = m.base().ResolveAction(0, "3-0 right").status();
  EXPECT_THAT(turn.message(), HasSubstr("not seat 0's turn"));
}

// Notation: "<tile>", "<tile> <end>", optional "claim"; either tile order, any case, extra
// whitespace; anything else is INVALID_ARGUMENT naming the forms.
TEST(MugginsNotation, ParseAndPrint) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  State& s = m.base();
  EXPECT_EQ(*s.ParseAction("4-6 LEFT"), PlayAction(IdOf(Tile(6, 4)), kLeft, false));
  EXPECT_EQ(*s.ParseAction("  6-4   left  "), PlayAction(IdOf(Tile(6, 4)), kLeft, false));
  EXPECT_EQ(*s.ParseAction("6-4 Down Claim"), PlayAction(IdOf(Tile(6, 4)), kDown, true));
  EXPECT_EQ(*s.ParseAction("5-5"), PlayAction(IdOf(Tile(5, 5)), kOpening, false));
  EXPECT_EQ(*s.ParseAction("5-5 claim"), PlayAction(IdOf(Tile(5, 5)), kOpening, true));
  EXPECT_EQ(*s.ParseAction("DRAW"), kDraw);
  EXPECT_EQ(*s.ParseAction("pass"), kPass);
  EXPECT_EQ(*s.ParseAction("Muggins"), kMuggins);
  EXPECT_EQ(s.ActionToString(PlayAction(IdOf(Tile(6, 4)), kUp, true)), "6-4 up claim");
  EXPECT_EQ(s.ActionToString(PlayAction(IdOf(Tile(6, 4)), kOpening, false)), "6-4");
  for (const char* bad : {"", "6-4 sideways", "7-1 left", "6-4' left", "draw now",
                          "6-4 left claim extra", "claim", "left 6-4"}) {
    absl::Status st = s.ParseAction(bad).status();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(st.message(), HasSubstr("left|right|up|down")) << bad;
  }
}

// Legal actions come in ascending code order (tile, then end, then claim), muggins last.
TEST(MugginsNotation, LegalActionsAscending) {
  Match m({{"claim_scoring", "true"}}, {SheetExampleDeal()});
  m.PlayAll({{0, "3-3"}, {1, "6-3 left"}, {0, "3-0 right"}, {1, "4-3 up claim"}});
  m.Play(0, "5-3 down");
  ActionList legal;
  m.base().LegalActions(legal);
  for (int i = 1; i < legal.size(); ++i) EXPECT_LT(legal[i - 1], legal[i]);
  EXPECT_EQ(legal[legal.size() - 1], kMuggins);
}

// ---- Options ----

// Rule options are validated: players 2..4, teams only with 4 players, unknown options.
TEST(MugginsOptions, Validation) {
  auto players5 = DefaultRegistry().CreateGame("muggins", RuleText{{"players", "5"}});
  EXPECT_EQ(players5.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(players5.status().message(), HasSubstr("players"));
  auto teams3 =
      DefaultRegistry().CreateGame("muggins", RuleText{{"players", "3"}, {"teams", "true"}});
  EXPECT_EQ(teams3.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(teams3.status().message(), HasSubstr("teams"));
  EXPECT_THAT(teams3.status().message(), HasSubstr("players=4"));
  auto unknown = DefaultRegistry().CreateGame("muggins", RuleText{{"spinners", "2"}});
  EXPECT_THAT(unknown.status().message(), HasSubstr("unknown rule option 'spinners'"));
  auto target = DefaultRegistry().CreateGame("muggins", RuleText{{"target", "40"}});
  EXPECT_THAT(target.status().message(), HasSubstr("target"));
}

// Presets and teams: partners are seats {0,2} and {1,3}; scores are per team.
TEST(MugginsOptions, PresetsAndTeams) {
  auto partners = MakeGame({{"preset", "partners"}});
  EXPECT_EQ(partners->num_seats(), 4);
  EXPECT_EQ(partners->teams(), (Teams{{0, 2}, {1, 3}}));
  EXPECT_EQ(MakeGame({{"preset", "three-player"}})->num_seats(), 3);
  EXPECT_EQ(MakeGame({{"preset", "four-player"}})->teams(), Teams{});
  EXPECT_EQ(MakeGame({{"preset", "two-player"}})->num_seats(), 2);
  const std::shared_ptr<const Game> quick = MakeGame({{"preset", "quick"}});
  const auto& g = static_cast<const MugginsGame&>(*quick);
  EXPECT_EQ(g.target(), 100);
  EXPECT_FALSE(g.claim_scoring());
}

// ---- Views and determinization ----

// A view shows its seat's hand only; the spectator sees none; legal actions go only to the
// seat to play.
TEST(MugginsViews, HandsAndLegalActions) {
  Match m({{"players", "2"}}, {SheetExampleDeal()});
  auto own = m.View(0);
  EXPECT_EQ(own->hand, Tiles("1-1 2-1 3-0 3-2 3-3 5-3 6-6"));  // sorted
  EXPECT_FALSE(own->legal_actions.empty());
  EXPECT_TRUE(m.View(1)->legal_actions.empty());
  EXPECT_THAT(m.View(kSpectator)->hand, IsEmpty());
  const nlohmann::json layout = m.View(0)->ToJson()["layout"];
  EXPECT_EQ(layout["count"], 0);
  EXPECT_TRUE(layout["ends"]["left"].is_null());
}

// Determinize keeps the seat's view and the public voids: after seat 1 drew the whole
// boneyard and passed with a 6 on every end, no sample gives it a 6.
TEST(MugginsViews, DeterminizeKeepsViewAndRespectsVoids) {
  Match m({{"players", "4"}}, {PassDeal()});
  m.Play(0, "6-6");
  Rng rng(5);
  // Mid-draw: seat 1's last drawn tile is not known not to fit, so at most one 6.
  m.Play(1, "draw");
  for (int i = 0; i < 50; ++i) {
    auto sample = m.base().Determinize(0, rng);
    ASSERT_TRUE(sample->CheckInvariants().ok());
    EXPECT_EQ(sample->ViewFor(0)->ToJson(), m.View(0)->ToJson());
    const uint32_t hand1 = static_cast<MugginsState&>(*sample).hand(1);
    EXPECT_LE(std::popcount(hand1 & TilesWithPip(6)), 1);
  }
  for (int i = 0; i < 7; ++i) m.Play(1, "draw");
  m.Play(1, "pass");
  int seen_other_deals = 0;
  for (int i = 0; i < 100; ++i) {
    for (int seat : {0, 2, 3}) {
      auto sample = m.base().Determinize(seat, rng);
      ASSERT_TRUE(sample->CheckInvariants().ok()) << sample->CheckInvariants();
      EXPECT_EQ(sample->ViewFor(seat)->ToJson(), m.View(seat)->ToJson());
      const auto& ms = static_cast<MugginsState&>(*sample);
      EXPECT_EQ(ms.hand(1) & TilesWithPip(6), 0u) << sample->ToString();
      EXPECT_EQ(ms.hand(seat), m.state().hand(seat));
      if (ms.hand(1) != m.state().hand(1)) ++seen_other_deals;
    }
  }
  EXPECT_GT(seen_other_deals, 0);
}

// Determinize with an empty boneyard keeps the round playable: seat 1 holds no 6 and knows
// the others must (else the round would be over).
TEST(MugginsViews, DeterminizeKeepsTheRoundPlayable) {
  Match m({{"players", "4"}}, {PassDeal()});
  m.Play(0, "6-6");
  for (int i = 0; i < 8; ++i) m.Play(1, "draw");
  m.Play(1, "pass");
  Rng rng(8);
  for (int i = 0; i < 200; ++i) {
    auto sample = m.base().Determinize(1, rng);
    ASSERT_TRUE(sample->CheckInvariants().ok()) << sample->CheckInvariants();
    EXPECT_EQ(sample->ViewFor(1)->ToJson(), m.View(1)->ToJson());
    // A spectator knows no hand: every hand is dealt anew, voids and all.
    auto open = m.base().Determinize(kSpectator, rng);
    ASSERT_TRUE(open->CheckInvariants().ok()) << open->CheckInvariants();
    EXPECT_EQ(open->ViewFor(kSpectator)->ToJson(), m.View(kSpectator)->ToJson());
    EXPECT_EQ(static_cast<MugginsState&>(*open).hand(1) & TilesWithPip(6), 0u);
  }
}

// Invariants hold through seeded matches, and a clone is equal.
TEST(MugginsViews, SeededPlayoutsKeepInvariants) {
  for (const RuleText& rules : {RuleText{{"players", "2"}}, RuleText{{"players", "3"}},
                                RuleText{{"preset", "partners"}, {"claim_scoring", "true"}}}) {
    auto game = MakeGame(rules);
    for (uint64_t seed = 0; seed < 20; ++seed) {
      std::unique_ptr<State> state = *game->NewMatch(seed);
      Rng rng(seed);
      ActionList legal;
      while (!state->IsTerminal()) {
        ASSERT_TRUE(state->CheckInvariants().ok()) << state->CheckInvariants();
        legal.clear();
        state->LegalActions(legal);
        state->Apply(legal[rng.Below(legal.size())]);
      }
      EXPECT_EQ(state->Clone()->ToString(), state->ToString());
      int best = 0;
      for (int s : state->Scores()) best = std::max(best, s);
      EXPECT_GE(best, 250);
    }
  }
}

}  // namespace
}  // namespace boneyard::muggins
