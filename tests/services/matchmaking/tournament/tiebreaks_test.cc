// Standings and C.07 tie-breaks (services/matchmaking/tournament/tiebreaks.h) on small events
// worked out by hand; each expected number carries its arithmetic.
#include "services/matchmaking/tournament/tiebreaks.h"

#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

EventRecord MakeEvent(int entrants, int total_rounds) {
  EventRecord event;
  event.total_rounds = total_rounds;
  for (int tpn = 1; tpn <= entrants; ++tpn) {
    Entrant e;
    e.tpn = tpn;
    event.entrants.push_back(e);
  }
  return event;
}

RoundEntry& Cell(EventRecord& event, int tpn, int round) {
  std::vector<RoundEntry>& rounds = event.ByTpn(tpn).rounds;
  if (static_cast<int>(rounds.size()) < round) rounds.resize(round);
  return rounds[round - 1];
}

// white_score: 1, 0.5 or 0 for white.
void Game(EventRecord& event, int round, int white, int black, double white_score) {
  const RoundCode w = white_score == 1   ? RoundCode::kWin
                      : white_score == 0 ? RoundCode::kLoss
                                         : RoundCode::kDraw;
  const RoundCode b = w == RoundCode::kWin    ? RoundCode::kLoss
                      : w == RoundCode::kLoss ? RoundCode::kWin
                                              : RoundCode::kDraw;
  Cell(event, white, round) = {black, Colour::kWhite, w};
  Cell(event, black, round) = {white, Colour::kBlack, b};
}

void Forfeit(EventRecord& event, int round, int winner, int loser) {
  Cell(event, winner, round) = {loser, Colour::kWhite, RoundCode::kForfeitWin};
  Cell(event, loser, round) = {winner, Colour::kBlack, RoundCode::kForfeitLoss};
}

void Bye(EventRecord& event, int round, int tpn, RoundCode code) {
  Cell(event, tpn, round) = {0, Colour::kNone, code};
}

// Value `index` of the row for `tpn`.
double ValueOf(const std::vector<StandingRow>& rows, int tpn, std::size_t index) {
  for (const StandingRow& row : rows) {
    if (row.tpn == tpn) return index < row.values.size() ? row.values[index] : -1e9;
  }
  ADD_FAILURE() << "no row for TPN " << tpn;
  return -1e9;
}

// One tie-break for every entrant, by TPN.
std::vector<double> Column(const EventRecord& event, int through_round, TieBreak tie_break,
                           const TieBreakOptions& options = {}) {
  const TieBreak order[] = {tie_break};
  const std::vector<StandingRow> rows = Standings(event, through_round, order, options);
  std::vector<double> values;
  for (int tpn = 1; tpn <= static_cast<int>(event.entrants.size()); ++tpn) {
    values.push_back(ValueOf(rows, tpn, 0));
  }
  return values;
}

std::vector<int> TpnOrder(const std::vector<StandingRow>& rows) {
  std::vector<int> tpns;
  for (const StandingRow& row : rows) tpns.push_back(row.tpn);
  return tpns;
}

std::vector<int> Ranks(const std::vector<StandingRow>& rows) {
  std::vector<int> ranks;
  for (const StandingRow& row : rows) ranks.push_back(row.rank);
  return ranks;
}

// Six entrants, three rounds, every game played.
//   R1: 1-4 1-0, 2-5 ½-½, 3-6 1-0
//   R2: 1-3 ½-½, 2-6 1-0, 4-5 0-1
//   R3: 1-2 0-1, 3-5 1-0, 4-6 ½-½
// Points: 1: 1+½+0 = 1.5   2: ½+1+1 = 2.5   3: 1+½+1 = 2.5
//         4: 0+0+½ = 0.5   5: ½+1+0 = 1.5   6: 0+0+½ = 0.5
EventRecord AllPlayed() {
  EventRecord event = MakeEvent(6, 3);
  Game(event, 1, 1, 4, 1);
  Game(event, 1, 2, 5, 0.5);
  Game(event, 1, 3, 6, 1);
  Game(event, 2, 1, 3, 0.5);
  Game(event, 2, 2, 6, 1);
  Game(event, 2, 4, 5, 0);
  Game(event, 3, 1, 2, 0);
  Game(event, 3, 3, 5, 1);
  Game(event, 3, 4, 6, 0.5);
  return event;
}

TEST(TieBreaksTest, NamesRoundTripAndUnknownNamesAreRefused) {
  for (TieBreak t : {TieBreak::kPoints, TieBreak::kBuchholz, TieBreak::kBuchholzCut1,
                     TieBreak::kSonnebornBerger, TieBreak::kDirectEncounter, TieBreak::kWins,
                     TieBreak::kMatchPoints, TieBreak::kGamePoints}) {
    const absl::StatusOr<TieBreak> parsed = ParseTieBreak(TieBreakName(t));
    ASSERT_TRUE(parsed.ok()) << TieBreakName(t);
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_EQ(TieBreakName(TieBreak::kBuchholzCut1), "BH/C1");
  EXPECT_EQ(*ParseTieBreak("bh-c1"), TieBreak::kBuchholzCut1);
  EXPECT_EQ(*ParseTieBreak("Sb"), TieBreak::kSonnebornBerger);
  const absl::StatusOr<TieBreak> unknown = ParseTieBreak("ARO");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(unknown.status().message(), HasSubstr("\"ARO\""));
}

TEST(TieBreaksTest, PointsBuchholzSonnebornBergerAndWinsWhenEveryGameIsPlayed) {
  const EventRecord event = AllPlayed();
  EXPECT_THAT(Column(event, 3, TieBreak::kPoints), ElementsAre(1.5, 2.5, 2.5, 0.5, 1.5, 0.5));
  // BH, the opponents' scores:
  //   1: 4(0.5) + 3(2.5) + 2(2.5) = 5.5     2: 5(1.5) + 6(0.5) + 1(1.5) = 3.5
  //   3: 6(0.5) + 1(1.5) + 5(1.5) = 3.5     4: 1(1.5) + 5(1.5) + 6(0.5) = 3.5
  //   5: 2(2.5) + 4(0.5) + 3(2.5) = 5.5     6: 3(2.5) + 2(2.5) + 4(0.5) = 5.5
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholz), ElementsAre(5.5, 3.5, 3.5, 3.5, 5.5, 5.5));
  // BH/C1 drops the lowest opponent (no unplayed rounds): 5.5-0.5, 3.5-0.5, ...
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholzCut1), ElementsAre(5.0, 3.0, 3.0, 3.0, 5.0, 5.0));
  // SB, opponent's score times the points scored against them:
  //   1: 0.5*1 + 2.5*½ + 2.5*0 = 1.75       2: 1.5*½ + 0.5*1 + 1.5*1 = 2.75
  //   3: 0.5*1 + 1.5*½ + 1.5*1 = 2.75       4: 1.5*0 + 1.5*0 + 0.5*½ = 0.25
  //   5: 2.5*½ + 0.5*1 + 2.5*0 = 1.75       6: 2.5*0 + 2.5*0 + 0.5*½ = 0.25
  EXPECT_THAT(Column(event, 3, TieBreak::kSonnebornBerger),
              ElementsAre(1.75, 2.75, 2.75, 0.25, 1.75, 0.25));
  EXPECT_THAT(Column(event, 3, TieBreak::kWins), ElementsAre(1, 2, 2, 0, 1, 0));
}

TEST(TieBreaksTest, EntrantsEqualOnEveryValueShareAPlace) {
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kBuchholz, TieBreak::kSonnebornBerger};
  const std::vector<StandingRow> rows = Standings(AllPlayed(), 3, order);
  // 2.5: TPN 2 and 3 are (3.5, 2.75) both: shared 1st, the lower TPN listed first.
  // 1.5: TPN 1 and 5 are (5.5, 1.75) both: shared 3rd.
  // 0.5: TPN 6 (BH 5.5) over TPN 4 (BH 3.5).
  EXPECT_THAT(TpnOrder(rows), ElementsAre(2, 3, 1, 5, 6, 4));
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 1, 3, 3, 5, 6));
  EXPECT_THAT(rows[0].values, ElementsAre(2.5, 3.5, 2.75));
  EXPECT_EQ(rows[4].points, 0.5);

  // With nothing to rank by, everyone shares first place, in TPN order.
  const std::vector<StandingRow> unranked = Standings(AllPlayed(), 3, {});
  EXPECT_THAT(TpnOrder(unranked), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Ranks(unranked), ElementsAre(1, 1, 1, 1, 1, 1));
}

TEST(TieBreaksTest, ThroughRoundIgnoresLaterRounds) {
  const EventRecord event = AllPlayed();
  // After round 1: 1, ½, 1, 0, ½, 0.  BH of 1 = 4's score after round 1 = 0.
  EXPECT_THAT(Column(event, 1, TieBreak::kPoints), ElementsAre(1, 0.5, 1, 0, 0.5, 0));
  EXPECT_THAT(Column(event, 1, TieBreak::kBuchholz), ElementsAre(0, 0.5, 0, 1, 0.5, 1));
  EXPECT_THAT(Column(event, 0, TieBreak::kBuchholzCut1), ElementsAre(0, 0, 0, 0, 0, 0));
  EXPECT_THAT(Column(event, -3, TieBreak::kPoints), ElementsAre(0, 0, 0, 0, 0, 0));
  // Past every record: the same as the last round (and quick, however far past).
  EXPECT_THAT(Column(event, std::numeric_limits<int>::max(), TieBreak::kBuchholz),
              ElementsAre(5.5, 3.5, 3.5, 3.5, 5.5, 5.5));
}

// Five entrants, three rounds, with every kind of unplayed round.
//   R1: 1-4 1-0; 2-3 0-1; 5 pairing-allocated bye (U)
//   R2: 3-1 ½-½; 5 beats 2 by forfeit (2 did not come); 4 half-point bye (H)
//   R3: 1-5 0-1; 3 half-point bye (H); 2 zero-point bye (Z); 4 withdrew (nothing recorded)
// Points (PTS):  1: 1+½+0 = 1.5   2: 0+0+0 = 0   3: 1+½+½ = 2   4: 0+½+0 = 0.5
//                5: 1+1+1 = 3
// Voluntarily unplayed rounds (VUR): 2's forfeit loss and Z; 3's H; 4's H and round 3.
// Score as an opponent (16.3): a round with no opponent after the last non-VUR round counts
// as a draw (½):  1: 1.5   2: 0+0+½ (the Z) = 0.5   3: 1+½+½ (the H, ½ anyway) = 2
//                 4: 0 + ½ (H) + ½ (withdrawn) = 1   5: 3
// R = 3, so the 2026 cap for a round without an opponent is ½*3 = 1.5.
EventRecord Unplayed() {
  EventRecord event = MakeEvent(5, 3);
  Game(event, 1, 1, 4, 1);
  Game(event, 1, 2, 3, 0);
  Bye(event, 1, 5, RoundCode::kPairingBye);
  Game(event, 2, 3, 1, 0.5);
  Forfeit(event, 2, 5, 2);
  Bye(event, 2, 4, RoundCode::kHalfBye);
  Game(event, 3, 1, 5, 0);
  Bye(event, 3, 3, RoundCode::kHalfBye);
  Bye(event, 3, 2, RoundCode::kZeroBye);
  event.ByTpn(4).withdrawn = true;
  return event;
}

const TieBreakOptions k2024{.unplayed_rounds = UnplayedRounds::kC07From2024};

TEST(TieBreaksTest, UnplayedRoundsUnderThe2024Rules) {
  const EventRecord event = Unplayed();
  EXPECT_THAT(Column(event, 3, TieBreak::kPoints), ElementsAre(1.5, 0, 2, 0.5, 3));
  // BH; an own unplayed round is a dummy with the entrant's own score:
  //   1: 4(1) + 3(2) + 5(3) = 6             2: 3(2) + dummy 0 + dummy 0 = 2
  //   3: 2(0.5) + 1(1.5) + dummy 2 = 4      4: 1(1.5) + dummy 0.5 + dummy 0.5 = 2.5
  //   5: dummy 3 + dummy 3 + 1(1.5) = 7.5
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholz, k2024), ElementsAre(6, 2, 4, 2.5, 7.5));
  // BH/C1 cuts a VUR first (16.5), even one worth more than the lowest opponent:
  //   1: 6 - 1 = 5          2: 2 - 0 (a VUR) = 2
  //   3: 4 - 2 (the H's dummy, not 2's 0.5) = 2
  //   4: 2.5 - 0.5 (a VUR) = 2      5: 7.5 - 1.5 (no VUR) = 6
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholzCut1, k2024), ElementsAre(5, 2, 2, 2, 6));
  // SB, each contribution times the points scored in that round:
  //   1: 1*1 + 2*½ + 3*0 = 2        2: 2*0 + 0*0 + 0*0 = 0
  //   3: 0.5*1 + 1.5*½ + 2*½ = 2.25 4: 1.5*0 + 0.5*½ + 0.5*0 = 0.25
  //   5: 3*1 + 3*1 + 1.5*1 = 7.5
  EXPECT_THAT(Column(event, 3, TieBreak::kSonnebornBerger, k2024),
              ElementsAre(2, 0, 2.25, 0.25, 7.5));
}

TEST(TieBreaksTest, UnplayedRoundsUnderThe2026RulesCapTheDummy) {
  const EventRecord event = Unplayed();
  // 16.4.1, a forfeit: the dummy is at most the scheduled opponent's 16.3 score.
  // 16.4.2, no opponent: at most ½ * 3 rounds = 1.5.
  //   1: 6 (all played)                      2: 3(2) + min(0, 5's 3) + min(0, 1.5) = 2
  //   3: 2(0.5) + 1(1.5) + min(2, 1.5) = 3.5 4: 1(1.5) + min(0.5, 1.5) * 2 = 2.5
  //   5: min(3, 1.5) [U] + min(3, 2's 0.5) [+] + 1(1.5) = 3.5
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholz), ElementsAre(6, 2, 3.5, 2.5, 3.5));
  // BH/C1:  3: 3.5 - 1.5 (the H, a VUR) = 2;  5: 3.5 - 0.5 (the forfeit win, lowest) = 3
  EXPECT_THAT(Column(event, 3, TieBreak::kBuchholzCut1), ElementsAre(5, 2, 2, 2, 3));
  // SB:  3: 0.5*1 + 1.5*½ + 1.5*½ = 2;  5: 1.5*1 + 0.5*1 + 1.5*1 = 3.5
  EXPECT_THAT(Column(event, 3, TieBreak::kSonnebornBerger), ElementsAre(2, 0, 2, 0.25, 3.5));
  // The cap is a draw per round counted: after round 1, 5's bye dummy is min(1, ½*1) = 0.5.
  EXPECT_THAT(Column(event, 1, TieBreak::kBuchholz), ElementsAre(0, 1, 0, 1, 0.5));
}

TEST(TieBreaksTest, WinsCountUnplayedWinsAndMatchPointsMapCodes) {
  const EventRecord event = Unplayed();
  // WIN: 1 beat 4; 3 beat 2; 5 had U (worth a win), a forfeit win and beat 1.
  EXPECT_THAT(Column(event, 3, TieBreak::kWins), ElementsAre(1, 0, 1, 0, 3));
  // MP at 2/1/0:  1: W2 + D1 + L0 = 3    2: L0 + (-)0 + Z0 = 0    3: W2 + D1 + H1 = 4
  //               4: L0 + H1 + none0 = 1  5: U2 + (+)2 + W2 = 6
  EXPECT_THAT(Column(event, 3, TieBreak::kMatchPoints), ElementsAre(3, 0, 4, 1, 6));
  TieBreakOptions three{.match_win = 3, .match_draw = 1, .match_loss = 0};
  EXPECT_THAT(Column(event, 3, TieBreak::kMatchPoints, three), ElementsAre(4, 0, 5, 1, 9));
}

TEST(TieBreaksTest, TeamEventsRankOnMatchThenGamePoints) {
  // Three teams of four boards.
  //   R1: A-B 2½-1½ (A wins the match); C bye, credited 2 game points
  //   R2: A-C 2-2 (drawn match); B bye, credited 2 game points
  EventRecord event = MakeEvent(3, 2);
  Game(event, 1, 1, 2, 1);
  Cell(event, 1, 1).game_points = 2.5;
  Cell(event, 2, 1).game_points = 1.5;
  Bye(event, 1, 3, RoundCode::kPairingBye);
  Cell(event, 3, 1).game_points = 2;
  Game(event, 2, 1, 3, 0.5);
  Cell(event, 1, 2).game_points = 2;
  Cell(event, 3, 2).game_points = 2;
  Bye(event, 2, 2, RoundCode::kPairingBye);
  Cell(event, 2, 2).game_points = 2;
  // MP: A 2+1 = 3, B 0+2 = 2, C 2+1 = 3.  GP: A 2.5+2 = 4.5, B 1.5+2 = 3.5, C 2+2 = 4.
  const TieBreak order[] = {TieBreak::kMatchPoints, TieBreak::kGamePoints};
  const std::vector<StandingRow> rows = Standings(event, 2, order);
  EXPECT_THAT(TpnOrder(rows), ElementsAre(1, 3, 2));
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 2, 3));
  EXPECT_THAT(rows[0].values, ElementsAre(3, 4.5));
  EXPECT_THAT(rows[1].values, ElementsAre(3, 4));
  EXPECT_THAT(rows[2].values, ElementsAre(2, 3.5));
}

// Six entrants, a full round robin (five rounds, Berger order).
//   R1: 1-6 0-1, 2-5 0-1, 3-4 ½-½      R2: 6-4 0-1, 5-3 0-1, 1-2 1-0
//   R3: 2-6 0-1, 3-1 ½-½, 4-5 0-1      R4: 6-5 ½-½, 1-4 ½-½, 2-3 1-0
//   R5: 3-6 0-1, 4-2 0-1, 5-1 1-0
// Points: 1: 0+1+½+½+0 = 2   2: 0+0+0+1+1 = 2   3: ½+1+½+0+0 = 2   4: ½+1+0+½+0 = 2
//         5: 1+0+1+½+1 = 3.5   6: 1+0+1+½+1 = 3.5
EventRecord RoundRobin() {
  EventRecord event = MakeEvent(6, 5);
  Game(event, 1, 1, 6, 0);
  Game(event, 1, 2, 5, 0);
  Game(event, 1, 3, 4, 0.5);
  Game(event, 2, 6, 4, 0);
  Game(event, 2, 5, 3, 0);
  Game(event, 2, 1, 2, 1);
  Game(event, 3, 2, 6, 0);
  Game(event, 3, 3, 1, 0.5);
  Game(event, 3, 4, 5, 0);
  Game(event, 4, 6, 5, 0.5);
  Game(event, 4, 1, 4, 0.5);
  Game(event, 4, 2, 3, 1);
  Game(event, 5, 3, 6, 0);
  Game(event, 5, 4, 2, 0);
  Game(event, 5, 5, 1, 1);
  return event;
}

TEST(TieBreaksTest, DirectEncounterRanksTiedGroupsThatAllMetAndReranksSubgroups) {
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kDirectEncounter};
  const std::vector<StandingRow> rows = Standings(RoundRobin(), 5, order);
  // 3.5: 5 and 6 drew: DE separates nobody, both 0; shared 1st.
  // 2: 1, 2, 3, 4 all met. Among them: 1: 1 (beat 2) + ½ + ½ = 2; 2: 0 + 1 + 1 = 2;
  //    3: ½ + 0 + ½ = 1; 4: ½ + 0 + ½ = 1. Subgroups {3, 4} (level 0, they drew) and
  //    {1, 2} (from level 2), re-ranked among themselves: 1 beat 2, so 1 is 3 and 2 is 2.
  EXPECT_THAT(TpnOrder(rows), ElementsAre(5, 6, 1, 2, 3, 4));
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 1, 3, 4, 5, 5));
  EXPECT_EQ(ValueOf(rows, 5, 1), 0);
  EXPECT_EQ(ValueOf(rows, 6, 1), 0);
  EXPECT_EQ(ValueOf(rows, 1, 1), 3);
  EXPECT_EQ(ValueOf(rows, 2, 1), 2);
  EXPECT_EQ(ValueOf(rows, 3, 1), 0);
  EXPECT_EQ(ValueOf(rows, 4, 1), 0);
}

// Six entrants, a three-round Swiss.
//   R1: 1-2 1-0, 3-4 1-0, 5-6 1-0   R2: 1-3 1-0, 2-5 1-0, 4-6 1-0
//   R3: 1-6 0-1, 2-4 1-0, 3-5 1-0
// Points: 1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1.
EventRecord SwissWithMissingEncounters() {
  EventRecord event = MakeEvent(6, 3);
  Game(event, 1, 1, 2, 1);
  Game(event, 1, 3, 4, 1);
  Game(event, 1, 5, 6, 1);
  Game(event, 2, 1, 3, 1);
  Game(event, 2, 2, 5, 1);
  Game(event, 2, 4, 6, 1);
  Game(event, 3, 1, 6, 0);
  Game(event, 3, 2, 4, 1);
  Game(event, 3, 3, 5, 1);
  return event;
}

TEST(TieBreaksTest, DirectEncounterWithMissingGamesPlacesOnlyAnUncatchableLeader) {
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kDirectEncounter};
  const std::vector<StandingRow> rows = Standings(SwissWithMissingEncounters(), 3, order);
  // 2 points: {1, 2, 3}; 2 and 3 never met. 1 scored 2 (beat both); 2 and 3 scored 0 and
  // could reach at most 1 by winning the missing game: 1 is placed (level 2), then {2, 3}
  // again: they never met, nobody separated.
  // 1 point: {4, 5, 6}; 4 and 5 never met. 4 and 5 beat 6 (1, could reach 2), 6 scored 0.
  // Nobody at the top is uncatchable (4 and 5 could both reach 2), so nobody is separated —
  // not even 6 at the bottom.
  EXPECT_EQ(ValueOf(rows, 1, 1), 2);
  EXPECT_EQ(ValueOf(rows, 2, 1), 0);
  EXPECT_EQ(ValueOf(rows, 3, 1), 0);
  EXPECT_EQ(ValueOf(rows, 4, 1), 0);
  EXPECT_EQ(ValueOf(rows, 5, 1), 0);
  EXPECT_EQ(ValueOf(rows, 6, 1), 0);
  EXPECT_THAT(TpnOrder(rows), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 2, 2, 4, 4, 4));
}

TEST(TieBreaksTest, DirectEncounterIgnoresForfeitsAndAppliesOnlyToTheTieBeforeIt) {
  // 1 and 2 meet twice: 1 wins one and draws one, so the mean is ¾ for 1, ¼ for 2.
  // 3 and 4: a forfeit, which is not an encounter.
  EventRecord event = MakeEvent(4, 3);
  Game(event, 1, 1, 2, 1);
  Game(event, 2, 2, 1, 0.5);
  Forfeit(event, 1, 3, 4);
  Forfeit(event, 2, 4, 3);
  Bye(event, 3, 1, RoundCode::kZeroBye);
  Bye(event, 3, 2, RoundCode::kFullBye);
  // PTS: 1: 1+½+0 = 1.5, 2: 0+½+1 = 1.5, 3: 1+0 = 1, 4: 0+1 = 1.
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kDirectEncounter};
  const std::vector<StandingRow> rows = Standings(event, 3, order);
  EXPECT_EQ(ValueOf(rows, 1, 1), 1);  // ¾ > ¼, all met: 1 above 2
  EXPECT_EQ(ValueOf(rows, 2, 1), 0);
  EXPECT_EQ(ValueOf(rows, 3, 1), 0);  // never played over the board
  EXPECT_EQ(ValueOf(rows, 4, 1), 0);
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 2, 3, 3));

  // DE first in the order: the tie is everyone. 1 has ¾ from its games with 2, but 3 and 4
  // met nobody over the board and could still reach 3 (three missing wins): nobody is
  // separated.
  const TieBreak de_first[] = {TieBreak::kDirectEncounter};
  EXPECT_THAT(Ranks(Standings(event, 3, de_first)), ElementsAre(1, 1, 1, 1));
}

TEST(TieBreaksTest, DirectEncounterTakesTheMeanOfRepeatedMeetings) {
  //   R1: 1-2 1-0, 4-3 1-0     R2: 2-1 1-0; 3 and 4 zero-point byes
  //   R3: 1-3 0-1, 4-2 1-0     R4: 2-3 ½-½, 1-4 ½-½
  // PTS: 1: 1+0+0+½ = 1.5   2: 0+1+0+½ = 1.5   3: 0+0+1+½ = 1.5   4: 1+0+1+½ = 2.5
  EventRecord event = MakeEvent(4, 4);
  Game(event, 1, 1, 2, 1);
  Game(event, 1, 4, 3, 1);
  Game(event, 2, 2, 1, 1);
  Bye(event, 2, 3, RoundCode::kZeroBye);
  Bye(event, 2, 4, RoundCode::kZeroBye);
  Game(event, 3, 1, 3, 0);
  Game(event, 3, 4, 2, 1);
  Game(event, 4, 2, 3, 0.5);
  Game(event, 4, 1, 4, 0.5);
  // Among {1, 2, 3}, all met; 1 and 2 twice (1-0, 0-1: a mean of ½ each).
  //   1: ½ + 0 = ½     2: ½ + ½ = 1     3: 1 + ½ = 1.5   -> levels 0, 1, 2.
  // (Summing the two games instead would tie 2 and 3 at 1.5.)
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kDirectEncounter};
  const std::vector<StandingRow> rows = Standings(event, 4, order);
  EXPECT_THAT(TpnOrder(rows), ElementsAre(4, 3, 2, 1));
  EXPECT_THAT(Ranks(rows), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(ValueOf(rows, 3, 1), 2);
  EXPECT_EQ(ValueOf(rows, 2, 1), 1);
  EXPECT_EQ(ValueOf(rows, 1, 1), 0);
}

TEST(TieBreaksTest, ToleratesRecordsThatPointNowhere) {
  // Built by hand: an opponent out of range and one naming the entrant itself count as no
  // opponent rather than reading past the entrants.
  EventRecord event = MakeEvent(2, 2);
  Cell(event, 1, 1) = {7, Colour::kWhite, RoundCode::kWin};
  Cell(event, 2, 1) = {2, Colour::kWhite, RoundCode::kWin};
  const TieBreak order[] = {TieBreak::kPoints, TieBreak::kBuchholz, TieBreak::kDirectEncounter};
  const std::vector<StandingRow> rows = Standings(event, 1, order);
  ASSERT_EQ(rows.size(), 2u);
  // Each has a win with no real opponent: a dummy of its own score, capped at ½*1:
  // min(1, ½) = ½.
  EXPECT_EQ(ValueOf(rows, 1, 1), 0.5);
  EXPECT_EQ(ValueOf(rows, 2, 1), 0.5);
  EXPECT_TRUE(Standings(EventRecord{}, 3, order).empty());
}

}  // namespace
}  // namespace boneyard::tournament
