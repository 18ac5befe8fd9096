// Importing an event from a TRF-16 file (services/matchmaking/tournament_import.h), in memory:
// an event boneyard ran, exported and imported, gives the same file back and pairs its next
// round as the original does; a file written by hand, with every kind of cell, is stored as the
// service keeps its own events and pairs its next round as `tournament pair-next` does; and
// each thing a boneyard event cannot keep is refused, naming where it is.
#include "services/matchmaking/tournament_import.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/trf.h"
#include "tests/services/matchmaking/tournament_events.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;
using ::testing::HasSubstr;

// The facts an import stores, as the store reads them back.
TournamentData Stored(const TournamentImport& import) {
  TournamentData d;
  d.tournament = import.tournament;
  d.entrants = import.entrants;
  Apply(d, import.changes);
  return d;
}

std::vector<ImportedEntrantRow> Players(int n) {
  std::vector<ImportedEntrantRow> out(n);
  for (int i = 0; i < n; ++i) out[i].players = {absl::StrCat("p", i + 1)};
  return out;
}

absl::StatusOr<TournamentImport> Import(const std::string& trf, int n,
                                        v1::Tournament settings = Settings(v1::Tournament::SWISS)) {
  absl::StatusOr<t::TrfFile> file = t::ParseTrfFile(trf);
  if (!file.ok()) return file.status();
  settings.set_rounds(0);
  settings = NormalizedSettings(settings);
  return PlanImport("imported", settings, *file, Players(n), kNow);
}

std::string Exported(const TournamentData& d) {
  absl::StatusOr<t::EventRecord> record = TrfRecordOf(d);
  EXPECT_TRUE(record.ok()) << record.status();
  return t::WriteTrf(*record);
}

// A round's boards as pairs of pairing numbers (white, black), in board order.
std::vector<std::pair<int, int>> Boards(const TournamentData& d,
                                        const std::vector<PairingRow>& pairings, int round) {
  std::map<int, int> pn;
  for (const EntrantRow& e : d.entrants) pn[e.number] = e.pairing_number;
  pn[0] = 0;
  std::vector<std::pair<int, int>> out;
  for (const PairingRow& p : pairings) {
    if (p.round == round) out.emplace_back(pn[p.white], pn[p.black]);
  }
  return out;
}

TEST(TournamentImportTest, AnExportedEventComesBackWholeAndPairsItsNextRoundTheSame) {
  v1::Tournament settings = Settings(v1::Tournament::SWISS);
  settings.set_rounds(5);
  TournamentData d = Event(settings, 9, /*players=*/true);
  d.entrants[2].bye_rounds = {2};
  Apply(d, *PlanStart(d, kNow));
  PlayAll(d);
  // A forfeit by the operator's word, a draw, a withdrawal: every kind of stored fact.
  Apply(d, *PlanSetResult(d, 1, 1, v1::WHITE_FORFEITED, "operator", "no-show"));
  Apply(d, *PlanSetResult(d, 1, 2, v1::DRAWN, "operator", "agreed"));
  Step(d);
  Apply(d, *PlanWithdraw(d, 4, "p4"));
  PlayAll(d, /*draws=*/true);
  Step(d);
  PlayAll(d);
  ASSERT_EQ(d.tournament.current_round, 3);
  const std::string trf = Exported(d);

  absl::StatusOr<TournamentImport> import = Import(trf, 9, settings);
  ASSERT_TRUE(import.ok()) << import.status();
  TournamentData imported = Stored(*import);
  EXPECT_EQ(imported.tournament.state, kTournamentRunning);
  EXPECT_EQ(imported.tournament.current_round, 3);
  EXPECT_EQ(imported.tournament.rounds, 5);
  ASSERT_EQ(import->changes.audit.size(), 1u);
  EXPECT_EQ(import->changes.audit[0].action, "import");
  EXPECT_EQ(Exported(imported), trf);

  // Round 3 was decided in both: round 4 is paired alike, by pairing numbers.
  absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow);
  absl::StatusOr<TournamentChanges> imported_next = PlanStep(imported, kNow);
  ASSERT_TRUE(next.ok()) << next.status();
  ASSERT_TRUE(imported_next.ok()) << imported_next.status();
  ASSERT_FALSE(next->new_pairings.empty());
  EXPECT_EQ(Boards(imported, imported_next->new_pairings, 4), Boards(d, next->new_pairings, 4));
  // The withdrawn entrant (pairing number of entrant 4) is paired no more.
  const int withdrawn = d.entrants[3].pairing_number;
  EXPECT_EQ(imported.entrants[withdrawn - 1].withdrawn_round, 3);
  for (const auto& [white, black] : Boards(imported, imported_next->new_pairings, 4)) {
    EXPECT_NE(white, withdrawn);
    EXPECT_NE(black, withdrawn);
  }
  // Imported games are the arbiter's results, and new ones are created as usual.
  for (const PairingRow& p : imported.pairings) EXPECT_NE(p.override_outcome, 0);
  EXPECT_FALSE(imported_next->new_games.empty());
}

// A file as an arbiter's program writes it: TPN 1-6, two rounds played, XXC black1, XXP 2 6.
//   round 1: 1 (b) beats 4; 2 wins by forfeit against 5 (no colours); 3 has a half-point bye;
//            6 the pairing-allocated bye.
//   round 2: 2 (w) draws 1; 4 (w) loses to 6; 3 is absent (Z); 5 does not play (blank) and is
//            absent from every round to come (Z): withdrawn from round 2.
//   round 3: 3 asks for a half-point bye.
t::EventRecord HandWritten() {
  t::EventRecord e;
  e.name = "Club championship";
  e.total_rounds = 4;
  e.initial_colour = t::Colour::kBlack;
  for (int tpn = 1; tpn <= 6; ++tpn) {
    t::Entrant x;
    x.tpn = tpn;
    x.name = absl::StrCat("Player ", tpn);
    x.rating = 2000 - 50 * tpn;
    x.rounds.resize(2);
    e.entrants.push_back(x);
  }
  auto game = [&](int round, int white, int black, t::RoundCode w, t::RoundCode b, bool colours) {
    e.ByTpn(white).rounds[round - 1] = {
        .opponent = black, .colour = colours ? t::Colour::kWhite : t::Colour::kNone, .code = w};
    e.ByTpn(black).rounds[round - 1] = {
        .opponent = white, .colour = colours ? t::Colour::kBlack : t::Colour::kNone, .code = b};
  };
  game(1, 4, 1, t::RoundCode::kLoss, t::RoundCode::kWin, true);
  game(1, 2, 5, t::RoundCode::kForfeitWin, t::RoundCode::kForfeitLoss, false);
  e.ByTpn(3).rounds[0].code = t::RoundCode::kHalfBye;
  e.ByTpn(6).rounds[0].code = t::RoundCode::kPairingBye;
  game(2, 2, 1, t::RoundCode::kDraw, t::RoundCode::kDraw, true);
  game(2, 4, 6, t::RoundCode::kLoss, t::RoundCode::kWin, true);
  e.ByTpn(3).rounds[1].code = t::RoundCode::kZeroBye;
  e.ByTpn(3).rounds.resize(3);
  e.ByTpn(3).rounds[2].code = t::RoundCode::kHalfBye;
  e.ByTpn(5).rounds.resize(4);
  e.ByTpn(5).rounds[2].code = t::RoundCode::kZeroBye;
  e.ByTpn(5).rounds[3].code = t::RoundCode::kZeroBye;
  e.forbidden_pairs = {{2, 6}};
  return e;
}

TEST(TournamentImportTest, EveryKindOfCellIsStoredAndTheNextRoundIsPairNexts) {
  const t::EventRecord record = HandWritten();
  absl::StatusOr<TournamentImport> import = Import(t::WriteTrf(record), 6);
  ASSERT_TRUE(import.ok()) << import.status();
  const TournamentData d = Stored(*import);
  const auto pairing = [&](int round, int board) {
    for (const PairingRow& p : d.pairings) {
      if (p.round == round && p.board == board) return p;
    }
    ADD_FAILURE() << "no board " << board << " in round " << round;
    return PairingRow{};
  };
  // Round 1: 4 had white and lost; the forfeit without colours puts the higher-ranked first;
  // the bye last.
  EXPECT_EQ(pairing(1, 1).white, 4);
  EXPECT_EQ(pairing(1, 1).black, 1);
  EXPECT_EQ(pairing(1, 1).override_outcome, v1::BLACK_WON);
  EXPECT_EQ(pairing(1, 2).white, 2);
  EXPECT_EQ(pairing(1, 2).black, 5);
  EXPECT_EQ(pairing(1, 2).override_outcome, v1::BLACK_FORFEITED);
  EXPECT_EQ(pairing(1, 3).white, 6);
  EXPECT_EQ(pairing(1, 3).black, 0);
  EXPECT_EQ(pairing(1, 3).override_outcome, v1::BYE);
  EXPECT_EQ(pairing(2, 1).white, 2);
  EXPECT_EQ(pairing(2, 1).override_outcome, v1::DRAWN);
  EXPECT_EQ(pairing(2, 2).override_outcome, v1::BLACK_WON);
  EXPECT_EQ(d.pairings.size(), 5u);
  EXPECT_EQ(d.entrants[2].bye_rounds, (std::vector<int>{1, 3}));
  EXPECT_EQ(d.entrants[2].zero_rounds, (std::vector<int>{2}));
  EXPECT_EQ(d.entrants[2].withdrawn_round, 0);
  EXPECT_EQ(d.entrants[4].withdrawn_round, 2);
  EXPECT_TRUE(d.entrants[4].zero_rounds.empty());
  EXPECT_EQ(d.entrants[0].display_name, "Player 1");
  EXPECT_EQ(d.entrants[0].rating, 1950);
  for (const EntrantRow& e : d.entrants) EXPECT_EQ(e.pairing_number, e.number);
  absl::StatusOr<v1::Tournament> settings = SettingsOf(d.tournament);
  ASSERT_TRUE(settings.ok());
  EXPECT_TRUE(settings->initial_colour_black());
  EXPECT_EQ(settings->rounds(), 4);
  ASSERT_EQ(settings->forbidden_pairs_size(), 1);
  EXPECT_EQ(settings->forbidden_pairs(0).first(), "p2");
  EXPECT_EQ(settings->forbidden_pairs(0).second(), "p6");

  // Round 3 as pair-next pairs the file: 3 (bye requested) and 5 (withdrawn) left out.
  absl::StatusOr<std::vector<t::Board>> expected = t::PairDutchRound(record, 3);
  ASSERT_TRUE(expected.ok()) << expected.status();
  std::vector<std::pair<int, int>> want;
  for (const t::Board& b : *expected) want.emplace_back(b.white, b.black);
  absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(Boards(d, next->new_pairings, 3), want);
  EXPECT_EQ(want.size(), 2u);
  // The standings count the file's results: 1 has 1.5, 6 has 2 (the bye and a win).
  TournamentData after = d;
  absl::StatusOr<v1::Standings> standings = StandingsOf(after, 2);
  ASSERT_TRUE(standings.ok()) << standings.status();
  std::map<int, double> points;
  for (const v1::StandingRow& row : standings->rows()) points[row.entrant()] = row.points();
  EXPECT_EQ(points[1], 1.5);
  EXPECT_EQ(points[2], 1.5);
  EXPECT_EQ(points[3], 0.5);
  EXPECT_EQ(points[6], 2);
  // And it is exported as the file says (XXC, XXP, the bye asked for, all) under the event's
  // name, with the withdrawn entrant's blank round as the 'Z' that says so and the forfeit in
  // the colours of its pairing.
  t::EventRecord as_exported = record;
  as_exported.name = "Club night";
  as_exported.ByTpn(5).rounds[1].code = t::RoundCode::kZeroBye;
  as_exported.ByTpn(2).rounds[0].colour = t::Colour::kWhite;
  as_exported.ByTpn(5).rounds[0].colour = t::Colour::kBlack;
  EXPECT_EQ(Exported(d), t::WriteTrf(as_exported));
}

TEST(TournamentImportTest, AFileWithEveryRoundPlayedIsImportedFinished) {
  t::EventRecord record = HandWritten();
  record.total_rounds = 2;
  record.ByTpn(3).rounds.resize(2);
  record.ByTpn(5).rounds.resize(2);
  absl::StatusOr<TournamentImport> import = Import(t::WriteTrf(record), 6);
  ASSERT_TRUE(import.ok()) << import.status();
  EXPECT_EQ(import->tournament.state, kTournamentFinished);
  EXPECT_TRUE(import->tournament.end_time.has_value());
}

TEST(TournamentImportTest, WhatABoneyardEventCannotKeepIsRefusedNamingWhere) {
  const t::EventRecord good = HandWritten();
  auto error = [](const absl::StatusOr<TournamentImport>& r) {
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    return std::string(r.status().message());
  };
  // A full-point bye.
  t::EventRecord e = good;
  e.ByTpn(3).rounds[0].code = t::RoundCode::kFullBye;
  EXPECT_THAT(error(Import(t::WriteTrf(e), 6)), HasSubstr("trf: entrant 3, round 1: a full-point"));
  // Points other than FIDE's.
  e = good;
  e.points.win = 3;
  EXPECT_THAT(error(Import(t::WriteTrf(e), 6)), HasSubstr("trf: its points"));
  // Not one entrant given per entrant of the file.
  EXPECT_THAT(error(Import(t::WriteTrf(good), 5)), HasSubstr("entrants: 5 given for the file's 6"));
  // Fewer rounds than played, and no rounds at all.
  absl::StatusOr<t::TrfFile> file = t::ParseTrfFile(t::WriteTrf(good));
  ASSERT_TRUE(file.ok());
  v1::Tournament settings = NormalizedSettings(Settings(v1::Tournament::SWISS));
  settings.set_rounds(1);
  EXPECT_THAT(error(PlanImport("x", settings, *file, Players(6), kNow)),
              HasSubstr("tournament.rounds: 1 is fewer than the file's 2 rounds played"));
  // A request for a round past the event's rounds.
  settings.set_rounds(2);
  EXPECT_THAT(error(PlanImport("x", settings, *file, Players(6), kNow)),
              HasSubstr("trf: entrant 3, round 3: is past the event's 2 rounds"));
  // A format other than Swiss; late entries.
  settings = NormalizedSettings(Settings(v1::Tournament::ROUND_ROBIN));
  EXPECT_THAT(error(PlanImport("x", settings, *file, Players(6), kNow)),
              HasSubstr("tournament.format"));
  settings = NormalizedSettings(Settings(v1::Tournament::SWISS));
  settings.mutable_registration_close_time()->set_seconds(2'000'000'000);
  EXPECT_THAT(error(PlanImport("x", settings, *file, Players(6), kNow)),
              HasSubstr("tournament.registration_close_time"));
  // Forbidden pairs need players to keep apart.
  std::vector<ImportedEntrantRow> who = Players(6);
  who[5].players.clear();
  who[5].bot = "bot";
  settings = NormalizedSettings(Settings(v1::Tournament::SWISS));
  EXPECT_THAT(error(PlanImport("x", settings, *file, who, kNow)), HasSubstr("trf: XXP"));
}

}  // namespace
}  // namespace boneyard::matchmaking
