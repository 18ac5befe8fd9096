// Round robins: who meets whom in each round of an all-play-all event, for head-to-head games
// (FIDE's Berger tables) and for games played at tables of three to eight (a schedule that
// spreads the meetings of every pair of entrants as evenly as the table size allows).
//
// Head-to-head: Berger tables, exactly as FIDE prints them (Handbook C.05, Annex 1), so that an
// arbiter can check a schedule against the printed table and so that an event's TRF-16 file
// matches one made by any FIDE-endorsed program. For an even number n of entrants there are
// n - 1 rounds of n / 2 boards. Entrant n sits on board 1 every round and alternates colour:
// black in odd rounds (against (r + 1) / 2), white in even rounds (against r / 2 + n / 2). The
// other n - 1 entrants rotate: in round r, with p = ((r - 1) * n / 2) mod (n - 1) + 1 the
// entrant facing n, board k (k = 2 .. n / 2) has p + (k - 1) with white against p - (k - 1),
// both counted cyclically over 1 .. n - 1. Round 1 is therefore 1-n, 2-(n-1), ..., and round 2
// starts n-(n/2+1): the printed tables. For an odd n, FIDE uses the table for n + 1 and whoever
// meets entrant n + 1 has the bye; here that bye is written as Board{entrant, 0} (event_record.h:
// black == 0 is the pairing-allocated bye) and listed last, after the played boards, which keep
// FIDE's order, so board numbers are those of a pairing list.
//
// A double round robin plays the table twice, the second cycle with colours reversed, in the
// same round order. C.05 Annex 1 recommends exchanging the last two rounds of the first cycle:
// otherwise most entrants have the same colour in the last round of the first cycle and the
// first round of the second, and entrants 1 and n / 2 + 1 get three in a row. That exchange is
// the default (RoundRobinCycles::kSwapLastTwoOfFirstCycle) and can be turned off.
//
// Tables (Moon for 3, Muggins for 3 or 4, Mexican Train for up to 8): each round seats the
// entrants at tables of `table_size`, using shorter tables down to `min_table_size` when the
// count does not divide. PlanTables picks the layout: ceil(entrants / table_size) tables, as
// few of them short as possible and the shortfall spread evenly over those; if no layout fits,
// the fewest entrants sit out, in a seeded rotation so that nobody sits out twice before
// everyone has once. Over the rounds, every pair should share a table as evenly as possible:
// the schedule minimises, in this order, the largest number of times a pair meets, the spread
// (largest minus smallest) and the sum of squares of the pair counts. It is found by a seeded
// local search:
//   1. Greedy: round by round, fill each table from a shuffled order, taking for each seat the
//      candidate (among the next 64 in that order) who has met the table's occupants least.
//   2. Tabu search on the sum of squares (a convex cost, so it favours evenness, and it is at
//      its floor exactly when every count is floor(m / p) or ceil(m / p), m meetings over p
//      pairs — then the largest count and the spread are as small as they can be). A seat
//      (round, entrant) is in conflict when the entrant shares its table with someone met more
//      than ceil(m / p) times. Each step tries, for up to 16 conflicting seats, every swap with
//      an entrant at another table of that round, and makes the best swap that is not tabu
//      (moving an entrant back to the table it left a few steps ago), or any swap that beats
//      the best cost yet. After a long run without a new best, the search restarts from the
//      best with a few random swaps. The best schedule by (largest, spread, squares) is kept;
//      the search stops at the floor or after a fixed budget of work (about 3e7 pair-count
//      reads, a tenth of a second at worst; 64 entrants at tables of 4 for 10 rounds reach the
//      floor in about a millisecond). The budget counts work, not time, so the result does not
//      depend on the machine.
// This is the approach of Dotú and Van Hentenryck's tabu search for the social golfer problem;
// it finds resolvable designs where small ones exist (9 entrants at tables of 3 for 4 rounds,
// 16 at 4 for 5, 25 at 5 for 6, Kirkman's 15 at 3 for 7: everyone meets everyone exactly
// once). The hardest designs (Kirkman's 21 at 3 for 10, 32 at 4 for 8) are left a pair or a
// few short of perfect within the budget: the schedule is then even, not perfect.
//
// The random numbers come from a SplitMix64 generator and a hand-written shuffle, not
// <random>'s distributions, whose results differ between standard libraries: the same
// TableSpec gives the same schedule on every platform, so a stored spec reproduces its
// schedule.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ROUND_ROBIN_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ROUND_ROBIN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

// Bounds on the input (INVALID_ARGUMENT outside them), far above any real event: they keep
// the work and memory of a request from the internet small.
inline constexpr int kMaxRoundRobinEntrants = 1024;
inline constexpr int kMaxTableEntrants = 1024;
inline constexpr int kMaxTableSize = 8;
inline constexpr int kMaxTableRounds = 100;

// One round of the Berger table for `entrants` (2 .. kMaxRoundRobinEntrants), round 1-based
// (1 .. BergerRounds(entrants)): the boards, white first, the bye (odd entrants) last.
absl::StatusOr<std::vector<Board>> BergerRound(int entrants, int round);

// The rounds of one cycle: entrants - 1 for an even count, entrants for an odd one.
int BergerRounds(int entrants);

// Every round of the Berger table, rounds[r - 1] being round r.
absl::StatusOr<std::vector<std::vector<Board>>> BergerSchedule(int entrants);

enum class RoundRobinCycles : unsigned char {
  kSwapLastTwoOfFirstCycle,  // C.05 Annex 1's recommendation for a double round robin
  kAsPrinted,                // both cycles in the table's order
};

// Two cycles: the first as BergerSchedule (with its last two rounds exchanged by default), then
// every round of the table again in order with colours reversed (a bye stays a bye).
absl::StatusOr<std::vector<std::vector<Board>>> DoubleRoundRobin(
    int entrants, RoundRobinCycles order = RoundRobinCycles::kSwapLastTwoOfFirstCycle);

// How a round of `entrants` is seated at tables of min_size .. max_size seats.
struct TableLayout {
  std::vector<int> sizes;  // one per table, largest first
  int sitting_out = 0;     // entrants without a seat in each round
};

// INVALID_ARGUMENT unless 2 <= min_size <= max_size <= kMaxTableSize and
// min_size <= entrants <= kMaxTableEntrants.
absl::StatusOr<TableLayout> PlanTables(int entrants, int max_size, int min_size);
// PlanTables without its checks, for callers that made them (any number of entrants).
TableLayout LayTables(int entrants, int max_size, int min_size);

struct TableSpec {
  int entrants = 0;
  int table_size = 4;  // the most seats at a table
  // The fewest seats at a table; unset means table_size (full tables only).
  std::optional<int> min_table_size = std::nullopt;
  int rounds = 1;  // 1 .. kMaxTableRounds
  uint64_t seed = 0;
};

struct TableRound {
  // Entrant numbers (1-based), ascending within a table; tables largest first, then by their
  // lowest entrant. Who sits where at a table, and who starts, is the game's business.
  std::vector<std::vector<int>> tables;
  std::vector<int> sitting_out;  // ascending
};

// The schedule, rounds[r - 1] being round r; the same spec always gives the same schedule.
absl::StatusOr<std::vector<TableRound>> TableSchedule(const TableSpec& spec);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ROUND_ROBIN_H_
