// Round robins at tables (services/matchmaking/tournament_tables.h), in memory: the settings
// checked against the game's seats, whole events run to the end with every pair meeting as
// evenly as the table size allows (exactly once for nine at tables of three), sit-outs in turn,
// a withdrawn entrant's seat left out, places and points from a game's ranks and forfeits
// (by default and by placement points), the standings, the round as clients see it, and the
// two-sided calls (TRF, overrides) refused.
#include "services/matchmaking/tournament_tables.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

v1::Tournament Tables(int table_size, int min_table_size = 0) {
  v1::Tournament t = Settings(v1::Tournament::ROUND_ROBIN);
  t.set_table_size(table_size);
  t.set_min_table_size(min_table_size);
  return t;
}

// A finished table game: `ranks` by seat (1 best), `forfeited` seats.
std::string TableResult(const std::vector<int>& ranks, const std::vector<int>& forfeited = {}) {
  v1::MatchResult r;
  for (int rank : ranks) {
    r.add_ranks(rank);
    r.add_scores(0);
  }
  for (int s : forfeited) r.add_forfeited_seats(s);
  return r.SerializeAsString();
}

// Finishes every unfinished game: seat 0 first, seat 1 second, ...
void PlayTables(TournamentData& d) {
  for (GameRow& g : d.games) {
    if (!g.result.empty()) continue;
    v1::CreateMatchRequest request;
    ASSERT_TRUE(request.ParseFromString(g.request));
    std::vector<int> ranks;
    for (int s = 0; s < request.seats_size(); ++s) ranks.push_back(s + 1);
    g.result = TableResult(ranks);
  }
}

TEST(TournamentTablesTest, SettingsAreCheckedAgainstTheGamesSeats) {
  auto error = [](const v1::Tournament& t) {
    return std::string(CheckTournamentSettings(t).message());
  };
  EXPECT_TRUE(CheckTournamentSettings(Tables(4, 3)).ok()) << error(Tables(4, 3));
  v1::Tournament t = Tables(4);
  t.set_format(v1::Tournament::KNOCKOUT);
  EXPECT_THAT(error(t), HasSubstr("tournament.table_size"));
  EXPECT_THAT(error(Tables(5)), HasSubstr("tournament.table_size"));  // Muggins seats 2-4
  EXPECT_THAT(error(Tables(4, 5)), HasSubstr("tournament.min_table_size"));
  t = Tables(4);
  t.add_placement_points(3);
  EXPECT_THAT(error(t), HasSubstr("tournament.placement_points"));
  t = Tables(4);
  t.add_tiebreaks("BH");
  EXPECT_THAT(error(t), HasSubstr("tournament.tiebreaks"));
  t = Tables(4);
  t.set_double_round_robin(true);
  EXPECT_THAT(error(t), HasSubstr("tournament.double_round_robin"));
  t = Tables(4);
  t.set_rounds(101);
  EXPECT_THAT(error(t), HasSubstr("tournament.rounds"));
  t = Tables(4);
  t.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
  EXPECT_THAT(error(t), HasSubstr("tournament.clock.timeout_policy"));  // checked as for any
  t = Tables(4);
  t.set_rounds(6);
  EXPECT_TRUE(CheckTournamentSettings(t).ok()) << error(t);
  // Too few to fill the smallest table: the start is refused.
  TournamentData two = Event(Tables(3), 2);
  EXPECT_EQ(PlanStart(two, kNow).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TournamentTablesTest, NineAtTablesOfThreeMeetEachOtherExactlyOnce) {
  v1::Tournament settings = Tables(3);
  settings.add_tiebreaks("WIN");
  TournamentData d = Event(settings, 9);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(d.tournament.rounds, 4);  // (9 - 1) / (3 - 1)
  std::map<std::pair<int, int>, int> met;
  std::map<int, std::set<int>> first_seats;
  for (int round = 1; round <= 4; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    int tables = 0;
    for (const PairingRow& p : d.pairings) {
      if (p.round != round) continue;
      ++tables;
      ASSERT_EQ(p.table.size(), 3u);
      EXPECT_EQ(p.white, 0);
      EXPECT_EQ(p.black, 0);
      for (size_t i = 0; i < 3; ++i) {
        for (size_t j = i + 1; j < 3; ++j) ++met[std::minmax(p.table[i], p.table[j])];
      }
      first_seats[p.table[0]].insert(round);
    }
    EXPECT_EQ(tables, 3);
    // One three-seat game per table, with the game's own seat count among its rules.
    for (const GameRow& g : d.games) {
      if (g.round != round) continue;
      v1::CreateMatchRequest request;
      ASSERT_TRUE(request.ParseFromString(g.request));
      EXPECT_EQ(request.seats_size(), 3);
      EXPECT_EQ(request.rules().at("players").int_value(), 3);
      EXPECT_EQ(request.seats(0).bot().kind(), "random");
    }
    absl::StatusOr<TournamentChanges> idle = PlanStep(d, kNow);
    ASSERT_TRUE(idle.ok()) << idle.status();
    EXPECT_TRUE(idle->empty()) << "moved on with games unfinished";
    PlayTables(d);
    Step(d);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  EXPECT_EQ(met.size(), 36u);  // every pair of nine
  for (const auto& [pair, times] : met) EXPECT_EQ(times, 1) << pair.first << "-" << pair.second;
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok()) << standings.status();
  ASSERT_EQ(standings->columns_size(), 2);
  EXPECT_EQ(standings->columns(1), "WIN");
  double total = 0;
  int wins = 0;
  for (const v1::StandingRow& row : standings->rows()) {
    total += row.points();
    wins += static_cast<int>(row.values(1));
  }
  EXPECT_EQ(total, 4 * 3 * 3);  // per table 2 + 1 + 0
  EXPECT_EQ(wins, 12);
  for (int i = 1; i < standings->rows_size(); ++i) {
    EXPECT_GE(standings->rows(i - 1).points(), standings->rows(i).points());
  }
  // Tables are not two-sided: no TRF.
  EXPECT_EQ(EventRecordOf(d).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TournamentTablesTest, SitOutsTakeTurnsAndAWithdrawnSeatIsLeftOut) {
  v1::Tournament settings = Tables(4);  // full tables only: ten leave two out each round
  settings.set_rounds(5);
  TournamentData d = Event(settings, 10, /*players=*/true);
  Apply(d, *PlanStart(d, kNow));
  std::map<int, int> sat_out;
  for (const PairingRow& p : d.pairings) {
    if (p.table.size() == 1) {
      EXPECT_EQ(p.override_outcome, v1::BYE);
      ++sat_out[p.table[0]];
    }
  }
  EXPECT_EQ(sat_out.size(), 2u);
  EXPECT_EQ(d.games.size(), 2u);  // the sit-outs have no game
  // Entrant 1 withdraws; the rounds after seat everyone else.
  Apply(d, *PlanWithdraw(d, 1, "p1"));
  for (int round = 2; round <= 5; ++round) {
    PlayTables(d);
    Step(d);
    ASSERT_EQ(d.tournament.current_round, round);
    for (const PairingRow& p : d.pairings) {
      if (p.round != round) continue;
      EXPECT_EQ(std::count(p.table.begin(), p.table.end(), 1), 0) << "round " << round;
      if (p.table.size() == 1) ++sat_out[p.table[0]];
    }
  }
  PlayTables(d);
  Step(d);
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  // Five rounds, two sit-outs each (one fewer when the withdrawn entrant was to sit out):
  // nobody sits out twice before everyone else has once.
  for (const auto& [number, times] : sat_out) EXPECT_LE(times, 1) << number;
}

TEST(TournamentTablesTest, ASwissAtTablesSeatsTheLeadersTogetherAndNeverRepeats) {
  v1::Tournament settings = Tables(4);
  settings.set_format(v1::Tournament::SWISS);
  settings.set_rounds(3);
  EXPECT_TRUE(CheckTournamentSettings(settings).ok()) << CheckTournamentSettings(settings);
  // Sixteen at four tables: a round can seat everyone apart from everyone met before (not
  // twelve at three: four seats, three tables of origin).
  TournamentData d = Event(settings, 16);
  Apply(d, *PlanStart(d, kNow));
  std::map<int, int> pn;  // entrant number -> pairing number
  for (const EntrantRow& e : d.entrants) pn[e.number] = e.pairing_number;
  std::set<std::pair<int, int>> met;
  for (int round = 1; round <= 3; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    std::vector<const PairingRow*> tables;
    for (const PairingRow& p : d.pairings) {
      if (p.round == round) tables.push_back(&p);
    }
    ASSERT_EQ(tables.size(), 4u);
    for (const PairingRow* p : tables) {
      ASSERT_EQ(p->table.size(), 4u);
      for (size_t i = 0; i < 4; ++i) {
        for (size_t j = i + 1; j < 4; ++j) {
          EXPECT_TRUE(met.insert(std::minmax(p->table[i], p->table[j])).second)
              << "a repeat in round " << round;
        }
      }
    }
    if (round == 1) {
      // Nobody has played: the tables are the initial ranking in blocks of four.
      std::set<int> top;
      for (int e : tables[0]->table) top.insert(pn[e]);
      EXPECT_EQ(top, (std::set<int>{1, 2, 3, 4}));
    }
    if (round == 2) {
      // The four winners of round 1 (seat 0 of each table) lead, and sit at table 1.
      std::set<int> first_table(tables[0]->table.begin(), tables[0]->table.end());
      for (const PairingRow& p : d.pairings) {
        if (p.round == 1) {
          EXPECT_EQ(first_table.count(p.table[0]), 1u) << p.table[0];
        }
      }
    }
    PlayTables(d);
    Step(d);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
}

TEST(TournamentTablesTest, PlacesAndPointsComeFromRanksAndForfeits) {
  PairingRow table;
  table.round = 1;
  table.board = 1;
  table.table = {4, 2, 7, 1};
  GameRow game;
  game.result = TableResult({1, 1, 3, 4}, /*forfeited=*/{3});
  v1::Tournament settings = Tables(4);
  TableState s = EvaluateTable(settings, table, {&game});
  EXPECT_EQ(s.outcome, v1::PLACED);
  EXPECT_EQ(s.places, (std::vector<int>{1, 1, 3, 4}));
  // One per entrant below, a half per tie; the forfeit scores nothing.
  EXPECT_EQ(s.points, (std::vector<double>{2.5, 2.5, 1, 0}));
  for (double p : {5, 3, 1, 0}) settings.add_placement_points(p);
  s = EvaluateTable(settings, table, {&game});
  EXPECT_EQ(s.points, (std::vector<double>{4, 4, 1, 0}));  // the tie shares (5 + 3) / 2
  GameRow playing;
  EXPECT_FALSE(EvaluateTable(settings, table, {&playing}).decided());
  EXPECT_FALSE(EvaluateTable(settings, table, {}).decided());
}

TEST(TournamentTablesTest, ARoundShowsItsTablesPlacesAndEachPlayersOwnSeatToken) {
  TournamentData d = Event(Tables(3), 3, /*players=*/true);
  Apply(d, *PlanStart(d, kNow));
  ASSERT_EQ(d.games.size(), 1u);
  d.games[0].match_name = "matches/m1";
  v1::CreateMatchRequest request;
  ASSERT_TRUE(request.ParseFromString(d.games[0].request));
  for (int s = 0; s < 3; ++s) d.games[0].seat_tokens.push_back(absl::StrCat("token-", s));
  const std::string seat1_player = request.seats(1).player().player_id();
  v1::Round round = RoundOf(d, 1, seat1_player);
  ASSERT_EQ(round.pairings_size(), 1);
  EXPECT_EQ(round.pairings(0).table_size(), 3);
  EXPECT_EQ(round.state(), v1::Round::PLAYING);
  ASSERT_EQ(round.pairings(0).games(0).seat_tokens_size(), 1);
  EXPECT_EQ(round.pairings(0).games(0).seat_tokens(0).seat(), 1);
  EXPECT_EQ(round.pairings(0).games(0).seat_tokens(0).token(), "token-1");
  EXPECT_EQ(RoundOf(d, 1, std::nullopt).pairings(0).games(0).seat_tokens_size(), 0);
  // A table's places are its game's: no override.
  absl::StatusOr<TournamentChanges> set = PlanSetResult(d, 1, 1, v1::DRAWN, "operator", "x");
  EXPECT_EQ(set.status().code(), absl::StatusCode::kFailedPrecondition) << set.status();
  EXPECT_THAT(set.status().message(), HasSubstr("table"));
  d.games[0].result = TableResult({2, 1, 3});
  round = RoundOf(d, 1, std::nullopt);
  EXPECT_EQ(round.state(), v1::Round::FINISHED);
  EXPECT_EQ(round.pairings(0).outcome(), v1::PLACED);
  EXPECT_THAT(round.pairings(0).places(), ::testing::ElementsAre(2, 1, 3));
  EXPECT_THAT(round.pairings(0).points(), ::testing::ElementsAre(1, 2, 0));
}

TEST(TournamentTablesTest, GamePointsBreakTiesInTheGamesOwnOrder) {
  for (const std::string game : {"mexican_train", "muggins"}) {
    SCOPED_TRACE(game);
    v1::Tournament settings = Settings(v1::Tournament::ROUND_ROBIN, game);
    settings.set_table_size(4);
    settings.set_rounds(1);
    settings.add_tiebreaks("GP");
    ASSERT_TRUE(CheckTournamentSettings(settings).ok()) << CheckTournamentSettings(settings);
    TournamentData d = Event(settings, 4);
    Apply(d, *PlanStart(d, kNow));
    ASSERT_EQ(d.games.size(), 1u);
    const PairingRow table = d.pairings[0];
    // Seats 1 and 2 share second place (1.5 points each) with different scores.
    v1::MatchResult r;
    for (int rank : {1, 2, 2, 4}) r.add_ranks(rank);
    for (int score : {5, 20, 30, 50}) r.add_scores(score);
    d.games[0].result = r.SerializeAsString();
    Step(d);
    EXPECT_EQ(d.tournament.state, kTournamentFinished);
    absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
    ASSERT_TRUE(standings.ok()) << standings.status();
    ASSERT_EQ(standings->columns_size(), 2);
    EXPECT_EQ(standings->columns(1), "GP");
    std::map<int, const v1::StandingRow*> rows;
    for (const v1::StandingRow& row : standings->rows()) rows[row.entrant()] = &row;
    const v1::StandingRow& twenty = *rows[table.table[1]];
    const v1::StandingRow& thirty = *rows[table.table[2]];
    EXPECT_EQ(twenty.points(), 1.5);
    EXPECT_EQ(thirty.points(), 1.5);
    EXPECT_EQ(twenty.values(1), 20);
    EXPECT_EQ(thirty.values(1), 30);
    // Mexican Train counts pips: fewer is better. Muggins counts points: more is better.
    if (game == "mexican_train") {
      EXPECT_LT(twenty.rank(), thirty.rank());
    } else {
      EXPECT_GT(twenty.rank(), thirty.rank());
    }
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
