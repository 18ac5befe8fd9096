// Standings of a two-sided event with FIDE's tie-breaks (Handbook C.07, the regulations in
// force since 2024, with the 2026 amendment to Article 16.4 as an option): who is placed where
// after a given round, and the numbers that placed them, so a crosstable can show its working.
//
// All values are computed through `through_round` (R): later rounds are ignored, and a round
// up to R with nothing recorded for an entrant (not entered yet, withdrawn, absent) is an
// absence: no points, a voluntarily unplayed round.
//
// Codes (TieBreakName / ParseTieBreak spell them as C.07 and TRF-26 do):
//   PTS    points: the PointSystem's points for each round's code.
//   BH     Buchholz (C.07 8.1): the sum, over the entrant's rounds, of the opponent's score.
//   BH/C1  Buchholz less its least significant value (C.07 14.1), see Article 16.5 below.
//   SB     Sonneborn-Berger (C.07 9.1): the sum, over the rounds, of the opponent's score times
//          the points the entrant scored in that round.
//   DE     direct encounter (C.07 6), below.
//   WIN    rounds in which the entrant got a win's points, played or not (C.07 7.1): a forfeit
//          win, a full-point bye and (when it is worth a win) the pairing-allocated bye count.
//   MP     match points (team events): each round's code mapped to TieBreakOptions' match
//          points — kWin, kForfeitWin, kPairingBye, kFullBye a match win; kDraw, kHalfBye a
//          match draw; everything else a match loss. (EventRecord stores a team match's
//          result in RoundEntry.code and its game points in RoundEntry.game_points.)
//   GP     game points (team events): the sum of RoundEntry.game_points.
//   BH, SB and DE are computed on PTS; a team event that wants them on match points uses a
//   PointSystem worth 2/1/0.
//
// Unplayed rounds (C.07 Article 16). A round is played when the entrant played a game (1, =,
// 0, W, D, L) against an opponent; every other round is unplayed. Voluntary unplayed rounds
// (VURs) are the half- and zero-point byes, forfeit losses and rounds with nothing recorded;
// the pairing-allocated bye, the full-point bye and a forfeit win are not.
//   - 16.3, the entrant as somebody's opponent: its score counts every round as scored, except
//     that a round with no opponent that lies after its last non-VUR round (a requested bye
//     followed only by VURs: it withdrew, or took byes to the end) counts as a draw.
//   - 16.4, the entrant's own unplayed rounds in BH and SB: a game against a dummy opponent
//     whose score is the entrant's own PTS. The 2026 amendment (UnplayedRounds::kC07From2026,
//     the default) caps that score: for a forfeit, at the scheduled opponent's 16.3 score;
//     otherwise at a draw's points times R.
//   - 16.5, cuts: BH/C1 cuts the entrant's lowest VUR contribution when it has one, otherwise
//     its lowest contribution.
//
// Direct encounter (C.07 6) is applied to each group of entrants equal on every value before
// DE in `order` (so put PTS first). Within a group, each entrant's score against the others is
// the points it scored in games played against them (the mean, when a pair met more than
// once; forfeits do not count). When every pair in the group has played, the group is ordered
// by that score and each still-equal subgroup is ordered again among itself. When games are
// missing, an entrant is placed first only if its score beats what any other could reach by
// winning all its missing games; the rest are then taken again as a group; otherwise nobody
// is separated. The DE value is the number of entrants of its group placed below the entrant
// (0 when DE separates nobody), so more is better like every other value.
//
// Ranking: rows are ordered by the values in `order`, each higher-is-better, compared with a
// 1e-9 tolerance; entrants equal on all of them share a rank (1, 2, 2, 4), and among them the
// lower TPN is listed first.
//
// Simplifications, documented because C.07 asks for more:
//   - Round-robin events: C.07 counts a forfeited game there as played against the scheduled
//     opponent; EventRecord does not say whether an event is a round robin, so the Swiss
//     treatment above always applies.
//   - No other tie-breaks (ARO, TPR, PS, KS, FB, cut 2, medians, EDE, ...), no Fore-Buchholz.
//   - Ratings, colours and `rated` play no part.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TIEBREAKS_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TIEBREAKS_H_

#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

enum class TieBreak {
  kPoints,           // PTS
  kBuchholz,         // BH
  kBuchholzCut1,     // BH/C1
  kSonnebornBerger,  // SB
  kDirectEncounter,  // DE
  kWins,             // WIN
  kMatchPoints,      // MP
  kGamePoints,       // GP
};

std::string_view TieBreakName(TieBreak tie_break);

// The inverse of TieBreakName, ignoring case; "BH-C1" is read as BH/C1 too. INVALID_ARGUMENT
// naming the unknown name.
absl::StatusOr<TieBreak> ParseTieBreak(std::string_view name);

enum class UnplayedRounds {
  kC07From2024,  // 16.4: the dummy opponent has the entrant's own score
  kC07From2026,  // 16.4.1/16.4.2: ... capped (applied from 1 March 2026)
};

struct TieBreakOptions {
  UnplayedRounds unplayed_rounds = UnplayedRounds::kC07From2026;
  // MP's points for a team match won, drawn, lost (TRF-26's 362 defaults).
  double match_win = 2;
  double match_draw = 1;
  double match_loss = 0;
};

struct StandingRow {
  int tpn = 0;
  int rank = 0;                // 1-based; shared by entrants equal on every value
  double points = 0;           // PTS
  std::vector<double> values;  // values[i] is order[i]'s
};

// One row per entrant, best first. through_round is clamped to 0 .. the larger of
// total_rounds and the longest entrant record.
std::vector<StandingRow> Standings(const EventRecord& event, int through_round,
                                   std::span<const TieBreak> order,
                                   const TieBreakOptions& options = {});

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TIEBREAKS_H_
