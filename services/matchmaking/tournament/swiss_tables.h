// Swiss tables: a round of an N-player game (Muggins 3-4, Moon, Mexican Train, Chickenfoot)
// seated by the standings, the way a Swiss pairs two-sided games: the leaders play each other,
// entrants who have shared a table are kept apart where the field allows, table sizes come from
// the game's range with as few short tables as possible (round_robin.h LayTables), and when no
// layout seats everyone the lowest-placed who have sat out least sit out.
//
// How (greedy, like the fast Swiss mode, so that 10,000 entrants seat in milliseconds):
//   1. Sit-outs: the entrants with the fewest sit-outs so far, the lowest-placed first.
//   2. Tables from the top, full tables first (short ones at the bottom): each opens with the
//      highest-placed entrant not yet seated and takes, seat by seat, the next-placed entrant
//      who has met nobody at the table, looking at most kSwissTableWindow places ahead; when
//      everyone in the window has met someone there, the one who has met fewest.
//   3. Repair: a table left with a repeat swaps one of the two with an entrant of a
//      neighbouring table (two tables up or down) when that lowers the repeats of both tables.
// It keeps no repeat whenever the window offers a way; it does not optimise the whole round.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_TABLES_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_TABLES_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace boneyard::tournament {

inline constexpr int kMaxSwissTableEntrants = 100'000;
// How far down the standings a seat is looked for before a repeat is accepted.
inline constexpr int kSwissTableWindow = 48;

struct SwissTableEntrant {
  int id = 0;        // the caller's (e.g. a pairing number): positive, unique
  int sit_outs = 0;  // rounds sat out so far
};

struct SwissTablesSpec {
  std::vector<SwissTableEntrant> standings;  // best first
  std::vector<std::pair<int, int>> met;      // ids that have shared a table, either order
  int table_size = 4;                        // the most seats at a table (2 .. kMaxTableSize)
  int min_table_size = 0;                    // the fewest; 0 means table_size
};

struct SwissTablesRound {
  // Tables in board order (the leaders' first), each in standings order.
  std::vector<std::vector<int>> tables;
  std::vector<int> sitting_out;  // in standings order
  int repeats = 0;               // pairs seated together who had met before
};

// INVALID_ARGUMENT naming the field for sizes out of range, too few or too many entrants, or an
// id that is not positive or appears twice.
absl::StatusOr<SwissTablesRound> PairSwissTables(const SwissTablesSpec& spec);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_TABLES_H_
