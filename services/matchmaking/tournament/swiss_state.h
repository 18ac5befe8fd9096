// What a Swiss pairing system needs to know of each entrant before pairing a round, read off
// the event record: score, colour history and preference, floats, bye eligibility.
//
// Definitions are FIDE's (C.04.1 Basic rules, C.04.2 General handling rules, C.04.3 Dutch
// system, the texts applied from 1 February 2026):
// - Only games played over the board count for colours (C.04.2 3.4): forfeits and byes are
//   dropped from the colour history, as if the unplayed rounds came first.
// - Colour difference = whites - blacks. Preference (C.04.3 1.7): absolute when the difference
//   is above +1 or below -1, or the last two games had the same colour; strong when it is +1 or
//   -1; mild when it is 0 (alternate from the last game); none before the first game.
// - Floats (C.04.3 1.4): after a game between different scores the higher-scored side floated
//   down, the lower up; a round scored without playing for more than a loss is a downfloat.
// - The pairing-allocated bye may not go to an entrant who already had it or who already
//   scored a win's points without playing (C.04.1 art. 4).
// - Topscorers (C.04.3 1.8): when pairing the final round, those with more than half the
//   maximum score possible so far.
// - Paired entrants who did not play may meet again (C.04.2 3.5): only played games forbid.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_STATE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_STATE_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

enum class Strength : signed char { kNone, kMild, kStrong, kAbsolute };
enum class Float : signed char { kNone, kDown, kUp };

struct SwissEntrant {
  int tpn = 0;
  // The TPN counted among entrants in the event so far: those present now or paired in an
  // earlier round (an entrant absent since round 1 is a late entry yet to come). 5.2.5's odd
  // and even pairing numbers are these; 0 means "use tpn".
  int pairing_number = 0;
  double score = 0;             // before the round being paired
  std::vector<Colour> colours;  // played games only, oldest first
  int colour_difference = 0;    // whites - blacks
  Colour preference = Colour::kNone;
  Strength strength = Strength::kNone;
  Float float_last = Float::kNone;    // in the previous round
  Float float_before = Float::kNone;  // two rounds before
  bool bye_eligible = true;
  int unplayed_rounds = 0;  // rounds so far without a game played over the board
  bool topscorer = false;
  std::vector<int> met;  // TPNs played over the board (and forbidden pairs)
};

struct SwissRound {
  int round = 0;  // the round being paired
  Colour initial_colour = Colour::kWhite;
  // Entrants to pair, in pairing order: score descending, then TPN ascending (C.04.3 1.2).
  std::vector<SwissEntrant> entrants;
};

// Whether `e` is to be paired in `round` (1-based): not withdrawn, and nothing already entered
// for the round (an 'H', 'Z' or 'F' there is a bye requested in advance). The one test every
// pairing system and its callers use.
bool ToBePaired(const Entrant& e, int round);

// The entrants of `round` (1-based) that are to be paired (ToBePaired).
absl::StatusOr<SwissRound> PrepareSwissRound(const EventRecord& event, int round);

// C1 (no rematch, no forbidden pair) and C3 (non-topscorers with the same absolute colour
// preference do not meet).
bool MayMeet(const SwissEntrant& a, const SwissEntrant& b);

// C.04.3 5.2: the colours of a pair, `higher` being the higher ranked (score, then TPN).
// Returns the board (white, black).
Board AllocateColours(const SwissEntrant& higher, const SwissEntrant& lower, Colour initial_colour);

// The record as it stood when `round` was to be paired: results of the rounds before it, and
// for `round` only the absences entered in advance (byes with no opponent other than the PAB).
// What a pairing program saw, so an arbiter can pair a past round again and compare.
EventRecord RecordBeforeRound(const EventRecord& event, int round);

// The boards in C.04.2 3.6's order: by the higher-ranked entrant's score, then the pair's
// total, then the higher-ranked entrant's TPN; colours by AllocateColours; the bye (black 0)
// last. `pairs` hold indices into round.entrants, higher ranked first; `bye` is an index or -1.
std::vector<Board> BoardsInOrder(const SwissRound& round, std::vector<std::pair<int, int>> pairs,
                                 int bye);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_STATE_H_
