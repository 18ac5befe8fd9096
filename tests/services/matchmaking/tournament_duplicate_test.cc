// Duplicate deals (Tournament.duplicate, services/matchmaking/tournament_duplicate.h), in
// memory: the settings, every table of a round dealt from one seed (the same tiles by seat, as
// the engine deals them) in one game a table, the round's matches one deal group, the seats
// balanced over the rounds so each entrant holds each seat's deal in turn (a partnership
// table's teams kept, the whist design intact), matchpoints among the holders of each hand
// worked by hand, nothing decided (and no seed shown) before the last game of the round is
// over, forfeits compared last, one table refused for having nobody to compare with, and Castle
// Rock's solitaire ranked by tiles, then pips left.
#include "services/matchmaking/tournament_duplicate.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kSecret[] = "a-secret-for-the-tests";

v1::Tournament Duplicate(const std::string& game, int table_size) {
  v1::Tournament t = Settings(v1::Tournament::ROUND_ROBIN, game);
  t.set_table_size(table_size);
  t.set_rounds(2);
  t.set_duplicate(true);
  return t;
}

TournamentData Started(const v1::Tournament& settings, int entrants) {
  return StartedEvent(settings, entrants, kNow, kSecret);
}

v1::CreateMatchRequest RequestOf(const GameRow& g) {
  v1::CreateMatchRequest request;
  EXPECT_TRUE(request.ParseFromString(g.request));
  return request;
}

// The player of each seat of a game.
std::vector<std::string> SeatPlayers(const GameRow& g) {
  std::vector<std::string> out;
  const v1::CreateMatchRequest request = RequestOf(g);
  for (const v1::Seat& seat : request.seats()) out.push_back(seat.player().player_id());
  return out;
}

// A finished game whose seats scored `scores`, ranked by them (higher first unless
// `lower_wins`), `forfeited` seats as given.
std::string Scored(const std::vector<int>& scores, bool lower_wins,
                   const std::vector<int>& forfeited = {}) {
  v1::MatchResult r;
  for (size_t i = 0; i < scores.size(); ++i) {
    int rank = 1;
    for (size_t j = 0; j < scores.size(); ++j) {
      if (lower_wins ? scores[j] < scores[i] : scores[j] > scores[i]) ++rank;
    }
    r.add_ranks(rank);
    r.add_scores(scores[i]);
  }
  for (int s : forfeited) r.add_forfeited_seats(s);
  return r.SerializeAsString();
}

GameRow* FindGame(TournamentData& d, int round, int board, int game) {
  for (GameRow& g : d.games) {
    if (g.round == round && g.board == board && g.game == game) return &g;
  }
  return nullptr;
}

const PairingRow* FindTable(const TournamentData& d, int round, int board) {
  for (const PairingRow& p : d.pairings) {
    if (p.round == round && p.board == board) return &p;
  }
  return nullptr;
}

TEST(TournamentDuplicateTest, SettingsAreChecked) {
  auto error = [](const v1::Tournament& t) {
    return std::string(CheckTournamentSettings(t).message());
  };
  EXPECT_TRUE(CheckTournamentSettings(Duplicate("mexican_train", 4)).ok())
      << error(Duplicate("mexican_train", 4));
  // Every table is full: the deals of a smaller one differ.
  EXPECT_EQ(NormalizedSettings(Duplicate("mexican_train", 4)).min_table_size(), 4);
  v1::Tournament t = Duplicate("mexican_train", 4);
  t.set_min_table_size(3);
  EXPECT_THAT(error(t), HasSubstr("tournament.min_table_size"));
  t = Settings(v1::Tournament::SWISS);
  t.set_duplicate(true);
  EXPECT_THAT(error(t), HasSubstr("tournament.duplicate"));
  t = Settings(v1::Tournament::KNOCKOUT);
  t.set_duplicate(true);
  EXPECT_THAT(error(t), HasSubstr("tournament.duplicate"));
  t = Settings(v1::Tournament::PARTNER_ROTATION, "forty_two");
  t.set_duplicate(true);
  EXPECT_TRUE(CheckTournamentSettings(t).ok()) << error(t);
}

TEST(TournamentDuplicateTest, EveryTableIsDealtTheSameAndNobodyKeepsASeat) {
  v1::Tournament settings = Duplicate("mexican_train", 4);
  settings.set_rounds(4);
  TournamentData d = Started(settings, 8);
  std::map<int, std::map<int, int>> held;  // entrant -> seat -> rounds
  for (int round = 1; round <= 4; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    const uint64_t seed = RoundDealSeed(kSecret, round);
    int games = 0;
    for (const GameRow& g : d.games) {
      if (g.round != round) continue;
      ++games;
      const v1::CreateMatchRequest request = RequestOf(g);
      EXPECT_EQ(request.seed(), seed);
      EXPECT_EQ(request.deal_group().name(), absl::StrCat("tournaments/t1/rounds/", round));
      EXPECT_EQ(request.deal_group().size(), 2);
      EXPECT_EQ(request.rules().at("players").int_value(), 4);
      const PairingRow& table = *FindTable(d, round, g.board);
      const std::vector<std::string> players = SeatPlayers(g);
      for (int seat = 0; seat < 4; ++seat) {
        EXPECT_EQ(players[seat], absl::StrCat("p", table.table[seat]));
        ++held[table.table[seat]][seat];
      }
    }
    EXPECT_EQ(games, 2) << "one game a table: a deal is never played twice by one player";
    for (GameRow& g : d.games) {
      if (g.result.empty()) g.result = Scored({10, 20, 30, 40}, /*lower_wins=*/true);
    }
    Step(d);
  }
  // Four rounds at tables of four: everyone held each seat's deal once.
  ASSERT_EQ(held.size(), 8u);
  for (const auto& [entrant, seats] : held) {
    EXPECT_EQ(seats.size(), 4u) << "entrant " << entrant;
    for (const auto& [seat, rounds] : seats) EXPECT_EQ(rounds, 1) << "entrant " << entrant;
  }
  // The engine deals seat s the same tiles from the same seed: the same hands at every table.
  const uint64_t seed = RoundDealSeed(kSecret, 1);
  absl::StatusOr<std::shared_ptr<const Game>> game = DefaultRegistry().CreateGame(
      "mexican_train", std::map<std::string, OptionValue>{{"players", int64_t{4}}});
  ASSERT_TRUE(game.ok()) << game.status();
  absl::StatusOr<std::unique_ptr<State>> one = (*game)->NewMatch(seed);
  absl::StatusOr<std::unique_ptr<State>> other = (*game)->NewMatch(seed);
  absl::StatusOr<std::unique_ptr<State>> next = (*game)->NewMatch(RoundDealSeed(kSecret, 2));
  ASSERT_TRUE(one.ok() && other.ok() && next.ok());
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_EQ((*one)->ViewFor(seat)->hand, (*other)->ViewFor(seat)->hand);
  }
  EXPECT_NE((*one)->ViewFor(0)->hand, (*next)->ViewFor(0)->hand) << "round 2 is dealt anew";
  // The seed is the secret's: another event's secret deals otherwise.
  EXPECT_NE(RoundDealSeed("another secret", 1), seed);
}

TEST(TournamentDuplicateTest, OneTableHasNobodyToCompareWith) {
  TournamentData d = Event(Duplicate("mexican_train", 4), 4, /*players=*/true);
  d.tournament.deal_secret = kSecret;
  absl::StatusOr<TournamentChanges> start = PlanStart(d, kNow);
  EXPECT_EQ(start.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(start.status().message(), HasSubstr("two full tables"));
}

TEST(TournamentDuplicateTest, PartnersKeepTheirTeamsAndTheWhistDesignHolds) {
  v1::Tournament settings = Settings(v1::Tournament::PARTNER_ROTATION, "forty_two");
  settings.set_duplicate(true);
  TournamentData d = Started(settings, 8);
  ASSERT_EQ(d.tournament.rounds, 7);
  std::map<int, std::map<int, int>> held;  // entrant -> seat -> rounds
  for (int round = 1; round <= 7; ++round) {
    ASSERT_EQ(d.tournament.current_round, round);
    int games = 0;
    for (const GameRow& g : d.games) {
      if (g.round != round) continue;
      ++games;
      const v1::CreateMatchRequest request = RequestOf(g);
      EXPECT_EQ(request.seed(), RoundDealSeed(kSecret, round));
      EXPECT_EQ(request.deal_group().size(), 2);
      const PairingRow& table = *FindTable(d, round, g.board);
      for (int seat = 0; seat < 4; ++seat) ++held[table.table[seat]][seat];
    }
    EXPECT_EQ(games, 2);
    for (GameRow& g : d.games) {
      if (g.result.empty()) g.result = Result(4, 0);
    }
    Step(d);
  }
  // Reseating kept the design: each pair partnered once and opposed twice.
  const v1::PairCounts counts = PairCountsOf(d);
  const int n = counts.entrants_size();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      EXPECT_EQ(counts.partners(i * n + j), 1) << i << "," << j;
      EXPECT_EQ(counts.opponents(i * n + j), 2) << i << "," << j;
    }
  }
  // Seven rounds over four seats: everyone held each seat once or twice.
  for (const auto& [entrant, seats] : held) {
    EXPECT_EQ(seats.size(), 4u) << "entrant " << entrant;
    for (const auto& [seat, rounds] : seats) {
      EXPECT_TRUE(rounds == 1 || rounds == 2) << "entrant " << entrant << " seat " << seat;
    }
  }
}

// Six players at three tables of two, Muggins (the higher score wins). Worked by hand:
//   seat 0's hand: A 1st 61, B 2nd 55, C 1st 61 -> A and C 1.5 of 2 (0.75), B 0;
//   seat 1's hand: A 2nd 40, B 1st 61, C 2nd 30 -> B 1, A 0.5, C 0.
TEST(TournamentDuplicateTest, EachHandsHoldersAreComparedByMatchpoints) {
  v1::Tournament settings = Duplicate("muggins", 2);
  TournamentData d = Started(settings, 6);
  ASSERT_EQ(d.games.size(), 3u);
  const PairingRow a = *FindTable(d, 1, 1);
  const PairingRow b = *FindTable(d, 1, 2);
  const PairingRow c = *FindTable(d, 1, 3);
  FindGame(d, 1, 1, 1)->result = Scored({61, 40}, false);
  FindGame(d, 1, 2, 1)->result = Scored({55, 61}, false);

  // One table to go: nothing is decided, no seed, no comparison.
  EXPECT_TRUE(EvaluateRoundTables(d, NormalizedSettings(settings), 1).at(1).points.empty());
  v1::Round playing = RoundOf(d, 1, std::nullopt);
  EXPECT_EQ(playing.state(), v1::Round::PLAYING);
  EXPECT_FALSE(playing.has_seed());
  EXPECT_EQ(playing.comparisons_size(), 0);
  absl::StatusOr<TournamentChanges> idle = PlanStep(d, kNow);
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_TRUE(idle->empty()) << "moved on with a game unfinished";

  FindGame(d, 1, 3, 1)->result = Scored({61, 30}, false);
  const v1::Round round = RoundOf(d, 1, std::nullopt);
  EXPECT_EQ(round.state(), v1::Round::FINISHED);
  ASSERT_TRUE(round.has_seed());
  EXPECT_EQ(round.seed(), RoundDealSeed(kSecret, 1));
  ASSERT_EQ(round.comparisons_size(), 2);
  std::map<std::pair<int, int>, double> mp;  // (seat, entrant) -> matchpoints
  for (const v1::HandComparison& hand : round.comparisons()) {
    EXPECT_EQ(hand.table_size(), 2);
    ASSERT_EQ(hand.results_size(), 3);
    for (int i = 1; i < 3; ++i) {
      EXPECT_GE(hand.results(i - 1).matchpoints(), hand.results(i).matchpoints()) << "best first";
    }
    for (const v1::HandResult& r : hand.results()) mp[{hand.seat(), r.entrant()}] = r.matchpoints();
  }
  EXPECT_THAT(mp[std::make_pair(0, a.table[0])], DoubleEq(0.75));
  EXPECT_THAT(mp[std::make_pair(0, b.table[0])], DoubleEq(0));
  EXPECT_THAT(mp[std::make_pair(0, c.table[0])], DoubleEq(0.75));
  EXPECT_THAT(mp[std::make_pair(1, a.table[1])], DoubleEq(0.5));
  EXPECT_THAT(mp[std::make_pair(1, b.table[1])], DoubleEq(1));
  EXPECT_THAT(mp[std::make_pair(1, c.table[1])], DoubleEq(0));
  // A table's points are its seats' matchpoints; its places rank them.
  ASSERT_EQ(round.pairings_size(), 3);
  EXPECT_THAT(round.pairings(0).points(), ElementsAre(DoubleEq(0.75), DoubleEq(0.5)));
  EXPECT_THAT(round.pairings(0).places(), ElementsAre(1, 2));
  EXPECT_THAT(round.pairings(1).points(), ElementsAre(DoubleEq(0), DoubleEq(1)));
  EXPECT_THAT(round.pairings(1).places(), ElementsAre(2, 1));

  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 1);
  ASSERT_TRUE(standings.ok()) << standings.status();
  ASSERT_EQ(standings->rows_size(), 6);
  EXPECT_EQ(standings->rows(0).entrant(), b.table[1]);
  EXPECT_THAT(standings->rows(0).points(), DoubleEq(1));
  EXPECT_EQ(standings->rows(1).rank(), 2);
  EXPECT_EQ(standings->rows(2).rank(), 2);  // A's and C's first seats share 0.75
  EXPECT_EQ(standings->rows(3).entrant(), a.table[1]);

  // The round is over: round 2 is paired, from its own seed.
  Step(d);
  EXPECT_EQ(d.tournament.current_round, 2);
  for (const GameRow& g : d.games) {
    if (g.round == 2) {
      EXPECT_EQ(RequestOf(g).seed(), RoundDealSeed(kSecret, 2));
    }
  }
}

// At Mexican Train (the fewer pips the better) a holder's place decides before its pips, and a
// seat that forfeited is compared last whatever it scored.
TEST(TournamentDuplicateTest, PlacesThenScoresInTheGamesOrderAndForfeitsLast) {
  v1::Tournament settings = Duplicate("mexican_train", 2);
  (*settings.mutable_rules())["set"].set_int_value(9);  // double-12 seats 4 to 8
  ASSERT_TRUE(CheckTournamentSettings(settings).ok()) << CheckTournamentSettings(settings);
  TournamentData d = Started(settings, 8);
  ASSERT_EQ(d.games.size(), 4u);
  FindGame(d, 1, 1, 1)->result = Scored({10, 30}, true);      // seat 0 wins on 10 pips
  FindGame(d, 1, 2, 1)->result = Scored({0, 50}, true, {0});  // seat 0 forfeits on 0
  FindGame(d, 1, 3, 1)->result = Scored({5, 40}, true);       // seat 0 wins on 5
  FindGame(d, 1, 4, 1)->result = Scored({20, 60}, true);      // seat 0 wins on 20
  const v1::Round round = RoundOf(d, 1, std::nullopt);
  ASSERT_EQ(round.state(), v1::Round::FINISHED);
  ASSERT_EQ(round.comparisons_size(), 2);
  const v1::HandComparison& seat0 = round.comparisons(0);
  ASSERT_EQ(seat0.seat(), 0);
  ASSERT_EQ(seat0.results_size(), 4);
  // Winners first, fewer pips first; the forfeit last.
  EXPECT_EQ(seat0.results(0).score(), 5);
  EXPECT_EQ(seat0.results(1).score(), 10);
  EXPECT_EQ(seat0.results(2).score(), 20);
  EXPECT_EQ(seat0.results(3).score(), 0);
  EXPECT_EQ(seat0.results(3).place(), 2);
  EXPECT_THAT(seat0.results(0).matchpoints(), DoubleEq(1));
  EXPECT_THAT(seat0.results(3).matchpoints(), DoubleEq(0));
  // Seat 1: the 50 that won against a forfeit first, then the losses by pips.
  const v1::HandComparison& seat1 = round.comparisons(1);
  EXPECT_EQ(seat1.results(0).score(), 50);
  EXPECT_EQ(seat1.results(0).place(), 1);
  EXPECT_EQ(seat1.results(1).score(), 30);
  EXPECT_EQ(seat1.results(3).score(), 60);
}

// Castle Rock, a solitaire: every entrant alone at a table of one, all dealt the same, ranked
// by tiles left (the game's score), then pips left.
TEST(TournamentDuplicateTest, ASolitaireRanksByTilesThenPipsLeft) {
  auto error = [](const v1::Tournament& t) {
    return std::string(CheckTournamentSettings(t).message());
  };
  v1::Tournament settings = Duplicate("castle_rock", 1);
  EXPECT_TRUE(CheckTournamentSettings(settings).ok()) << error(settings);
  v1::Tournament t = settings;
  t.set_duplicate(false);
  EXPECT_THAT(error(t), HasSubstr("tournament.table_size"));
  t = settings;
  t.set_rounds(0);
  EXPECT_THAT(error(t), HasSubstr("tournament.rounds"));
  t = settings;
  t.set_format(v1::Tournament::SWISS);
  EXPECT_THAT(error(t), HasSubstr("tournament.table_size"));
  EXPECT_THAT(error(Duplicate("muggins", 1)), HasSubstr("tournament.table_size"));

  TournamentData d = Started(settings, 3);
  ASSERT_EQ(d.games.size(), 3u);
  for (const GameRow& g : d.games) {
    const v1::CreateMatchRequest request = RequestOf(g);
    EXPECT_EQ(request.seats_size(), 1);
    EXPECT_EQ(request.seed(), RoundDealSeed(kSecret, 1));
    EXPECT_EQ(request.deal_group().size(), 3);
  }
  auto solved = [](int tiles, int pips) {
    v1::MatchResult r;
    r.add_scores(tiles);
    r.add_ranks(1);
    (*r.mutable_details()->mutable_fields())["tiles_left"].set_number_value(tiles);
    (*r.mutable_details()->mutable_fields())["pips_left"].set_number_value(pips);
    return r.SerializeAsString();
  };
  FindGame(d, 1, 1, 1)->result = solved(2, 10);
  FindGame(d, 1, 2, 1)->result = solved(2, 6);
  FindGame(d, 1, 3, 1)->result = solved(5, 3);
  const v1::Round round = RoundOf(d, 1, std::nullopt);
  ASSERT_EQ(round.state(), v1::Round::FINISHED);
  ASSERT_EQ(round.comparisons_size(), 1);
  const v1::HandComparison& hand = round.comparisons(0);
  EXPECT_EQ(hand.table_size(), 1);
  ASSERT_EQ(hand.results_size(), 3);
  EXPECT_EQ(hand.results(0).board(), 2);  // two tiles, six pips
  EXPECT_EQ(hand.results(0).pips_left(), 6);
  EXPECT_THAT(hand.results(0).matchpoints(), DoubleEq(1));
  EXPECT_EQ(hand.results(1).board(), 1);  // two tiles, ten pips
  EXPECT_THAT(hand.results(1).matchpoints(), DoubleEq(0.5));
  EXPECT_EQ(hand.results(2).board(), 3);  // five tiles, however few pips
  EXPECT_THAT(hand.results(2).matchpoints(), DoubleEq(0));
  absl::StatusOr<v1::Standings> standings = StandingsOf(d, 1);
  ASSERT_TRUE(standings.ok()) << standings.status();
  EXPECT_EQ(standings->rows(0).entrant(), FindTable(d, 1, 2)->table[0]);
  Step(d);
  EXPECT_EQ(d.tournament.current_round, 2) << "a table of one is played, not sat out";
}

}  // namespace
}  // namespace boneyard::matchmaking
