// Arenas (Tournament.ARENA, services/matchmaking/tournament_arena.h), in memory: the settings
// refused by field, the start pairing everyone by rating, finishers re-paired at once by points
// and rating but never with the opponent just played (two who just met wait), colours to whoever
// has had white less, the scoring with its streak worked by hand, withdrawn and forfeiting
// entrants paired no more, late entrants numbered and paired, nothing paired after the window
// closes while the games under way still count, and the end with the last of them.
#include "services/matchmaking/tournament_arena.h"

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

constexpr absl::Duration kWindow = absl::Minutes(30);

v1::Tournament Arena(const std::string& game = "muggins") {
  v1::Tournament t = Settings(v1::Tournament::ARENA, game);
  *t.mutable_duration() = ToDuration(kWindow);
  return t;
}

TournamentData Started(int entrants) { return StartedEvent(Arena(), entrants); }

// The pairings of `round` as (white, black).
std::vector<std::pair<int, int>> Pairs(const TournamentData& d, int round) {
  std::vector<std::pair<int, int>> out;
  for (const PairingRow& p : d.pairings) {
    if (p.round == round) out.emplace_back(p.white, p.black);
  }
  return out;
}

// Finishes the game of `round`'s board `board`: white (seat 0) wins, black wins, or a draw.
enum class Won { kWhite, kBlack, kDraw };
void Finish(TournamentData& d, int round, int board, Won won, std::vector<int> forfeited = {}) {
  for (GameRow& g : d.games) {
    if (g.round != round || g.board != board) continue;
    ASSERT_TRUE(g.white_first);
    ASSERT_TRUE(g.result.empty()) << "finished twice";
    g.result = Result(2, won == Won::kWhite ? 0 : won == Won::kBlack ? 1 : -1, forfeited);
    return;
  }
  FAIL() << "no game at round " << round << " board " << board;
}

v1::Standings Standings(const TournamentData& d) {
  absl::StatusOr<v1::Standings> s = StandingsOf(d, 0);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : v1::Standings();
}

TEST(TournamentArenaTest, SettingsAreRefusedByField) {
  EXPECT_TRUE(CheckTournamentSettings(Arena()).ok());
  v1::Tournament teams = Arena("forty_two");
  teams.set_team_size(2);
  EXPECT_TRUE(CheckTournamentSettings(teams).ok()) << CheckTournamentSettings(teams);
  auto refused = [](v1::Tournament t, const std::string& field) {
    const absl::Status s = CheckTournamentSettings(t);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_THAT(s.message(), HasSubstr("tournament." + field)) << s;
  };
  v1::Tournament t = Arena();
  t.clear_duration();
  refused(t, "duration");
  *t.mutable_duration() = ToDuration(absl::Seconds(59));
  refused(t, "duration");
  *t.mutable_duration() = ToDuration(absl::Hours(24) + absl::Seconds(1));
  refused(t, "duration");
  t.mutable_duration()->set_seconds(600);
  t.mutable_duration()->set_nanos(-5);
  refused(t, "duration");
  t = Arena();
  t.set_rounds(5);
  refused(t, "rounds");
  t = Arena("mexican_train");
  t.set_table_size(4);
  refused(t, "table_size");
  t = Arena();
  t.set_duplicate(true);
  refused(t, "duplicate");
  t = Arena();
  t.set_manual_rounds(true);
  refused(t, "manual_rounds");
  t = Arena();
  t.add_tiebreaks("WIN");
  refused(t, "tiebreaks");
  refused(Arena("moon"), "team_size");  // three seats: not two-sided
  v1::Tournament swiss = Settings(v1::Tournament::SWISS);
  *swiss.mutable_duration() = ToDuration(kWindow);
  refused(swiss, "duration");
}

TEST(TournamentArenaTest, TheStartPairsEveryoneStrongestWithStrongest) {
  const TournamentData d = Started(6);
  EXPECT_EQ(d.tournament.state, kTournamentRunning);
  EXPECT_EQ(d.tournament.current_round, 1);
  EXPECT_EQ(d.tournament.rounds, 1);
  ASSERT_TRUE(d.tournament.start_time.has_value());
  EXPECT_EQ(*d.tournament.start_time, kNow);
  // Entrant 6 is rated highest (tournament_facts.h).
  EXPECT_THAT(Pairs(d, 1), ElementsAre(std::pair(6, 5), std::pair(4, 3), std::pair(2, 1)));
  EXPECT_EQ(d.games.size(), 3u);
  // Everyone is playing: a step pairs nobody, however often it runs.
  TournamentData again = d;
  EXPECT_TRUE(StepAt(again, kNow + absl::Minutes(1)).empty());
}

TEST(TournamentArenaTest, FinishersArePairedAtOnceButNeverWithTheOpponentTheyJustPlayed) {
  TournamentData d = Started(6);
  Finish(d, 1, 1, Won::kWhite);  // 6 beats 5
  // 6 and 5 are idle, but they just met: they wait.
  EXPECT_TRUE(StepAt(d, kNow + absl::Minutes(1)).empty());
  Finish(d, 1, 2, Won::kBlack);  // 3 beats 4
  const TournamentChanges c = StepAt(d, kNow + absl::Minutes(2));
  EXPECT_EQ(c.current_round, 2);
  // By points (6 and 3 won), then rating; each gets white if it has had it less: 3 and 5 were
  // black in round 1.
  EXPECT_THAT(Pairs(d, 2), ElementsAre(std::pair(3, 6), std::pair(5, 4)));
  // 2 and 1 are still playing round 1: nothing more to pair.
  EXPECT_TRUE(StepAt(d, kNow + absl::Minutes(3)).empty());
  Finish(d, 1, 3, Won::kWhite);  // 2 beats 1
  // 2 and 1 just met, and everyone else is playing.
  EXPECT_TRUE(StepAt(d, kNow + absl::Minutes(4)).empty());
  Finish(d, 2, 2, Won::kDraw);  // 5 and 4 draw
  StepAt(d, kNow + absl::Minutes(5));
  // Idle: 2 (2 points), 5 and 4 (1), 1 (0). 2 meets 5 (each has had white once, so the higher
  // takes it); 4 cannot meet 5 again and meets 1, who has not had white.
  EXPECT_THAT(Pairs(d, 3), ElementsAre(std::pair(2, 5), std::pair(1, 4)));
}

TEST(TournamentArenaTest, TwoWinsInARowDoubleTheNextAndTheLeaderboardRanksByPointsThenGames) {
  TournamentData d = Started(4);
  ASSERT_THAT(Pairs(d, 1), ElementsAre(std::pair(4, 3), std::pair(2, 1)));
  Finish(d, 1, 1, Won::kWhite);  // 4 beats 3
  Finish(d, 1, 2, Won::kWhite);  // 2 beats 1
  StepAt(d, kNow + absl::Minutes(1));
  ASSERT_THAT(Pairs(d, 2), ElementsAre(std::pair(4, 2), std::pair(3, 1)));
  Finish(d, 2, 1, Won::kWhite);  // 4 beats 2: two in a row
  Finish(d, 2, 2, Won::kDraw);   // 3 and 1 draw
  StepAt(d, kNow + absl::Minutes(2));
  ASSERT_THAT(Pairs(d, 3), ElementsAre(std::pair(3, 4), std::pair(1, 2)));
  Finish(d, 3, 1, Won::kBlack);  // 4 beats 3: on the streak, 4 points
  Finish(d, 3, 2, Won::kWhite);  // 1 beats 2
  const v1::Standings s = Standings(d);
  ASSERT_THAT(s.columns(), ElementsAre("PTS", "GAMES", "WINS", "STREAK"));
  ASSERT_EQ(s.rows_size(), 4);
  EXPECT_EQ(s.rows(0).entrant(), 4);
  EXPECT_EQ(s.rows(0).points(), 8);
  EXPECT_THAT(s.rows(0).values(), ElementsAre(8, 3, 3, 3));
  EXPECT_THAT(s.rows(0).sheet(), ElementsAre(2, 2, 4));
  EXPECT_EQ(s.rows(1).entrant(), 1);
  EXPECT_THAT(s.rows(1).sheet(), ElementsAre(0, 1, 2));
  EXPECT_EQ(s.rows(2).entrant(), 2);
  EXPECT_THAT(s.rows(2).sheet(), ElementsAre(2, 0, 0));
  EXPECT_EQ(s.rows(3).entrant(), 3);
  EXPECT_THAT(s.rows(3).sheet(), ElementsAre(0, 1, 0));
  EXPECT_EQ(s.rows(3).rank(), 4);
  // Through round 1 only: two winners of one game each share first place.
  absl::StatusOr<v1::Standings> first = StandingsOf(d, 1);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->through_round(), 1);
  EXPECT_EQ(first->rows(0).rank(), 1);
  EXPECT_EQ(first->rows(1).rank(), 1);
  EXPECT_EQ(first->rows(2).rank(), 3);
  EXPECT_EQ(first->rows(0).points(), 2);
}

TEST(TournamentArenaTest, OnEqualPointsFewerGamesRankFirstAndEqualsShareARank) {
  TournamentData d = Started(6);
  Finish(d, 1, 1, Won::kWhite);  // 6 beats 5
  Finish(d, 1, 2, Won::kDraw);   // 4 and 3
  Finish(d, 1, 3, Won::kDraw);   // 2 and 1
  StepAt(d, kNow + absl::Minutes(1));
  ASSERT_THAT(Pairs(d, 2), ElementsAre(std::pair(6, 4), std::pair(3, 2), std::pair(1, 5)));
  Finish(d, 2, 2, Won::kDraw);  // 3 and 2: two points in two games each
  const v1::Standings s = Standings(d);
  std::vector<std::pair<int, int>> ranks;  // (rank, entrant)
  for (const v1::StandingRow& row : s.rows()) ranks.emplace_back(row.rank(), row.entrant());
  // 6 has two points in one game; 4 and 1 one in one (their second still being played).
  EXPECT_THAT(ranks, ElementsAre(std::pair(1, 6), std::pair(2, 2), std::pair(2, 3), std::pair(4, 1),
                                 std::pair(4, 4), std::pair(6, 5)));
}

TEST(TournamentArenaTest, WithdrawnAndForfeitingEntrantsArePairedNoMoreLateOnesJoin) {
  TournamentData d = Started(6);
  absl::StatusOr<TournamentChanges> withdraw = PlanWithdraw(d, 6, "operator");
  ASSERT_TRUE(withdraw.ok()) << withdraw.status();
  Apply(d, *withdraw);
  Finish(d, 1, 1, Won::kWhite);                     // 6 beats 5 and leaves
  Finish(d, 1, 2, Won::kWhite, /*forfeited=*/{1});  // 3 does not show: 4 wins
  // A late entrant, rated lowest.
  EntrantRow late;
  late.number = 7;
  late.display_name = "E7";
  late.players = {"p7"};
  late.rating = 900;
  d.entrants.push_back(late);
  const TournamentChanges c = StepAt(d, kNow + absl::Minutes(1));
  EXPECT_EQ(c.pairing_numbers.at(7), 7);
  EXPECT_EQ(c.first_rounds.at(7), 2);
  // Idle: 4 (2 points), 5 (0), 7 (0); 6 withdrew and 3 forfeited. 5 has not had white.
  EXPECT_THAT(Pairs(d, 2), ElementsAre(std::pair(5, 4)));
  Finish(d, 1, 3, Won::kDraw);  // 2 and 1
  StepAt(d, kNow + absl::Minutes(2));
  // 2 and 1 just met: 2 takes 7, who has not had white; 1 waits.
  EXPECT_THAT(Pairs(d, 3), ElementsAre(std::pair(7, 2)));
  // Their points stand: 6 won its game, 3 lost by forfeit.
  const v1::Standings s = Standings(d);
  for (const v1::StandingRow& row : s.rows()) {
    if (row.entrant() == 6) {
      EXPECT_EQ(row.points(), 2);
      EXPECT_TRUE(row.withdrawn());
    }
    if (row.entrant() == 3) {
      EXPECT_THAT(row.sheet(), ElementsAre(0));
    }
    if (row.entrant() == 7) {
      EXPECT_EQ(row.points(), 0);
    }
  }
}

TEST(TournamentArenaTest, NothingIsPairedAfterTheCloseAndTheGamesUnderWayStillCount) {
  TournamentData d = Started(4);
  const absl::Time close = kNow + kWindow;
  EXPECT_EQ(NextDecisionTime(d, kNow), close);
  EXPECT_EQ(NextDecisionTime(d, close), std::nullopt);
  Finish(d, 1, 1, Won::kWhite);  // 4 beats 3
  // 4 and 3 are idle at the close, 2 and 1 still playing: nobody is paired, nothing ends.
  EXPECT_TRUE(StepAt(d, close).empty());
  Finish(d, 1, 2, Won::kBlack);  // 1 beats 2 after the close: it counts
  const TournamentChanges end = StepAt(d, close + absl::Minutes(3));
  EXPECT_EQ(end.state, kTournamentFinished);
  EXPECT_EQ(end.end_time, close + absl::Minutes(3));
  EXPECT_EQ(d.tournament.rounds, 1);
  EXPECT_EQ(NextDecisionTime(d, kNow), std::nullopt);
  const v1::Standings s = Standings(d);
  EXPECT_EQ(s.rows(0).points(), 2);
  EXPECT_EQ(s.rows(1).points(), 2);
  EXPECT_EQ(s.rows(0).rank(), 1);
  EXPECT_EQ(s.rows(1).rank(), 1);
  // Finished: the director has nothing more to do.
  EXPECT_TRUE(StepAt(d, close + absl::Minutes(4)).empty());
}

TEST(TournamentArenaTest, TheOperatorSettlesAGameOfAnyRoundButCannotAdvanceOrExport) {
  TournamentData d = Started(6);
  Finish(d, 1, 1, Won::kWhite);  // 6 beats 5
  Finish(d, 1, 2, Won::kWhite);  // 4 beats 3
  StepAt(d, kNow + absl::Minutes(1));
  ASSERT_THAT(Pairs(d, 2), ElementsAre(std::pair(6, 4), std::pair(5, 3)));
  Finish(d, 2, 1, Won::kWhite);
  Finish(d, 2, 2, Won::kWhite);
  StepAt(d, kNow + absl::Minutes(2));
  ASSERT_EQ(d.tournament.current_round, 3);
  // Round 1's board 3 (2 against 1) is stuck: the operator forfeits 1, an older round's game.
  const std::string before = Standings(d).DebugString();
  absl::StatusOr<TournamentChanges> set =
      PlanSetResult(d, 1, 3, v1::BLACK_FORFEITED, "operator", "no show");
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_THAT(set->audit.at(0).detail, HasSubstr("no show"));
  Apply(d, *set);
  EXPECT_NE(Standings(d).DebugString(), before);
  // 1 has left; 2 is alone: nobody to pair.
  EXPECT_TRUE(StepAt(d, kNow + absl::Minutes(3)).empty());
  EXPECT_EQ(PlanSetResult(d, 3, 9, v1::WHITE_WON, "operator", "x").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(PlanSetResult(d, 4, 1, v1::WHITE_WON, "operator", "x").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(PlanAdvance(d, kNow).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(TrfRecordOf(d).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace boneyard::matchmaking
