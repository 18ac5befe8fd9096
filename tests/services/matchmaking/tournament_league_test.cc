// Leagues (Tournament.LEAGUE, services/matchmaking/tournament_league.h), in memory: the settings
// refused by field, divisions cut as evenly as the entrants allow, every fixture of the season
// written at the start with its round's date, a round opened on its date and not before, a
// fixture without a result at its deadline lost by both (and set by the operator afterwards), a
// withdrawn entrant's later fixtures forfeited, standings ranked within each division, the end
// after the last round, and the next season's entrants with promotion and relegation.
#include "services/matchmaking/tournament_league.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/engine_proto.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr absl::Duration kWeek = absl::Hours(24 * 7);

v1::Tournament League(int division_size, int promotion = 0, const std::string& game = "muggins") {
  v1::Tournament t = Settings(v1::Tournament::LEAGUE, game);
  v1::LeagueSettings& league = *t.mutable_league();
  *league.mutable_round_interval() = ToDuration(kWeek);
  *league.mutable_round_deadline() = ToDuration(absl::Hours(24 * 5));
  league.set_division_size(division_size);
  league.set_promotion(promotion);
  return t;
}

// Finishes every game of `round` without a result: white wins, unless `draw`.
void FinishRound(TournamentData& d, int round, bool draw = false) {
  for (GameRow& g : d.games) {
    if (g.round == round && g.result.empty()) g.result = Result(2, draw ? -1 : 0);
  }
}

int PairingNumber(const TournamentData& d, int entrant) {
  return EntrantByNumber(d, entrant)->pairing_number;
}

TEST(TournamentLeagueTest, SettingsAreRefusedByField) {
  EXPECT_TRUE(CheckTournamentSettings(League(4, 1)).ok()) << CheckTournamentSettings(League(4, 1));
  auto refused = [](v1::Tournament t, const std::string& field) {
    const absl::Status s = CheckTournamentSettings(t);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_THAT(s.message(), HasSubstr("tournament." + field)) << s;
  };
  v1::Tournament t = League(4);
  t.mutable_league()->clear_round_interval();
  refused(t, "league.round_interval");
  *t.mutable_league()->mutable_round_interval() = ToDuration(absl::Seconds(30));
  refused(t, "league.round_interval");
  t = League(4);
  *t.mutable_league()->mutable_round_deadline() = ToDuration(kWeek + absl::Seconds(1));
  refused(t, "league.round_deadline");
  refused(League(1), "league.division_size");
  refused(League(65), "league.division_size");
  refused(League(4, 3), "league.promotion");
  refused(League(0, 1), "league.promotion");
  t = League(4);
  t.set_rounds(3);
  refused(t, "rounds");
  t = League(4);
  t.set_manual_rounds(true);
  refused(t, "manual_rounds");
  refused(League(4, 0, "moon"), "team_size");
  v1::Tournament swiss = Settings(v1::Tournament::SWISS);
  *swiss.mutable_league() = League(4).league();
  refused(swiss, "league");
}

TEST(TournamentLeagueTest, DivisionsAreAsEvenAsTheEntrantsAllowTheUpperOnesLarger) {
  EXPECT_THAT(DivisionSizes(10, 4), ElementsAre(4, 3, 3));
  EXPECT_THAT(DivisionSizes(10, 5), ElementsAre(5, 5));
  EXPECT_THAT(DivisionSizes(17, 8), ElementsAre(6, 6, 5));
  EXPECT_THAT(DivisionSizes(8, 0), ElementsAre(8));
  // Never a division of one: three entrants at divisions of two play as one division.
  EXPECT_THAT(DivisionSizes(3, 2), ElementsAre(3));
  EXPECT_EQ(DivisionOf({4, 3, 3}, 4), 1);
  EXPECT_EQ(DivisionOf({4, 3, 3}, 5), 2);
  EXPECT_EQ(DivisionOf({4, 3, 3}, 10), 3);
}

TEST(TournamentLeagueTest, EveryFixtureIsWrittenAtTheStartWithItsRoundsDate) {
  const TournamentData d = StartedEvent(League(4), 8);
  EXPECT_EQ(d.tournament.state, kTournamentRunning);
  EXPECT_EQ(d.tournament.rounds, 3);
  ASSERT_EQ(d.rounds.size(), 3u);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(d.rounds[r].start_time, kNow + r * kWeek);
  ASSERT_EQ(d.pairings.size(), 12u);
  // Round 1 opens at the start: its four games exist, the later rounds' do not yet.
  EXPECT_EQ(d.tournament.current_round, 1);
  ASSERT_EQ(d.games.size(), 4u);
  for (const GameRow& g : d.games) EXPECT_EQ(g.round, 1);
  // Each division (pairing numbers 1-4, 5-8) is a round robin: every pair once.
  std::set<std::pair<int, int>> met;
  for (const PairingRow& p : d.pairings) {
    const int a = PairingNumber(d, p.white);
    const int b = PairingNumber(d, p.black);
    EXPECT_EQ((a - 1) / 4, (b - 1) / 4) << "a fixture across divisions";
    EXPECT_TRUE(met.insert(std::minmax(a, b)).second) << a << " met " << b << " twice";
  }
  EXPECT_EQ(met.size(), 12u);
  // The fixtures of the rounds to come are shown with their dates and deadlines.
  const v1::Round later = RoundOf(d, 3, std::nullopt);
  EXPECT_EQ(later.state(), v1::Round::SCHEDULED);
  EXPECT_EQ(later.pairings_size(), 4);
  EXPECT_EQ(FromTimestamp(later.start_time()), kNow + 2 * kWeek);
  EXPECT_EQ(FromTimestamp(later.deadline()), kNow + 2 * kWeek + absl::Hours(24 * 5));
  EXPECT_EQ(RoundOf(d, 1, std::nullopt).state(), v1::Round::PLAYING);
}

TEST(TournamentLeagueTest, ARoundOpensOnItsDateNotBefore) {
  v1::Tournament t = League(0);
  *t.mutable_league()->mutable_first_round_time() = ToTimestamp(kNow + absl::Hours(48));
  TournamentData d = StartedEvent(t, 4);
  EXPECT_EQ(d.tournament.current_round, 0);
  EXPECT_TRUE(d.games.empty());
  EXPECT_EQ(NextDecisionTime(d, kNow), kNow + absl::Hours(48));
  EXPECT_TRUE(StepAt(d, kNow + absl::Hours(47)).empty());
  const TournamentChanges opened = StepAt(d, kNow + absl::Hours(48));
  EXPECT_EQ(opened.current_round, 1);
  EXPECT_EQ(opened.new_games.size(), 2u);
  // Round 2 waits for its date even once round 1 is over.
  FinishRound(d, 1);
  EXPECT_TRUE(StepAt(d, kNow + absl::Hours(49)).empty());
  EXPECT_EQ(NextDecisionTime(d, kNow + absl::Hours(49)), kNow + absl::Hours(48) + kWeek);
  EXPECT_EQ(StepAt(d, kNow + absl::Hours(48) + kWeek).current_round, 2);
}

TEST(TournamentLeagueTest, AFixtureWithoutAResultAtTheDeadlineIsLostByBothUntilTheOperatorSays) {
  TournamentData d = StartedEvent(League(0), 4);
  ASSERT_EQ(d.games.size(), 2u);
  d.games[0].result = Result(2, 0);
  // Before the deadline, nothing; at it, the unplayed fixture is lost by both, audited.
  EXPECT_TRUE(StepAt(d, kNow + absl::Hours(24 * 5) - absl::Seconds(1)).empty());
  const TournamentChanges closed = StepAt(d, kNow + absl::Hours(24 * 5));
  ASSERT_EQ(closed.overrides.size(), 1u);
  EXPECT_EQ(closed.overrides.begin()->second, v1::BOTH_FORFEITED);
  ASSERT_EQ(closed.audit.size(), 1u);
  EXPECT_EQ(closed.audit[0].action, "deadline");
  const int board = closed.overrides.begin()->first.second;
  // The game's result arriving late changes nothing; the operator's word does.
  d.games[1].result = Result(2, 1);
  absl::StatusOr<v1::Standings> before = StandingsOf(d, 0);
  ASSERT_TRUE(before.ok());
  double points = 0;
  for (const v1::StandingRow& row : before->rows()) points += row.points();
  EXPECT_EQ(points, 1) << "one game won, one lost by both";
  // Round 2 is open now; the operator may still settle round 1's fixture.
  StepAt(d, kNow + kWeek);
  ASSERT_EQ(d.tournament.current_round, 2);
  absl::StatusOr<TournamentChanges> set =
      PlanSetResult(d, 1, board, v1::BLACK_WON, "operator", "played, reported late");
  ASSERT_TRUE(set.ok()) << set.status();
  Apply(d, *set);
  absl::StatusOr<v1::Standings> after = StandingsOf(d, 0);
  ASSERT_TRUE(after.ok());
  points = 0;
  for (const v1::StandingRow& row : after->rows()) points += row.points();
  EXPECT_EQ(points, 2);
  EXPECT_EQ(PlanAdvance(d, kNow).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(TrfRecordOf(d).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TournamentLeagueTest, AWithdrawnEntrantsLaterFixturesAreForfeited) {
  TournamentData d = StartedEvent(League(0), 4);
  absl::StatusOr<TournamentChanges> withdraw = PlanWithdraw(d, 4, "operator");
  ASSERT_TRUE(withdraw.ok()) << withdraw.status();
  Apply(d, *withdraw);
  FinishRound(d, 1);
  const TournamentChanges opened = StepAt(d, kNow + kWeek);
  EXPECT_EQ(opened.new_games.size(), 1u) << "entrant 4's fixture is not played";
  ASSERT_EQ(opened.overrides.size(), 1u);
  const auto [key, outcome] = *opened.overrides.begin();
  for (const PairingRow& p : d.pairings) {
    if (p.round == key.first && p.board == key.second) {
      EXPECT_EQ(outcome, p.white == 4 ? v1::WHITE_FORFEITED : v1::BLACK_FORFEITED);
    }
  }
}

TEST(TournamentLeagueTest, StandingsRankWithinEachDivisionAndTheSeasonEndsAfterItsLastRound) {
  TournamentData d = StartedEvent(League(3), 6);  // two divisions of three: byes, three rounds
  for (int round = 1; round <= 3; ++round) {
    FinishRound(d, round);
    StepAt(d, kNow + round * kWeek);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  absl::StatusOr<v1::Standings> s = StandingsOf(d, 0);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->rows_size(), 6);
  std::vector<std::pair<int, int>> divisions;  // (division, rank)
  for (const v1::StandingRow& row : s->rows()) divisions.emplace_back(row.division(), row.rank());
  EXPECT_EQ(divisions[0], std::pair(1, 1));
  EXPECT_EQ(divisions[3], std::pair(2, 1));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(divisions[i].first, 1);
  for (int i = 3; i < 6; ++i) EXPECT_EQ(divisions[i].first, 2);
  // A bye scores nothing: each division's three games, one point each.
  double points = 0;
  for (const v1::StandingRow& row : s->rows()) points += row.points();
  EXPECT_EQ(points, 6);
  EXPECT_TRUE(StepAt(d, kNow + 4 * kWeek).empty());
}

TEST(TournamentLeagueTest, TheNextSeasonPromotesAndRelegatesAndNewcomersJoinBelow) {
  // Two divisions of four; in each, the lower pairing number wins (PlayAll), so the final
  // order is the initial one: entrants 8 7 6 5 | 4 3 2 1 (entrant 8 rated highest).
  TournamentData d = StartedEvent(League(4, 1), 8);
  for (int round = 1; round <= 3; ++round) {
    PlayAll(d);
    StepAt(d, kNow + round * kWeek);
  }
  ASSERT_EQ(d.tournament.state, kTournamentFinished);
  absl::StatusOr<std::vector<EntrantRow>> next = NextSeasonEntrants(d, 1, kNow + 4 * kWeek);
  ASSERT_TRUE(next.ok()) << next.status();
  std::vector<std::string> names;
  for (const EntrantRow& e : *next) names.push_back(e.display_name);
  // Division 1 keeps 8 7 6 and takes 4, division 2's winner; 5 goes down, above 3 2 1.
  EXPECT_THAT(names, ElementsAre("E8", "E7", "E6", "E4", "E5", "E3", "E2", "E1"));
  EXPECT_EQ((*next)[0].number, 1);
  EXPECT_EQ((*next)[0].players, std::vector<std::string>{"p8"});
  // The new season: the carried entrants in that order, then a newcomer — rated above
  // everyone — in the bottom division.
  v1::Tournament season2 = League(4, 1);
  season2.mutable_league()->set_carried_entrants(8);
  TournamentData d2;
  d2.tournament.tournament_id = "t2";
  d2.tournament.game = "muggins";
  d2.tournament.settings = season2.SerializeAsString();
  d2.entrants = *next;
  EntrantRow newcomer;
  newcomer.number = 9;
  newcomer.display_name = "New";
  newcomer.players = {"p9"};
  newcomer.rating = 5000;
  d2.entrants.push_back(newcomer);
  absl::StatusOr<TournamentChanges> start = PlanStart(d2, kNow + 5 * kWeek);
  ASSERT_TRUE(start.ok()) << start.status();
  Apply(d2, *start);
  for (int n = 1; n <= 8; ++n) EXPECT_EQ(PairingNumber(d2, n), n);
  EXPECT_EQ(PairingNumber(d2, 9), 9);
  EXPECT_THAT(DivisionSizes(9, 4), ElementsAre(3, 3, 3));
  // A withdrawn entrant is not carried.
  TournamentData left = d;
  left.entrants[0].withdrawn_round = 3;  // entrant 1
  absl::StatusOr<std::vector<EntrantRow>> without = NextSeasonEntrants(left, 1, kNow);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->size(), 7u);
}

}  // namespace
}  // namespace boneyard::matchmaking
