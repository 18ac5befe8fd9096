// FIDE's Tournament Report File (TRF-16) read into an EventRecord and written back, with the
// TRF(x)/TRF(bx) extensions pairing programs exchange (JaVaFo's XXR/XXC/XXP, bbpPairings' BB*
// point lines, XXS) and the few TRF-26 records that say the same things (142, 152, 162, 240).
// A file is how a tournament moves between boneyard and other tournament software or a pairing
// engine, so reading is lenient where pairing programs are and strict where a misreading would
// change who played whom, with which colour, for which result.
//
// Lines and characters
//   - Lines end in LF, CRLF or a lone CR (FIDE asks for CR); blank lines are skipped; a UTF-8
//     byte order mark is skipped. WriteTrf ends every line with CRLF.
//   - Text is UTF-8 and columns are counted in code points, as bbpPairings counts them, so a
//     name with "ü" keeps the columns after it where a UTF-8-aware program put them. (Files
//     written in a single-byte code page must be converted first: invalid UTF-8 is refused.)
//     Combining marks count as columns of their own.
//   - Control characters are refused, except TAB outside 001 lines: in a fixed-column line a
//     tab would have to be expanded to guessed tab stops, so it is refused there; in the token
//     lines (XXR, XXC, XXP, XXS, BB*) it separates tokens like a space.
//
// 001 player lines (columns, 1-based): TPN 5-8, sex 10, title 11-13, name 15-47, rating 49-52,
// federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89; round r in the
// 10 columns from 92 + 10(r-1): opponent TPN (4; "0000" or blank for none), colour ('w', 'b',
// '-' or blank), result, two blanks. Letters are read in either case.
//   - A line may stop anywhere after the TPN: missing columns read as blanks.
//   - Columns 4, 9, 53, 85, 90 and the blanks inside round cells must be blank: a digit there
//     means a field overflowed into its neighbour, and reading on would shift every number.
//   - Points and rank must be numbers when present but are not trusted: the record's points
//     come from the results (PointSystem), so an accelerated score in the file is not an error.
//   - Results: '1' '=' '0' played; 'W' 'D' 'L' played, not rated (rated = false); '+' '-'
//     forfeit win/loss; 'U' pairing-allocated bye; 'F' 'H' 'Z' full/half/zero-point bye.
//     A played result needs an opponent and a colour; a forfeit needs an opponent; a bye has
//     none. Older files mark an unpaired round "0000 - -" (read as 'Z'), the bye "0000 - +"
//     (read as 'U') and a half-point bye "0000 - =" (read as 'H'); WriteTrf writes the letters.
//     A cell with "0000" or '-' but no result is a zero-point bye (TRF-26: blank result = Z); a
//     cell blank throughout is nothing (kNone).
//   - Every game must agree with its opponent's line: the opponent exists and lists this
//     entrant in that round, played colours are opposite, and the results match (1/0, =/=,
//     W/L, D/D, +/-, -/-). TPNs must run 1..n without gaps or repeats.
//   - Entrant.withdrawn has no TRF field: it is never set by ParseTrf nor written by WriteTrf.
//
// The round to be paired (absent entrants). JaVaFo and bbpPairings read a cell already filled
// in the round after the last paired one as a request: "0000 - H", "0000 - Z" or "0000 - F"
// keeps the entrant out of that round's pairing with that bye ("0000 - -" reads as Z, so it
// does too; swiss_state.h's ToBePaired() reads them so). TRF-26 "240 H 004 0012 0031" lines say the
// same and are read into the cells (and so written back as cells).
//
// Event lines
//   - 012: EventRecord.name (the first 012 line; later ones are kept as other lines).
//   - XXR n / 142 n: total_rounds (1..9999; absent leaves 0). A round cell past it is refused.
//   - XXC: "white1"/"black1" set initial_colour; other tokens ("rank", ...) are ignored.
//     152 W/B says the same. Without either, the colour is inferred like bbpPairings does: in
//     the first round with colours, the highest paired TPN's colour, flipped once per paired
//     entrant ranked above it that had none.
//   - Points, applied in file order so a later line overrides an earlier one:
//       bbpPairings: BBW win (also forfeit win and full-point bye, and the pairing-allocated
//       bye until BBU says otherwise), BBD draw (also half-point bye), BBL loss, BBZ zero-point
//       bye, BBF forfeit loss, BBU pairing-allocated bye; one number each.
//       XXS KEY=value tokens: WW BW (win; they must agree), WD BD (draw), WL BL (loss), FW FL
//       (forfeit win/loss), PAB, FPB, HPB, ZPB; W D L set both colours; unknown keys ignored.
//       TRF-26 162: W (win, forfeit win, FPB, PAB unless P), D (draw, HPB), L, A (forfeit
//       loss, ZPB), P (PAB); X (adjourned) is ignored.
//   - XXP a b c ...: the TPNs listed must not meet each other (JaVaFo/bbpPairings: every pair
//     of the list), stored as sorted, unique pairs (a < b).
//   - Everything else (022 city ... 132 round dates, 062/072 counts, ### comments, DAT, NRS,
//     team records 013/310/..., XXA/250 accelerations, 260 round-limited prohibitions, 299)
//     is kept verbatim in TrfFile so it is exported unchanged. EventRecord has no place for
//     accelerations, round-limited prohibitions or abnormal points: a caller that must honour
//     them has to read other lines itself.
//
// Writing (the canonical layout; parse -> write reproduces a file in this layout byte for
// byte): "012 name" (when the name is not empty), the header lines, the 001 lines in TPN order,
// the trailer lines, "XXR n" (when total_rounds > 0), "XXC white1|black1", the BB* lines and an
// XXS line with every key (when the points differ from FIDE's defaults), one "XXP a b" per
// forbidden pair. Player fields: TPN, title, rating, FIDE id, points and rank right-aligned, the
// rest left-aligned; fields longer than their columns are cut (a name past 33 code points
// loses its end); control characters become blanks and bytes that are not UTF-8 '?', so no
// name can start a line of its own; ratings are clamped to 0..9999 (0 is written blank);
// points are "%4.1f" of the results through RoundsPlayed() (past 99.9 without the decimal);
// ranks come from TrfFile.ranks, else from points (descending) then TPN. Trailing blanks are
// dropped from generated lines. WriteTrf expects a record ParseTrf would accept (at most 9999
// entrants, consistent pairings, points from 0 to 9999); it does not check.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TRF_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TRF_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

// A TRF file as read: the record plus what the record has no place for.
struct TrfFile {
  EventRecord event;
  // Lines not read into `event`, verbatim (without line ends), in file order: those before the
  // first 001 line and those after it. WriteTrf puts them back around the player lines.
  std::vector<std::string> header_lines;
  std::vector<std::string> trailer_lines;
  // ranks[tpn - 1] as read from columns 86-89 (0 where blank). When its size is not the number
  // of entrants, WriteTrf derives ranks instead; clear it after changing results.
  std::vector<int> ranks;
};

// Errors are INVALID_ARGUMENT naming the line (1-based) and the field.
absl::StatusOr<TrfFile> ParseTrfFile(std::string_view text);
absl::StatusOr<EventRecord> ParseTrf(std::string_view text);

std::string WriteTrf(const TrfFile& file);
std::string WriteTrf(const EventRecord& event);

// The last round anyone was paired in (a game, a forfeit or the pairing-allocated bye); 0
// before the first pairing. Byes requested in advance do not make a round played.
int RoundsPlayed(const EventRecord& event);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TRF_H_
