// TRF-16 read and write (services/matchmaking/tournament/trf.h): a hand-laid canonical file,
// round trips, the leniencies pairing programs allow and the hostile input they must refuse.
#include "services/matchmaking/tournament/trf.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament/event_record.h"
#include "services/matchmaking/tournament/swiss_state.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// Laid out by hand, column by column (TPN 5-8, name 15-47, rating 49-52, points 81-84, rank
// 86-89, round r from 92 + 10(r-1)), in the layout WriteTrf writes. "Müller, Jörg" has as many
// code points as "Muller, Jorg", so its columns line up in code points, not bytes.
constexpr std::string_view kCanonical =
    "012 Boneyard Spring Open\r\n"
    "022 Lisboa\r\n"
    "042 2025/04/01\r\n"
    "001    1 w    Alvarez, Ana                      1850 ESP    12345678 1990/01/02  1.0    2"
    "     3 w 1     2 b 0\r\n"
    "001    2 m FM Müller, Jörg                      1720 GER                         1.5    1"
    "     4 b =     1 w 1\r\n"
    "001    3 m    Okafor, Chidi                     1600 NGR                         1.0    3"
    "     1 b 0     4 w +\r\n"
    "001    4      Smith, Sam                                                         0.5    4"
    "     2 w =     3 b -  0000 - H\r\n"
    "XXR 3\r\n"
    "XXC white1\r\n";

// The same event with a non-default point system and forbidden pairs, and no header lines.
constexpr std::string_view kCanonicalWithExtensions =
    "012 Boneyard Threes\r\n"
    "001    1      Alvarez, Ana                      1850                             3.0    1"
    "     2 b 1\r\n"
    "001    2      Baker, Bo                                                          0.0    2"
    "     1 w 0\r\n"
    "XXR 5\r\n"
    "XXC black1\r\n"
    "BBW  3.0\r\n"
    "BBD  1.0\r\n"
    "BBL  0.0\r\n"
    "BBZ  0.0\r\n"
    "BBF  0.0\r\n"
    "BBU  3.0\r\n"
    "XXS WW=3 BW=3 WD=1 BD=1 WL=0 BL=0 ZPB=0 HPB=1 FPB=3 PAB=3 FW=3 FL=0\r\n"
    "XXP 1 2\r\n";

// A player line with `start` in its first columns and `rounds` from column 91 on (the blank
// before round 1's cell at 92).
std::string PlayerLine(std::string_view start, std::string_view rounds) {
  std::string line = std::string(start);
  line.resize(90, ' ');
  return line + std::string(rounds);
}

// Lines joined, each ended by LF.
std::string Lines(std::initializer_list<std::string> lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// Round cells (8 columns each) separated as TRF separates them.
std::string Cells(const std::vector<std::string_view>& cells) {
  std::string out;
  for (std::string_view cell : cells) {
    out += ' ';
    out.append(cell);
    out += ' ';
  }
  return out;
}

EventRecord MakeEvent(int entrants) {
  EventRecord event;
  for (int tpn = 1; tpn <= entrants; ++tpn) {
    Entrant e;
    e.tpn = tpn;
    e.name = "Player " + std::to_string(tpn);
    event.entrants.push_back(e);
  }
  return event;
}

RoundEntry& Cell(EventRecord& event, int tpn, int round) {
  std::vector<RoundEntry>& rounds = event.ByTpn(tpn).rounds;
  if (static_cast<int>(rounds.size()) < round) rounds.resize(round);
  return rounds[round - 1];
}

void Game(EventRecord& event, int round, int white, int black, RoundCode white_code) {
  const RoundCode black_code = white_code == RoundCode::kWin    ? RoundCode::kLoss
                               : white_code == RoundCode::kLoss ? RoundCode::kWin
                                                                : RoundCode::kDraw;
  Cell(event, white, round) = {black, Colour::kWhite, white_code};
  Cell(event, black, round) = {white, Colour::kBlack, black_code};
}

void ExpectSameEvent(const EventRecord& a, const EventRecord& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.total_rounds, b.total_rounds);
  EXPECT_EQ(a.initial_colour, b.initial_colour);
  EXPECT_EQ(a.points.win, b.points.win);
  EXPECT_EQ(a.points.draw, b.points.draw);
  EXPECT_EQ(a.points.loss, b.points.loss);
  EXPECT_EQ(a.points.forfeit_win, b.points.forfeit_win);
  EXPECT_EQ(a.points.forfeit_loss, b.points.forfeit_loss);
  EXPECT_EQ(a.points.pairing_bye, b.points.pairing_bye);
  EXPECT_EQ(a.points.full_bye, b.points.full_bye);
  EXPECT_EQ(a.points.half_bye, b.points.half_bye);
  EXPECT_EQ(a.points.zero_bye, b.points.zero_bye);
  EXPECT_EQ(a.forbidden_pairs, b.forbidden_pairs);
  ASSERT_EQ(a.entrants.size(), b.entrants.size());
  for (std::size_t i = 0; i < a.entrants.size(); ++i) {
    SCOPED_TRACE("entrant " + std::to_string(i + 1));
    const Entrant& x = a.entrants[i];
    const Entrant& y = b.entrants[i];
    EXPECT_EQ(x.tpn, y.tpn);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.rating, y.rating);
    EXPECT_EQ(x.withdrawn, y.withdrawn);
    EXPECT_EQ(x.trf.sex, y.trf.sex);
    EXPECT_EQ(x.trf.title, y.trf.title);
    EXPECT_EQ(x.trf.federation, y.trf.federation);
    EXPECT_EQ(x.trf.fide_id, y.trf.fide_id);
    EXPECT_EQ(x.trf.birth_date, y.trf.birth_date);
    ASSERT_EQ(x.rounds.size(), y.rounds.size());
    for (std::size_t r = 0; r < x.rounds.size(); ++r) {
      SCOPED_TRACE("round " + std::to_string(r + 1));
      EXPECT_EQ(x.rounds[r].opponent, y.rounds[r].opponent);
      EXPECT_EQ(x.rounds[r].colour, y.rounds[r].colour);
      EXPECT_EQ(x.rounds[r].code, y.rounds[r].code);
      EXPECT_EQ(x.rounds[r].rated, y.rounds[r].rated);
    }
  }
}

// The error for `text`, which must be INVALID_ARGUMENT.
std::string ErrorFor(std::string_view text) {
  const absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  EXPECT_FALSE(file.ok()) << "parsed:\n" << text;
  if (file.ok()) return "";
  EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(file.status().message());
}

TEST(TrfTest, ReadsTheCanonicalFile) {
  const absl::StatusOr<TrfFile> file = ParseTrfFile(kCanonical);
  ASSERT_TRUE(file.ok()) << file.status();
  const EventRecord& event = file->event;
  EXPECT_EQ(event.name, "Boneyard Spring Open");
  EXPECT_EQ(event.total_rounds, 3);
  EXPECT_EQ(event.initial_colour, Colour::kWhite);
  EXPECT_THAT(file->header_lines, ElementsAre("022 Lisboa", "042 2025/04/01"));
  EXPECT_TRUE(file->trailer_lines.empty());
  EXPECT_THAT(file->ranks, ElementsAre(2, 1, 3, 4));
  ASSERT_EQ(event.entrants.size(), 4u);

  const Entrant& ana = event.ByTpn(1);
  EXPECT_EQ(ana.tpn, 1);
  EXPECT_EQ(ana.name, "Alvarez, Ana");
  EXPECT_EQ(ana.rating, 1850);
  EXPECT_EQ(ana.trf.sex, "w");
  EXPECT_EQ(ana.trf.federation, "ESP");
  EXPECT_EQ(ana.trf.fide_id, "12345678");
  EXPECT_EQ(ana.trf.birth_date, "1990/01/02");
  ASSERT_EQ(ana.rounds.size(), 2u);
  EXPECT_EQ(ana.rounds[0].opponent, 3);
  EXPECT_EQ(ana.rounds[0].colour, Colour::kWhite);
  EXPECT_EQ(ana.rounds[0].code, RoundCode::kWin);
  EXPECT_EQ(ana.rounds[1].code, RoundCode::kLoss);

  const Entrant& jorg = event.ByTpn(2);
  EXPECT_EQ(jorg.name, "Müller, Jörg");  // UTF-8, and the rating after it still lines up
  EXPECT_EQ(jorg.trf.title, "FM");
  EXPECT_EQ(jorg.rating, 1720);

  const Entrant& chidi = event.ByTpn(3);
  EXPECT_EQ(chidi.rounds[1].code, RoundCode::kForfeitWin);
  EXPECT_EQ(chidi.rounds[1].opponent, 4);

  const Entrant& sam = event.ByTpn(4);
  EXPECT_EQ(sam.rating, 0);
  ASSERT_EQ(sam.rounds.size(), 3u);
  EXPECT_EQ(sam.rounds[1].code, RoundCode::kForfeitLoss);
  EXPECT_EQ(sam.rounds[2].code, RoundCode::kHalfBye);  // requested for the round to be paired
  EXPECT_EQ(sam.rounds[2].opponent, 0);
  EXPECT_EQ(sam.rounds[2].colour, Colour::kNone);
}

TEST(TrfTest, WritesTheCanonicalFileBackByteForByte) {
  const absl::StatusOr<TrfFile> file = ParseTrfFile(kCanonical);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(WriteTrf(*file), kCanonical);

  const absl::StatusOr<TrfFile> extended = ParseTrfFile(kCanonicalWithExtensions);
  ASSERT_TRUE(extended.ok()) << extended.status();
  EXPECT_EQ(WriteTrf(*extended), kCanonicalWithExtensions);
  // Nothing but the record there, so the record alone writes the same file.
  EXPECT_EQ(WriteTrf(extended->event), kCanonicalWithExtensions);
}

TEST(TrfTest, WritingTheRecordAloneDropsOnlyTheLinesItCannotHold) {
  const absl::StatusOr<EventRecord> event = ParseTrf(kCanonical);
  ASSERT_TRUE(event.ok()) << event.status();
  std::string expected(kCanonical);
  for (std::string_view kept : {"022 Lisboa\r\n", "042 2025/04/01\r\n"}) {
    expected.erase(expected.find(kept), kept.size());
  }
  // Ranks come back from points then TPN, as the file had them.
  EXPECT_EQ(WriteTrf(*event), expected);
}

TEST(TrfTest, KeepsTheFilesRanksAndDerivesThemForABareRecord) {
  // TPN 1 and 3 both have 1.0; this file placed 3 above 1 (say, on a tie-break).
  std::string text(kCanonical);
  const std::size_t one = text.find(" 1.0    2 ");
  const std::size_t three = text.find(" 1.0    3 ");
  ASSERT_NE(one, std::string::npos);
  ASSERT_NE(three, std::string::npos);
  text[one + 8] = '3';
  text[three + 8] = '2';
  const absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_THAT(file->ranks, ElementsAre(3, 1, 2, 4));
  EXPECT_EQ(WriteTrf(*file), text);
  // Without ranks, points then TPN decide: 1 is 2nd again.
  TrfFile bare = *file;
  bare.ranks.clear();
  EXPECT_EQ(WriteTrf(bare), kCanonical);
}

TEST(TrfTest, ParseWriteParseKeepsTheRecord) {
  for (std::string_view text : {kCanonical, kCanonicalWithExtensions}) {
    const absl::StatusOr<EventRecord> first = ParseTrf(text);
    ASSERT_TRUE(first.ok()) << first.status();
    const absl::StatusOr<EventRecord> second = ParseTrf(WriteTrf(*first));
    ASSERT_TRUE(second.ok()) << second.status();
    ExpectSameEvent(*first, *second);
  }
}

TEST(TrfTest, RecordsBuiltInCodeSurviveARoundTrip) {
  EventRecord event = MakeEvent(5);
  event.name = "Club night";
  event.total_rounds = 4;
  event.initial_colour = Colour::kBlack;
  event.points = {.win = 2,
                  .draw = 1,
                  .loss = 0,
                  .forfeit_win = 2,
                  .forfeit_loss = 0,
                  .pairing_bye = 1,
                  .full_bye = 2,
                  .half_bye = 1,
                  .zero_bye = 0};
  event.forbidden_pairs = {{1, 5}, {2, 3}};
  event.ByTpn(2).rating = 2001;
  event.ByTpn(3).trf.title = "WGM";
  Game(event, 1, 1, 2, RoundCode::kWin);
  Game(event, 1, 3, 4, RoundCode::kDraw);
  Cell(event, 4, 1).rated = false;
  Cell(event, 3, 1).rated = false;  // 'D' against 'D'
  Cell(event, 5, 1).code = RoundCode::kPairingBye;
  Game(event, 2, 5, 1, RoundCode::kLoss);
  Cell(event, 2, 2) = {4, Colour::kNone, RoundCode::kForfeitLoss};
  Cell(event, 4, 2) = {2, Colour::kNone, RoundCode::kForfeitLoss};  // both stayed away
  Cell(event, 3, 2).code = RoundCode::kFullBye;
  Cell(event, 3, 3).code = RoundCode::kZeroBye;

  const std::string text = WriteTrf(event);
  const absl::StatusOr<EventRecord> back = ParseTrf(text);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  ExpectSameEvent(event, *back);
  EXPECT_EQ(WriteTrf(*back), text);
}

TEST(TrfTest, AcceptsTheLineEndingsAndShortLinesPairingProgramsWrite) {
  std::string lf(kCanonical);
  for (std::size_t at; (at = lf.find("\r\n")) != std::string::npos;) lf.erase(at, 1);
  std::string cr(kCanonical);
  for (std::size_t at; (at = cr.find("\r\n")) != std::string::npos;) cr.erase(at + 1, 1);
  const std::string bom = "\xEF\xBB\xBF" + std::string(kCanonical) + "\r\n   \r\n\r\n";
  const absl::StatusOr<EventRecord> expected = ParseTrf(kCanonical);
  ASSERT_TRUE(expected.ok());
  for (const std::string& text : {lf, cr, bom}) {
    const absl::StatusOr<EventRecord> event = ParseTrf(text);
    ASSERT_TRUE(event.ok()) << event.status();
    ExpectSameEvent(*expected, *event);
  }

  // A player line may stop anywhere after its TPN; what is missing reads as blank.
  const absl::StatusOr<EventRecord> short_lines = ParseTrf(
      "001    1      Short\n001    2\n001    3      Third, line with trailing spaces  "
      "          \n");
  ASSERT_TRUE(short_lines.ok()) << short_lines.status();
  ASSERT_EQ(short_lines->entrants.size(), 3u);
  EXPECT_EQ(short_lines->ByTpn(1).name, "Short");
  EXPECT_EQ(short_lines->ByTpn(2).name, "");
  EXPECT_EQ(short_lines->ByTpn(3).name, "Third, line with trailing spaces");
  EXPECT_TRUE(short_lines->ByTpn(1).rounds.empty());
}

TEST(TrfTest, ReadsOlderAndLowerCaseSpellings) {
  const std::string blank(8, ' ');
  const std::string text =
      PlayerLine("001    1", Cells({"   2 W w", "0000 - +", "0000 - -", "0000 - =", "   3 B d"})) +
      "\n" + PlayerLine("001    2", Cells({"   1 B l", "0000 - u", "0000   z", "     -  "})) +
      "\n" + PlayerLine("001    3", Cells({blank, "0000 - h", blank, blank, "   1 w d"})) + "\n";
  const absl::StatusOr<EventRecord> event = ParseTrf(text);
  ASSERT_TRUE(event.ok()) << event.status();
  const std::vector<RoundEntry>& one = event->ByTpn(1).rounds;
  ASSERT_EQ(one.size(), 5u);
  EXPECT_EQ(one[0].code, RoundCode::kWin);
  EXPECT_FALSE(one[0].rated);  // 'w' result: played, not rated
  EXPECT_EQ(one[0].colour, Colour::kWhite);
  EXPECT_EQ(one[1].code, RoundCode::kPairingBye);  // "0000 - +"
  EXPECT_EQ(one[2].code, RoundCode::kZeroBye);     // "0000 - -"
  EXPECT_EQ(one[3].code, RoundCode::kHalfBye);     // "0000 - ="
  EXPECT_EQ(one[4].code, RoundCode::kDraw);
  EXPECT_FALSE(one[4].rated);
  const std::vector<RoundEntry>& two = event->ByTpn(2).rounds;
  ASSERT_EQ(two.size(), 4u);
  EXPECT_EQ(two[0].code, RoundCode::kLoss);
  EXPECT_EQ(two[1].code, RoundCode::kPairingBye);
  EXPECT_EQ(two[2].code, RoundCode::kZeroBye);  // blank colour, lower-case letter
  EXPECT_EQ(two[3].code, RoundCode::kZeroBye);  // '-' alone: TRF-26's blank result is Z
  const std::vector<RoundEntry>& three = event->ByTpn(3).rounds;
  ASSERT_EQ(three.size(), 5u);
  EXPECT_EQ(three[0].code, RoundCode::kNone);  // blank throughout: nothing
  EXPECT_EQ(three[1].code, RoundCode::kHalfBye);
  EXPECT_EQ(three[4].code, RoundCode::kDraw);
}

// Who is out of a round to be paired: the TPNs ToBePaired (swiss_state.h) leaves out.
std::vector<int> NotToBePaired(const EventRecord& event, int round) {
  std::vector<int> out;
  for (const Entrant& entrant : event.entrants) {
    if (!ToBePaired(entrant, round)) out.push_back(entrant.tpn);
  }
  return out;
}

TEST(TrfTest, RoundsPlayedAndAbsentFromTheRoundToBePaired) {
  const absl::StatusOr<EventRecord> event = ParseTrf(kCanonical);
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(RoundsPlayed(*event), 2);  // TPN 4's round-3 'H' is a request, not a pairing
  EXPECT_THAT(NotToBePaired(*event, 3), ElementsAre(4));
  EXPECT_THAT(NotToBePaired(*event, 0), ElementsAre(1, 2, 3, 4));  // no round 0 to pair

  EventRecord changed = *event;
  changed.ByTpn(1).withdrawn = true;
  Cell(changed, 3, 3).code = RoundCode::kZeroBye;
  Cell(changed, 2, 3).code = RoundCode::kFullBye;
  EXPECT_THAT(NotToBePaired(changed, 3), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(NotToBePaired(changed, 7), ElementsAre(1));
  Cell(changed, 2, 4).code = RoundCode::kPairingBye;
  EXPECT_EQ(RoundsPlayed(changed), 4);
  EXPECT_EQ(RoundsPlayed(EventRecord{}), 0);
}

TEST(TrfTest, ByeRecordsFillTheRoundToBePaired) {
  const std::string text = std::string(kCanonical) + "240 Z 003 0001 0002\r\n";
  const absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_THAT(NotToBePaired(file->event, 3), ElementsAre(1, 2, 4));
  EXPECT_TRUE(file->trailer_lines.empty());  // the 240 line now lives in the cells

  EXPECT_THAT(ErrorFor(std::string(kCanonical) + "240 F 003 0004\r\n"),
              HasSubstr("contradicts its 001 line"));
  EXPECT_THAT(ErrorFor(std::string(kCanonical) + "240 Q 003 0004\r\n"), HasSubstr("bye type"));
  EXPECT_THAT(ErrorFor(std::string(kCanonical) + "240 H 003 0009\r\n"), HasSubstr("TPN 9"));
}

TEST(TrfTest, InitialColourFromXxcOr152OrInferred) {
  const std::string players =
      Lines({PlayerLine("001    1", "    2 b 1"), PlayerLine("001    2", "    1 w 0")});
  const auto colour = [](const std::string& text) {
    const absl::StatusOr<EventRecord> event = ParseTrf(text);
    EXPECT_TRUE(event.ok()) << event.status();
    return event.ok() ? event->initial_colour : Colour::kNone;
  };
  // TPN 1 had black in round 1.
  EXPECT_EQ(colour(players), Colour::kBlack);
  EXPECT_EQ(colour(players + "XXC rank white1\n"), Colour::kWhite);  // JaVaFo's `rank` allowed
  EXPECT_EQ(colour(players + "152 B\n"), Colour::kBlack);
  // TPN 1 was paired but forfeited without a colour: TPN 2's white is the second colour.
  const std::string forfeit =
      Lines({PlayerLine("001    1", "    3 - -"), PlayerLine("001    2", "    4 w 1"),
             PlayerLine("001    3", "    1 - +"), PlayerLine("001    4", "    2 b 0")});
  EXPECT_EQ(colour(forfeit), Colour::kBlack);
  EXPECT_EQ(colour("001    1\n"), Colour::kWhite);  // nothing to go by

  EXPECT_THAT(ErrorFor(players + "XXC white1\nXXC black1\n"), HasSubstr("line 4"));
  // A word that is no colour is an error, never the default colour read in silence.
  EXPECT_THAT(ErrorFor(players + "XXC purple\n"), HasSubstr("names no colour we know"));
  EXPECT_THAT(ErrorFor(players + "XXC white2\n"), HasSubstr("\"white2\""));
  EXPECT_THAT(ErrorFor(players + "XXC rank\n"), HasSubstr("names no initial colour"));
  EXPECT_THAT(ErrorFor(players + "152 X\n"), HasSubstr("(W or B)"));
}

TEST(TrfTest, PointLines) {
  const std::string players = "001    1\n";
  const auto points = [&](std::string_view lines) {
    const absl::StatusOr<EventRecord> event = ParseTrf(players + std::string(lines));
    EXPECT_TRUE(event.ok()) << event.status();
    return event.ok() ? event->points : PointSystem{};
  };
  // bbpPairings: BBW moves the win-valued results, and the PAB until BBU names it.
  PointSystem p = points("BBW 3.0\nBBD 1\nBBL .5\n");
  EXPECT_EQ(p.win, 3);
  EXPECT_EQ(p.forfeit_win, 3);
  EXPECT_EQ(p.full_bye, 3);
  EXPECT_EQ(p.pairing_bye, 3);
  EXPECT_EQ(p.draw, 1);
  EXPECT_EQ(p.half_bye, 1);
  EXPECT_EQ(p.loss, 0.5);
  // At most four decimals, written back as read, never with an exponent (found by the TRF
  // fuzzer: 0.00008 was written as "8e-05", which does not read back).
  EXPECT_THAT(ErrorFor("001    1\nBBU 0.00008\n"), HasSubstr("BBU"));
  const absl::StatusOr<TrfFile> small = ParseTrfFile("001    1\nBBU 0.0008\n");
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_THAT(WriteTrf(*small), HasSubstr("BBU 0.0008\r\n"));
  p = points("BBU 1.5\nBBW 3\nBBZ 0.5\nBBF 0.25\n");
  EXPECT_EQ(p.pairing_bye, 1.5);
  EXPECT_EQ(p.win, 3);
  EXPECT_EQ(p.zero_bye, 0.5);
  EXPECT_EQ(p.forfeit_loss, 0.25);
  // XXS, and a later line overriding an earlier one.
  p = points("XXS W=2 D=1 HPB=0.5 FW=1.5 PAB=1 ZPB=0.25 FL=0.1 FPB=2 unknown=7\nBBD 0.75\n");
  EXPECT_EQ(p.win, 2);
  EXPECT_EQ(p.draw, 0.75);
  EXPECT_EQ(p.half_bye, 0.75);
  EXPECT_EQ(p.forfeit_win, 1.5);
  EXPECT_EQ(p.pairing_bye, 1);
  EXPECT_EQ(p.zero_bye, 0.25);
  EXPECT_EQ(p.forfeit_loss, 0.1);
  EXPECT_EQ(p.full_bye, 2);
  // TRF-26 162: W at column 6, its value in 7-10, the next code 9 columns on.
  p = points("162  W 3.0    D 1.0    A 0.5    P 2.0\n");
  EXPECT_EQ(p.win, 3);
  EXPECT_EQ(p.draw, 1);
  EXPECT_EQ(p.forfeit_loss, 0.5);
  EXPECT_EQ(p.zero_bye, 0.5);
  EXPECT_EQ(p.pairing_bye, 2);

  EXPECT_THAT(ErrorFor(players + "XXS WW=1 BW=0.5\n"), HasSubstr("line 2"));
  EXPECT_THAT(ErrorFor(players + "XXS WW=one\n"), HasSubstr("WW"));
  EXPECT_THAT(ErrorFor(players + "XXS WW\n"), HasSubstr("KEY=value"));
  EXPECT_THAT(ErrorFor(players + "BBW -1\n"), HasSubstr("BBW"));
  EXPECT_THAT(ErrorFor(players + "BBW 1 2\n"), HasSubstr("one number"));
  EXPECT_THAT(ErrorFor(players + "BBW 1e9\n"), HasSubstr("not a number"));
  EXPECT_THAT(ErrorFor(players + "162  Q 1.0\n"), HasSubstr("column 6"));
}

TEST(TrfTest, ForbiddenPairsAreEveryPairOfAnXxpList) {
  const std::string players = "001    1\n001    2\n001    3\n001    4\n";
  const absl::StatusOr<EventRecord> event = ParseTrf(players + "XXP 3 1 2\nXXP 2 1\nXXP\t4\nXXP\n");
  ASSERT_TRUE(event.ok()) << event.status();
  EXPECT_THAT(event->forbidden_pairs, ElementsAre(Pair(1, 2), Pair(1, 3), Pair(2, 3)));
  EXPECT_THAT(WriteTrf(*event), HasSubstr("XXP 1 2\r\nXXP 1 3\r\nXXP 2 3\r\n"));

  EXPECT_THAT(ErrorFor(players + "XXP 1 5\n"), HasSubstr("line 5"));
  EXPECT_THAT(ErrorFor(players + "XXP 1 x\n"), HasSubstr("XXP entry"));
  EXPECT_THAT(ErrorFor(players + "XXP 1 0\n"), HasSubstr("not a TPN"));
}

TEST(TrfTest, RoundCountFromXxrOr142) {
  const auto rounds = [](std::string_view text) {
    const absl::StatusOr<EventRecord> event = ParseTrf(text);
    EXPECT_TRUE(event.ok()) << event.status();
    return event.ok() ? event->total_rounds : -1;
  };
  EXPECT_EQ(rounds("001    1\nXXR 9\n"), 9);
  EXPECT_EQ(rounds("001    1\n142 7\nXXR 7\n"), 7);
  EXPECT_EQ(rounds("001    1\n"), 0);
  EXPECT_THAT(ErrorFor("001    1\nXXR 9\n142 8\n"), HasSubstr("line 3"));
  EXPECT_THAT(ErrorFor("001    1\nXXR 0\n"), HasSubstr("round count"));
  EXPECT_THAT(ErrorFor("001    1\nXXR 99999999999\n"), HasSubstr("round count"));
  EXPECT_THAT(ErrorFor("001    1\nXXR 3 4\n"), HasSubstr("round count"));
  // A result in round 4 of a 3-round event.
  EXPECT_THAT(ErrorFor(std::string(kCanonical) + "XXR 2\n"), HasSubstr("contradicts"));
  EXPECT_THAT(ErrorFor(PlayerLine("001    1", std::string(31, ' ') + "0000 - H") + "\nXXR 3\n"),
              HasSubstr("line 1: round 4 recorded"));
}

TEST(TrfTest, KeepsLinesItDoesNotReadWhereTheyWere) {
  const std::string text =
      "### a comment\r\n012 Name\r\n012 A second name line\r\n062 2\r\n"
      "001    1\r\nDAT 0001 EMAIL someone@example.org\r\n001    2\r\n"
      "XXA 0001  1.0\r\n260 001 002  0001  0002\r\n";
  const absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->event.name, "Name");
  EXPECT_THAT(file->header_lines, ElementsAre("### a comment", "012 A second name line", "062 2"));
  EXPECT_THAT(file->trailer_lines, ElementsAre("DAT 0001 EMAIL someone@example.org",
                                               "XXA 0001  1.0", "260 001 002  0001  0002"));
  const std::string written = WriteTrf(*file);
  EXPECT_THAT(written, HasSubstr("012 Name\r\n### a comment\r\n012 A second name line\r\n"));
  // An empty name line names nothing: the next one is the name (found by the TRF fuzzer: kept,
  // it would have become the name on reading the written file, which then changed again).
  const absl::StatusOr<TrfFile> unnamed = ParseTrfFile("012 \r\n#\r\n012 Again\r\n001    1\r\n");
  ASSERT_TRUE(unnamed.ok()) << unnamed.status();
  EXPECT_EQ(unnamed->event.name, "Again");
  EXPECT_EQ(WriteTrf(*ParseTrfFile(WriteTrf(*unnamed))), WriteTrf(*unnamed));
  EXPECT_THAT(written, HasSubstr("XXA 0001  1.0\r\n260 001 002  0001  0002\r\nXXC white1\r\n"));
}

TEST(TrfTest, WritingCutsAndCleansWhatDoesNotFit) {
  EventRecord event = MakeEvent(2);
  event.name = "Evil\nXXR 99";
  std::string long_name;
  for (int i = 0; i < 40; ++i) long_name += "Ö";
  event.ByTpn(1).name = long_name;
  event.ByTpn(1).rating = 123456;
  event.ByTpn(2).name = "Line\r\n001    9 break\tand \xFF";
  event.points.win = 200;  // 3 wins of 200 would not fit four columns
  Game(event, 1, 1, 2, RoundCode::kWin);

  const std::string text = WriteTrf(event);
  const absl::StatusOr<EventRecord> back = ParseTrf(text);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  ASSERT_EQ(back->entrants.size(), 2u);
  EXPECT_EQ(back->name, "Evil XXR 99");
  EXPECT_EQ(back->total_rounds, 0);
  std::string cut;
  for (int i = 0; i < 33; ++i) cut += "Ö";  // 33 code points, 66 bytes
  EXPECT_EQ(back->ByTpn(1).name, cut);
  EXPECT_EQ(back->ByTpn(1).rating, 9999);
  EXPECT_EQ(back->ByTpn(2).name, "Line  001    9 break and ?");
  EXPECT_EQ(back->ByTpn(1).rounds[0].code, RoundCode::kWin);
  EXPECT_THAT(text, HasSubstr(" 200    1"));  // points past 99.9 lose their decimal
}

TEST(TrfTest, RefusesHostileInput) {
  const std::string two =
      Lines({PlayerLine("001    1", "    2 w 1"), PlayerLine("001    2", "    1 b 0")});
  ASSERT_TRUE(ParseTrf(two).ok());

  EXPECT_THAT(ErrorFor(""), HasSubstr("empty"));
  EXPECT_THAT(ErrorFor("\r\n  \n\t\n"), HasSubstr("empty"));
  EXPECT_THAT(ErrorFor("001\n"), HasSubstr("line 1: TPN"));
  EXPECT_THAT(ErrorFor("001    0\n"), HasSubstr("TPN"));
  EXPECT_THAT(ErrorFor("001 12345 Overflowing TPN\n"), HasSubstr("column 9"));
  EXPECT_THAT(ErrorFor("001    1      Name" + std::string(30, ' ') + "12345\n"),
              HasSubstr("column 53"));
  EXPECT_THAT(ErrorFor("001    1      Name" + std::string(30, ' ') + "12a4\n"),
              HasSubstr("rating (columns 49-52)"));
  EXPECT_THAT(ErrorFor(PlayerLine("001    1", "").substr(0, 80) + "2,5\n"),
              HasSubstr("points (columns 81-84)"));
  EXPECT_THAT(ErrorFor("001    1\n001    1\n"), HasSubstr("line 2: TPN 1 repeats"));
  EXPECT_THAT(ErrorFor("001    1\n001    3\n"), HasSubstr("no 001 line for TPN 2"));
  EXPECT_THAT(ErrorFor("001    1\tName\n"), HasSubstr("tab"));
  EXPECT_THAT(ErrorFor("001    1      Na\x01me\n"), HasSubstr("control character"));
  // Only the file may start with a byte-order mark; a second one (found by the TRF fuzzer)
  // would be read as the file's own after a write and a read, changing the text.
  EXPECT_THAT(ErrorFor("\xEF\xBB\xBF\xEF\xBB\xBF 33\n"), HasSubstr("line 1: byte-order mark"));
  EXPECT_THAT(ErrorFor("012 A\n012 B\xEF\xBB\xBF\n"), HasSubstr("line 2: byte-order mark"));

  EXPECT_THAT(ErrorFor("012 Caf\xC3\n"), HasSubstr("line 1: not valid UTF-8"));
  EXPECT_THAT(ErrorFor("012 \xC0\xAF overlong\n"), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(ErrorFor("012 \xED\xA0\x80 surrogate\n"), HasSubstr("not valid UTF-8"));

  // Round cells.
  const auto with_cell = [](std::string_view one, std::string_view two_cell) {
    return PlayerLine("001    1", one) + "\n" + PlayerLine("001    2", two_cell) + "\n";
  };
  EXPECT_THAT(ErrorFor(with_cell("    2 w X", "    1 b 0")),
              HasSubstr("line 1: round 1 (columns 92-99) result"));
  EXPECT_THAT(ErrorFor(with_cell("    2 x 1", "    1 b 0")), HasSubstr("colour"));
  EXPECT_THAT(ErrorFor(with_cell("    9 w 1", "    1 b 0")),
              HasSubstr("line 1: round 1 (TPN 1): opponent 9 is not in the file"));
  EXPECT_THAT(ErrorFor(with_cell("    2w 1", "    1 b 0")), HasSubstr("column 96"));
  EXPECT_THAT(ErrorFor(with_cell("    1 w 1", "    1 b 0")), HasSubstr("its own opponent"));
  EXPECT_THAT(ErrorFor(with_cell("    2   1", "    1 b 0")), HasSubstr("without a colour"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w H", "    1 b 0")),
              HasSubstr("no game or forfeit result"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w  ", "    1 b 0")),
              HasSubstr("no game or forfeit result"));
  EXPECT_THAT(ErrorFor(with_cell(" 0000 w U", "")), HasSubstr("colour but no opponent"));
  EXPECT_THAT(ErrorFor(with_cell(" 0000 - 1", "")), HasSubstr("without an opponent"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1x", "    1 b 0")), HasSubstr("column 100"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1  0000 - Ü", "    1 b 0")), HasSubstr("round 2"));

  // Games that do not agree with the opponent's line.
  const std::string three = "001    3\n";
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1", "    3 b 0") + three),
              HasSubstr("line 1: round 1 (TPN 1): opponent 2 (line 2) does not list 1"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1", "") + three), HasSubstr("does not list 1"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1", "    1 w 0")), HasSubstr("same colour"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1", "    1 b 1")),
              HasSubstr("result '1' does not fit opponent 2's '1'"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w 1", "    1 b L")), HasSubstr("does not fit"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w =", "    1 b -")), HasSubstr("does not fit"));
  EXPECT_THAT(ErrorFor(with_cell("    2 w +", "    1 b +")), HasSubstr("does not fit"));
  // A double forfeit is a real outcome.
  EXPECT_TRUE(ParseTrf(with_cell("    2 w -", "    1 b -")).ok());
}

TEST(TrfTest, HugeButHonestInputIsBoundedNotRefused) {
  // 9999 entrants, the most four columns hold, each with one bye.
  std::string text;
  for (int tpn = 1; tpn <= 9999; ++tpn) {
    std::string line =
        "001 " + std::string(4 - std::to_string(tpn).size(), ' ') + std::to_string(tpn);
    line.resize(91, ' ');
    text += line + "0000 - U\n";
  }
  const absl::StatusOr<EventRecord> event = ParseTrf(text);
  ASSERT_TRUE(event.ok()) << event.status();
  EXPECT_EQ(event->entrants.size(), 9999u);
  EXPECT_EQ(RoundsPlayed(*event), 1);
}

}  // namespace
}  // namespace boneyard::tournament
