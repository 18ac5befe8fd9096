// The tournament service's decisions (services/matchmaking/tournament_plan.h) on events held in
// memory: settings checks naming the field, sides and seats per game, game and pairing
// outcomes (forfeits, series), whole Swiss, round-robin and knockout events run to the end
// with the changes applied as the store applies them, withdrawals, overrides, and seat tokens
// shown to their own player only.
#include "services/matchmaking/tournament_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament/dutch.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

TEST(TournamentSettingsTest, EachBadFieldIsNamed) {
  auto error = [](v1::Tournament t) { return std::string(CheckTournamentSettings(t).message()); };
  v1::Tournament t = Settings(v1::Tournament::SWISS);
  EXPECT_TRUE(CheckTournamentSettings(t).ok()) << CheckTournamentSettings(t);
  t.set_format(v1::Tournament::FORMAT_UNSPECIFIED);
  EXPECT_THAT(error(t), HasSubstr("tournament.format"));
  t = Settings(v1::Tournament::SWISS);
  t.set_rounds(0);
  EXPECT_THAT(error(t), HasSubstr("tournament.rounds"));
  t = Settings(v1::Tournament::SWISS);
  t.add_tiebreaks("XYZ");
  EXPECT_THAT(error(t), HasSubstr("tournament.tiebreaks"));
  t = Settings(v1::Tournament::KNOCKOUT);
  t.set_best_of(2);
  EXPECT_THAT(error(t), HasSubstr("tournament.best_of"));
  t = Settings(v1::Tournament::SWISS);
  t.set_best_of(3);
  EXPECT_THAT(error(t), HasSubstr("tournament.best_of"));
  t = Settings(v1::Tournament::SWISS, "no_such_game");
  EXPECT_THAT(error(t), HasSubstr("tournament.game"));
  t = Settings(v1::Tournament::SWISS, "forty_two");
  EXPECT_THAT(error(t), HasSubstr("tournament.team_size"));
  t.set_team_size(2);
  EXPECT_TRUE(CheckTournamentSettings(t).ok()) << CheckTournamentSettings(t);
  t = Settings(v1::Tournament::ROUND_ROBIN);
  t.set_rounds(4);
  EXPECT_THAT(error(t), HasSubstr("tournament.rounds"));
  t = Settings(v1::Tournament::SWISS);
  t.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
  EXPECT_THAT(error(t), HasSubstr("tournament.clock.timeout_policy"));
  t = Settings(v1::Tournament::SWISS);
  t.set_max_entrants(1);
  EXPECT_THAT(error(t), HasSubstr("tournament.max_entrants"));
}

TEST(TournamentSidesTest, HeadToHeadSeatsZeroAndOneTeamsByTheGamesOwnTeams) {
  absl::StatusOr<std::array<std::vector<int>, 2>> duel =
      SideSeats(NormalizedSettings(Settings(v1::Tournament::SWISS)));
  ASSERT_TRUE(duel.ok()) << duel.status();
  EXPECT_EQ((*duel)[0], std::vector<int>{0});
  EXPECT_EQ((*duel)[1], std::vector<int>{1});
  v1::Tournament teams = Settings(v1::Tournament::SWISS, "forty_two");
  teams.set_team_size(2);
  absl::StatusOr<std::array<std::vector<int>, 2>> partners = SideSeats(teams);
  ASSERT_TRUE(partners.ok()) << partners.status();
  EXPECT_EQ((*partners)[0], (std::vector<int>{0, 2}));
  EXPECT_EQ((*partners)[1], (std::vector<int>{1, 3}));
}

TEST(TournamentOutcomeTest, RanksDecideForfeitsAreForfeitsAndSeatsFollowWhiteFirst) {
  const std::array<std::vector<int>, 2> sides = {std::vector<int>{0}, std::vector<int>{1}};
  GameRow g;
  EXPECT_EQ(GameOutcome(g, sides), v1::OUTCOME_UNSPECIFIED);
  g.result = Result(2, 0);
  EXPECT_EQ(GameOutcome(g, sides), v1::WHITE_WON);
  g.white_first = false;  // black sat in seat 0 and won
  EXPECT_EQ(GameOutcome(g, sides), v1::BLACK_WON);
  g.result = Result(2, -1);
  EXPECT_EQ(GameOutcome(g, sides), v1::DRAWN);
  g.white_first = true;
  g.result = Result(2, 0, {1});
  EXPECT_EQ(GameOutcome(g, sides), v1::BLACK_FORFEITED);
  g.result = Result(2, 1, {0});
  EXPECT_EQ(GameOutcome(g, sides), v1::WHITE_FORFEITED);
}

TEST(TournamentSwissTest, RunsToTheEndWithAByeEachRoundAndNoRematch) {
  TournamentData d = Event(Settings(v1::Tournament::SWISS), 5);
  absl::StatusOr<TournamentChanges> start = PlanStart(d, kNow);
  ASSERT_TRUE(start.ok()) << start.status();
  Apply(d, *start);
  // The initial ranking is by rating: entrant 5 rated highest.
  for (const EntrantRow& e : d.entrants) EXPECT_EQ(e.pairing_number, 6 - e.number);
  EXPECT_EQ(d.tournament.rounds, 3);
  ASSERT_EQ(d.tournament.current_round, 1);
  std::set<std::pair<int, int>> met;
  std::set<int> byes;
  for (int round = 1; round <= 3; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    int boards = 0;
    for (const PairingRow& p : d.pairings) {
      if (p.round != round) continue;
      ++boards;
      if (p.black == 0) {
        EXPECT_EQ(p.override_outcome, v1::BYE);
        EXPECT_TRUE(byes.insert(p.white).second) << "a second bye for " << p.white;
        continue;
      }
      EXPECT_TRUE(met.insert(std::minmax(p.white, p.black)).second) << "a rematch";
    }
    EXPECT_EQ(boards, 3);
    // One game per played board, its request naming the event's queue and both bots.
    EXPECT_EQ(std::count_if(d.games.begin(), d.games.end(),
                            [&](const GameRow& g) { return g.round == round; }),
              2);
    // Nothing moves while games are unfinished.
    absl::StatusOr<TournamentChanges> idle = PlanStep(d, kNow);
    ASSERT_TRUE(idle.ok());
    EXPECT_TRUE(idle->empty());
    PlayAll(d);
    Step(d);
  }
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok()) << standings.status();
  double total = 0;
  for (const v1::StandingRow& row : standings->rows()) total += row.points();
  EXPECT_EQ(total, 9);  // per round two wins and a bye
  // The top seed won every game it played.
  EXPECT_EQ(standings->rows(0).entrant(), 5);
  EXPECT_EQ(standings->rows(0).points(), 3);
  v1::CreateMatchRequest request;
  ASSERT_TRUE(request.ParseFromString(d.games[0].request));
  EXPECT_EQ(request.queue(), "tournaments/t1");
  EXPECT_EQ(request.request_id(), GameRequestId("t1", 1, 1, 1));
  EXPECT_TRUE(request.casual());
  EXPECT_EQ(request.seats(0).bot().kind(), "random");
}

TEST(TournamentSwissTest, HalfPointByesWithdrawalsAndOverridesCount) {
  TournamentData d = Event(Settings(v1::Tournament::SWISS), 6, /*players=*/true);
  d.entrants[0].bye_rounds = {2};
  Apply(d, *PlanStart(d, kNow));
  PlayAll(d);
  // The operator overrides board 1 as a draw, with the reason in the audit log.
  absl::StatusOr<TournamentChanges> set = PlanSetResult(d, 1, 1, v1::DRAWN, "operator", "agreed");
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->audit.size(), 1u);
  EXPECT_THAT(set->audit[0].detail, HasSubstr("agreed"));
  Apply(d, *set);
  EXPECT_EQ(PlanSetResult(d, 2, 1, v1::DRAWN, "operator", "x").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(PlanSetResult(d, 1, 9, v1::DRAWN, "operator", "x").status().code(),
            absl::StatusCode::kNotFound);
  // Entrant 2 withdraws during round 1: its result stands, it is not paired again.
  absl::StatusOr<TournamentChanges> withdraw = PlanWithdraw(d, 2, "p2");
  ASSERT_TRUE(withdraw.ok()) << withdraw.status();
  EXPECT_EQ(withdraw->withdrawals.at(2), 2);
  Apply(d, *withdraw);
  Step(d);
  ASSERT_EQ(d.tournament.current_round, 2);
  for (const PairingRow& p : d.pairings) {
    if (p.round != 2) continue;
    EXPECT_NE(p.white, 2);
    EXPECT_NE(p.black, 2);
    EXPECT_NE(p.white, 1) << "entrant 1 asked for a half-point bye in round 2";
    EXPECT_NE(p.black, 1);
  }
  PlayAll(d);
  Step(d);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 2);
  ASSERT_TRUE(standings.ok());
  for (const v1::StandingRow& row : standings->rows()) {
    EXPECT_EQ(row.withdrawn(), row.entrant() == 2);
  }
  absl::StatusOr<tournament::EventRecord> record = EventRecordOf(d);
  ASSERT_TRUE(record.ok());
  const tournament::Entrant& first = record->ByTpn(d.entrants[0].pairing_number);
  EXPECT_EQ(first.rounds[1].code, tournament::RoundCode::kHalfBye);
}

TEST(TournamentSwissTest, ALateEntrantJoinsNextRoundWithZeroByesBeforeAndNumbersGivenAnew) {
  TournamentData d = Event(Settings(v1::Tournament::SWISS), 4);
  Apply(d, *PlanStart(d, kNow));
  for (const EntrantRow& e : d.entrants) EXPECT_EQ(e.first_round, 1);
  // During round 1, entrant 5 registers, rated above everyone.
  EntrantRow late;
  late.number = 5;
  late.display_name = "E5";
  late.rating = 5000;
  late.players = {"p5"};
  d.entrants.push_back(late);
  PlayAll(d);
  Step(d);
  ASSERT_EQ(d.tournament.current_round, 2);
  std::map<int, int> pairing_number;
  for (const EntrantRow& e : d.entrants) pairing_number[e.number] = e.pairing_number;
  EXPECT_EQ(pairing_number[5], 1);  // by rating: the late entrant heads the ranking
  EXPECT_EQ(pairing_number[4], 2);  // and the others keep their order
  EXPECT_EQ(pairing_number[1], 5);
  EXPECT_EQ(d.entrants.back().first_round, 2);
  bool paired = false;
  for (const PairingRow& p : d.pairings) {
    if (p.round == 2 && (p.white == 5 || p.black == 5)) paired = true;
    if (p.round == 1) {
      EXPECT_TRUE(p.white != 5 && p.black != 5);
    }
  }
  EXPECT_TRUE(paired);
  absl::StatusOr<tournament::EventRecord> record = EventRecordOf(d);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->ByTpn(1).rounds[0].code, tournament::RoundCode::kZeroBye);
  // Round 1 re-paired from the record, with its absence kept, is what was paired then.
  tournament::EventRecord before = *record;
  for (tournament::Entrant& e : before.entrants) {
    const tournament::RoundCode code = e.rounds[0].code;
    e.rounds.assign(1, {});
    if (code == tournament::RoundCode::kZeroBye) e.rounds[0].code = code;
  }
  absl::StatusOr<std::vector<tournament::Board>> again = tournament::PairDutchRound(before, 1);
  ASSERT_TRUE(again.ok()) << again.status();
  std::set<std::pair<int, int>> stored, repaired;
  for (const PairingRow& p : d.pairings) {
    if (p.round == 1) stored.insert({pairing_number[p.white], pairing_number[p.black]});
  }
  for (const tournament::Board& b : *again) repaired.insert({b.white, b.black});
  EXPECT_EQ(repaired, stored);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 1);
  ASSERT_TRUE(standings.ok());
  EXPECT_EQ(standings->rows_size(), 5);
}

TEST(TournamentStandingsTest, GamePointsAreWhatEachSideScoredInItsGames) {
  v1::Tournament settings = Settings(v1::Tournament::SWISS);
  settings.add_tiebreaks("GP");
  TournamentData d = Event(settings, 4);
  Apply(d, *PlanStart(d, kNow));
  // Every game: the side in seat 0 wins 61 to 40.
  for (GameRow& g : d.games) {
    v1::MatchResult r;
    r.add_scores(61);
    r.add_scores(40);
    r.add_ranks(1);
    r.add_ranks(2);
    g.result = r.SerializeAsString();
  }
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 1);
  ASSERT_TRUE(standings.ok()) << standings.status();
  ASSERT_EQ(standings->columns_size(), 2);
  EXPECT_EQ(standings->columns(1), "GP");
  ASSERT_EQ(standings->rows_size(), 4);
  for (const v1::StandingRow& row : standings->rows()) {
    EXPECT_EQ(row.values(1), row.points() == 1 ? 61 : 40) << row.display_name();
  }
}

TEST(TournamentRoundRobinTest, EveryPairMeetsOnceThenItEnds) {
  TournamentData d = Event(Settings(v1::Tournament::ROUND_ROBIN), 4);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(d.tournament.rounds, 3);
  while (d.tournament.state == kTournamentRunning) {
    PlayAll(d, /*draws=*/true);
    Step(d);
  }
  std::set<std::pair<int, int>> met;
  for (const PairingRow& p : d.pairings) met.insert(std::minmax(p.white, p.black));
  EXPECT_EQ(met.size(), 6u);
  EXPECT_EQ(d.pairings.size(), 6u);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok());
  for (const v1::StandingRow& row : standings->rows()) EXPECT_EQ(row.points(), 1.5);
}

TEST(TournamentKnockoutTest, BestOfThreeSeriesAlternateAndTheBracketPlacesEveryone) {
  v1::Tournament settings = Settings(v1::Tournament::KNOCKOUT);
  settings.set_best_of(3);
  TournamentData d = Event(settings, 4);
  Apply(d, *PlanStart(d, kNow));
  ASSERT_EQ(d.pairings.size(), 2u);  // the semi-finals: seeds 1-4 and 2-3
  EXPECT_EQ(d.pairings[0].tie, "W1-1");
  // Game 1: white (the higher seed) first and winning; game 2 is added with black first.
  PlayAll(d);
  Step(d);
  ASSERT_EQ(d.games.size(), 4u);
  EXPECT_FALSE(d.games[2].white_first);
  // Game 2 goes to the lower seed: 1-1, a third game, white first again.
  for (GameRow& g : d.games) {
    if (g.game == 2) g.result = Result(2, 0);  // seat 0 is black's this time
  }
  Step(d);
  ASSERT_EQ(d.games.size(), 6u);
  EXPECT_TRUE(d.games.back().white_first);
  EXPECT_EQ(d.tournament.current_round, 1);
  PlayAll(d);
  Step(d);
  ASSERT_EQ(d.tournament.current_round, 2);  // the final
  const v1::Round semi = RoundOf(d, 1, std::nullopt);
  EXPECT_EQ(semi.state(), v1::Round::FINISHED);
  EXPECT_EQ(semi.pairings(0).white_wins(), 2);
  EXPECT_EQ(semi.pairings(0).black_wins(), 1);
  // A knockout tie has a winner: the operator cannot draw it.
  EXPECT_EQ(PlanSetResult(d, 2, 1, v1::DRAWN, "operator", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
  PlayAll(d);
  Step(d);
  PlayAll(d);
  Step(d);
  EXPECT_EQ(d.tournament.state, kTournamentFinished);
  EXPECT_EQ(d.tournament.rounds, 2);
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
  ASSERT_TRUE(standings.ok()) << standings.status();
  ASSERT_EQ(standings->rows_size(), 4);
  EXPECT_EQ(standings->rows(0).rank(), 1);
  EXPECT_EQ(standings->rows(0).pairing_number(), 1);
  EXPECT_EQ(standings->rows(1).rank(), 2);
  EXPECT_EQ(standings->rows(2).rank(), 3);
  EXPECT_EQ(standings->rows(3).rank(), 3);
  // Finished: nothing changes any more.
  EXPECT_EQ(PlanSetResult(d, 2, 1, v1::WHITE_WON, "operator", "x").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(TournamentRoundsTest, ManualRoundsWaitForTheOperator) {
  v1::Tournament settings = Settings(v1::Tournament::SWISS);
  settings.set_manual_rounds(true);
  TournamentData d = Event(settings, 4);
  Apply(d, *PlanStart(d, kNow));
  EXPECT_EQ(PlanAdvance(d, kNow).status().code(), absl::StatusCode::kFailedPrecondition);
  PlayAll(d);
  Step(d);
  EXPECT_EQ(d.tournament.current_round, 1);  // done, but waiting
  absl::StatusOr<TournamentChanges> advance = PlanAdvance(d, kNow);
  ASSERT_TRUE(advance.ok()) << advance.status();
  Apply(d, *advance);
  EXPECT_EQ(d.tournament.current_round, 2);
}

TEST(TournamentRoundTest, SeatTokensGoOnlyToTheirOwnPlayer) {
  TournamentData d = Event(Settings(v1::Tournament::SWISS), 2, /*players=*/true);
  Apply(d, *PlanStart(d, kNow));
  ASSERT_EQ(d.games.size(), 1u);
  d.games[0].match_name = "matches/m1";
  d.games[0].seat_tokens = {"token-seat-0", "token-seat-1"};
  v1::CreateMatchRequest request;
  ASSERT_TRUE(request.ParseFromString(d.games[0].request));
  const std::string seat0 = request.seats(0).player().player_id();
  const v1::Round mine = RoundOf(d, 1, seat0);
  ASSERT_EQ(mine.pairings(0).games(0).seat_tokens_size(), 1);
  EXPECT_EQ(mine.pairings(0).games(0).seat_tokens(0).token(), "token-seat-0");
  EXPECT_EQ(RoundOf(d, 1, std::nullopt).pairings(0).games(0).seat_tokens_size(), 0);
  EXPECT_EQ(RoundOf(d, 1, "someone-else").pairings(0).games(0).seat_tokens_size(), 0);
}

}  // namespace
}  // namespace boneyard::matchmaking
