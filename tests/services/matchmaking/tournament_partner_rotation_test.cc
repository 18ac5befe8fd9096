// Partner rotation (PARTNER_ROTATION, services/matchmaking/tournament_tables.h), in memory: the
// settings checked against the game's teams, an 8-player Forty-Two night run to the end with
// every pair partnering once and opposing twice (the whist design), seats alternating between
// the teams, each player scoring the team's result (a tie a half), the pair-count matrix in
// the standings, a withdrawn player's table sitting out, and Eighty-Four's 8-player schedule.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament_tables.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

v1::Tournament Rotation(const std::string& game = "forty_two") {
  return Settings(v1::Tournament::PARTNER_ROTATION, game);
}

std::string ErrorOf(const v1::Tournament& t) {
  return std::string(CheckTournamentSettings(t).message());
}

// Finishes every unfinished game; `winner_seat`'s team (its parity) wins, -1 a tie.
void PlayTeams(TournamentData& d, int winner_seat) {
  for (GameRow& g : d.games) {
    if (!g.result.empty()) continue;
    v1::CreateMatchRequest request;
    ASSERT_TRUE(request.ParseFromString(g.request));
    g.result = Result(request.seats_size(), winner_seat);
  }
}

int Partners(const v1::PairCounts& c, int a, int b) {
  const int n = c.entrants_size();
  return c.partners((a - 1) * n + (b - 1));
}
int Opponents(const v1::PairCounts& c, int a, int b) {
  const int n = c.entrants_size();
  return c.opponents((a - 1) * n + (b - 1));
}

TEST(TournamentPartnerRotationTest, SettingsAreCheckedAgainstTheGamesTeams) {
  EXPECT_TRUE(CheckTournamentSettings(Rotation()).ok()) << ErrorOf(Rotation());
  const v1::Tournament stored = NormalizedSettings(Rotation());
  EXPECT_EQ(stored.table_size(), 4);
  EXPECT_THAT(stored.placement_points(), ElementsAre(1, 1, 0, 0));
  EXPECT_EQ(stored.max_entrants(), 256);
  EXPECT_EQ(NormalizedSettings(Rotation("eighty_four")).table_size(), 8);
  v1::Tournament six = Rotation("eighty_four");
  (*six.mutable_rules())["players"].set_int_value(6);
  EXPECT_TRUE(CheckTournamentSettings(six).ok()) << ErrorOf(six);
  EXPECT_EQ(NormalizedSettings(six).table_size(), 6);
  // Muggins is a partnership game only with teams.
  EXPECT_THAT(ErrorOf(Rotation("muggins")), HasSubstr("tournament.game"));
  v1::Tournament muggins = Rotation("muggins");
  (*muggins.mutable_rules())["players"].set_int_value(4);
  (*muggins.mutable_rules())["teams"].set_bool_value(true);
  EXPECT_TRUE(CheckTournamentSettings(muggins).ok()) << ErrorOf(muggins);
  EXPECT_THAT(ErrorOf(Rotation("moon")), HasSubstr("tournament.game"));

  v1::Tournament t = Rotation();
  t.set_team_size(2);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.team_size"));
  t = Rotation();
  t.set_table_size(6);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.table_size"));
  t = Rotation();
  t.set_table_size(4);  // the game's own seats may be given
  EXPECT_TRUE(CheckTournamentSettings(t).ok()) << ErrorOf(t);
  t = Rotation();
  t.set_min_table_size(2);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.min_table_size"));
  t = Rotation();
  t.set_rounds(101);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.rounds"));
  t = Rotation();
  t.add_tiebreaks("BH");
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.tiebreaks"));
  t = Rotation();
  t.add_placement_points(1);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.placement_points"));
  t = Rotation();
  t.set_max_entrants(300);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.max_entrants"));
  t = Rotation();
  t.set_double_round_robin(true);
  EXPECT_THAT(ErrorOf(t), HasSubstr("tournament.double_round_robin"));
}

TEST(TournamentPartnerRotationTest, EightPlayersPartnerEachOtherOnceAndOpposeTwice) {
  v1::Tournament settings = Rotation();
  settings.add_tiebreaks("WIN");
  TournamentData d = Event(settings, 8, /*players=*/true);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(d.tournament.rounds, 7);  // Wh(8)
  std::map<int, double> expected_points;
  for (int round = 1; round <= 7; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    int tables = 0;
    for (const PairingRow& p : d.pairings) {
      if (p.round != round) continue;
      ++tables;
      ASSERT_EQ(p.table.size(), 4u);
      // Seat 0's team (seats 0 and 2) wins every game below.
      expected_points[p.table[0]] += 1;
      expected_points[p.table[2]] += 1;
      expected_points[p.table[1]] += 0;
    }
    EXPECT_EQ(tables, 2);
    for (const GameRow& g : d.games) {
      if (g.round != round) continue;
      v1::CreateMatchRequest request;
      ASSERT_TRUE(request.ParseFromString(g.request));
      ASSERT_EQ(request.seats_size(), 4);
      EXPECT_EQ(request.game(), "forty_two");
      // Each seat is its own player: the schedule, not a registration, made the teams.
      std::set<std::string> players;
      for (const auto& seat : request.seats()) players.insert(seat.player().player_id());
      EXPECT_EQ(players.size(), 4u);
    }
    absl::StatusOr<TournamentChanges> idle = PlanStep(d, kNow);
    ASSERT_TRUE(idle.ok()) << idle.status();
    EXPECT_TRUE(idle->empty()) << "moved on with games unfinished";
    PlayTeams(d, 0);
    // The winners placed first with a point each, the losers third (after two) with none.
    for (const PairingRow& p : d.pairings) {
      if (p.round != round) continue;
      const TableState s =
          EvaluateTable(NormalizedSettings(settings), p, GamesOf(d, p.round, p.board));
      EXPECT_EQ(s.outcome, v1::PLACED);
      EXPECT_THAT(s.places, ElementsAre(1, 3, 1, 3));
      EXPECT_THAT(s.points, ElementsAre(1, 0, 1, 0));
    }
    Step(d);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok()) << standings.status();
  ASSERT_EQ(standings->columns_size(), 2);
  for (const v1::StandingRow& row : standings->rows()) {
    EXPECT_EQ(row.points(), expected_points[row.entrant()]) << row.entrant();
    EXPECT_EQ(row.values(1), row.points());  // a won table is a point
  }
  const v1::PairCounts& counts = standings->pair_counts();
  ASSERT_EQ(counts.entrants_size(), 8);
  for (int a = 1; a <= 8; ++a) {
    EXPECT_EQ(Partners(counts, a, a), 0);
    for (int b = 1; b <= 8; ++b) {
      if (a == b) continue;
      EXPECT_EQ(Partners(counts, a, b), 1) << a << "-" << b;
      EXPECT_EQ(Opponents(counts, a, b), 2) << a << "-" << b;
    }
  }
}

TEST(TournamentPartnerRotationTest, ATiedGameGivesEveryoneAtTheTableAHalf) {
  TournamentData d = Event(Rotation(), 4);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(d.tournament.rounds, 3);  // Wh(4): three ways to split four
  PlayTeams(d, -1);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok()) << standings.status();
  for (const v1::StandingRow& row : standings->rows()) EXPECT_EQ(row.points(), 0.5);
}

TEST(TournamentPartnerRotationTest, AWithdrawnPlayersTableSitsTheRoundOut) {
  TournamentData d = Event(Rotation(), 8, /*players=*/true);
  Apply(d, *PlanStart(d, kNow));
  Apply(d, *PlanWithdraw(d, 1, "p1"));
  PlayTeams(d, 0);
  Step(d);
  ASSERT_EQ(d.tournament.current_round, 2);
  int sitting_out = 0, tables = 0;
  for (const PairingRow& p : d.pairings) {
    if (p.round != 2) continue;
    EXPECT_EQ(std::count(p.table.begin(), p.table.end(), 1), 0);
    if (p.table.size() == 1) {
      EXPECT_EQ(p.override_outcome, v1::BYE);
      ++sitting_out;
    } else {
      ++tables;
    }
  }
  // Entrant 1's three partners and opponents of round 2 cannot play without a fourth.
  EXPECT_EQ(tables, 1);
  EXPECT_EQ(sitting_out, 3);
  EXPECT_EQ(
      std::count_if(d.games.begin(), d.games.end(), [](const GameRow& g) { return g.round == 2; }),
      1);
}

TEST(TournamentPartnerRotationTest, TooFewForATableCannotStart) {
  TournamentData d = Event(Rotation(), 3);
  absl::StatusOr<TournamentChanges> start = PlanStart(d, kNow);
  EXPECT_EQ(start.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(start.status().message(), HasSubstr("partner rotation needs a full table"));
}

TEST(TournamentPartnerRotationTest, EightyFourForEightPartnersThreeTimesAndOpposesFour) {
  TournamentData d = Event(Rotation("eighty_four"), 8);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(d.tournament.rounds, 7);
  for (int round = 1; round <= 7; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    for (const GameRow& g : d.games) {
      if (g.round != round) continue;
      v1::CreateMatchRequest request;
      ASSERT_TRUE(request.ParseFromString(g.request));
      EXPECT_EQ(request.seats_size(), 8);
      EXPECT_EQ(request.rules().at("players").int_value(), 8);
    }
    PlayTeams(d, round % 2);
    Step(d);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  const v1::PairCounts counts = PairCountsOf(d);
  for (int a = 1; a <= 8; ++a) {
    for (int b = a + 1; b <= 8; ++b) {
      EXPECT_EQ(Partners(counts, a, b), 3) << a << "-" << b;
      EXPECT_EQ(Opponents(counts, a, b), 4) << a << "-" << b;
    }
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
