// Knockouts: single- and double-elimination brackets as graphs of ties, the state of a bracket
// computed from its stored results, and best-of-N series.
//
// Words. A tie is one pairing in the bracket (a node of the graph); it is decided by a series of
// matches (best of N), each match being one execution-service match to 100 or 150 points. An
// entrant is known by its seed, 1 the strongest. Each tie has two slots, upper and lower (the
// lines of a printed bracket); each slot is fed by a seed, or by the winner or the loser of an
// earlier tie.
//
// Seeding. The first round has `size` lines, the power of two at or above the entrant count,
// and pairs seed s with seed size + 1 - s, the higher seed on the upper line. Seeds past the
// entrant count are byes, so the byes go to the top seeds, all in round 1. The lines are ordered
// so that seeds 1 and 2 can meet only in the final, 1 to 4 only from the semi-finals, 1 to 8
// only from the quarter-finals, and so on: starting from [1, 2], a list of L seeds is doubled by
// putting each seed s next to its partner 2L + 1 - s — s first in the last doubling (round 1)
// and for seed 1, the partner first otherwise. For 16 lines that is the order NCAA regions print,
// 1 16 8 9 5 12 4 13 6 11 3 14 7 10 2 15; the plain rule (s always first) would give the mirror
// image of some sub-brackets, with the same entrants in each, so the same possible meetings.
//
// Single elimination: the winner of each tie goes on, the loser is out. Entrants knocked out in
// the same round share a place (the two semi-final losers are 3rd, the quarter-final losers
// 5th); there is no match for 3rd place.
//
// Double elimination: an entrant is out after two lost ties. The winners' bracket is the single
// elimination bracket; its losers drop into the losers' bracket. Losers' round 1 pairs the
// losers of neighbouring winners' round-1 ties; then, for k = 1, 2, ...: losers' round 2k pairs
// each survivor with a loser of winners' round k + 1 (the drop-in takes the lower slot), and
// losers' round 2k + 1 pairs the survivors among themselves. Without crossing, a drop-in would
// meet survivors from its own part of the bracket, often someone it has already beaten, so the
// drop-ins of winners' round k + 1 are permuted: with T ties in the round, survivor j meets the
// loser of winners' tie j XOR mask, the mask being T/2, T/4, 3T/4 for k = 1, 2, 3 and so on in
// turn: swapping halves, then quarters within halves, then outer with inner quarters, so that
// each drop-in meets survivors from the part of the bracket it has played least. Counting, for
// every losers' tie, whether its two slots can hold entrants who have already met, this rule
// gives the fewest such ties of any XOR crossing for brackets of 8 to 128 lines (found by
// exhaustive search), and none in losers' round 2 from 8 lines up.
//
// The grand final puts the winners' bracket winner (upper) against the losers' bracket winner
// (lower). With BracketReset::kIfLosersBracketWins (the default, and the usual rule, since
// otherwise the winners' bracket winner would be out after one loss) a win for the lower slot
// brings a second grand final tie, the bracket reset; with BracketReset::kNever the first grand
// final decides. Places: 1st and 2nd from the grand final; the others by the losers' round
// they went out in, those out in the same round sharing a place (for 8 entrants: 3rd, 4th, 5th=
// and 7th=).
//
// Byes. A bracket is built at full size, then every tie with an empty slot (a bye, or a loser
// from a tie that was never played) is removed and its one entrant passes straight on, as if it
// had won; byes can therefore also appear in the losers' bracket. Round numbers and positions
// remain those of the full-size bracket.
//
// Stored state. A bracket is a pure function of its KnockoutSpec, and its state a pure function
// of the bracket and the results (which tie, which seed won), in any order: store the spec and
// the results, and EvaluateBracket gives back the ties ready to play, who is in each, and the
// places. A result for a tie that is not ready is refused (FAILED_PRECONDITION), as is a winner
// who is not in the tie (INVALID_ARGUMENT).
//
// Series. A tie is best of N (N odd): first to (N + 1) / 2 match wins. A drawn match counts for
// neither side and is replayed. The higher seed (the lower number) plays first in match 1 and
// the sides alternate after that, drawn matches included. So that draws cannot prolong a series
// without end, a series still open after N + extra_matches matches (extra_matches is 2 by
// default) ends there: the side with more wins goes through, the higher seed if they are level
// — the usual tie-break where a bracket has to go on (the better seed earned that edge).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_KNOCKOUT_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_KNOCKOUT_H_

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace boneyard::tournament {

inline constexpr int kMaxKnockoutEntrants = 1024;

// The seeds on the round-1 lines, top to bottom, for `size` lines (a power of two, 2 .. 1024):
// entries above the entrant count are byes.
absl::StatusOr<std::vector<int>> SeedLines(int size);

enum class Elimination : unsigned char { kSingle, kDouble };

enum class BracketReset : unsigned char {
  kIfLosersBracketWins,  // a second grand final if the losers' bracket winner takes the first
  kNever,                // the first grand final decides
};

struct KnockoutSpec {
  int entrants = 0;  // 2 .. kMaxKnockoutEntrants
  Elimination elimination = Elimination::kSingle;
  BracketReset reset = BracketReset::kIfLosersBracketWins;  // double elimination only
};

enum class BracketPart : unsigned char { kWinners, kLosers, kGrandFinal, kGrandFinalReset };

// What fills a slot.
struct Feed {
  enum class Kind : unsigned char { kSeed, kWinnerOf, kLoserOf };
  Kind kind = Kind::kSeed;
  int value = 0;  // the seed, or the id of the earlier tie
  bool operator==(const Feed&) const = default;
};

struct Tie {
  int id = 0;  // its index in Bracket::ties
  BracketPart part = BracketPart::kWinners;
  int round = 1;              // within its part, 1-based (1 for the grand final ties)
  int position = 0;           // 0-based, top to bottom, within the round of the full-size bracket
  std::array<Feed, 2> slots;  // [0] upper, [1] lower
  // When the loser goes out here, the order of its exit: later exits place higher. 0 when the
  // loser goes on (the winners' bracket of a double elimination).
  int stage = 0;
};

struct Bracket {
  KnockoutSpec spec;
  int size = 0;           // round-1 lines
  std::vector<Tie> ties;  // every tie comes after those that feed it
};

// INVALID_ARGUMENT for an entrant count outside 2 .. kMaxKnockoutEntrants.
absl::StatusOr<Bracket> MakeBracket(const KnockoutSpec& spec);

// The decided tie `tie` was won by the entrant seeded `winner`.
struct TieResult {
  int tie = 0;
  int winner = 0;
};

enum class TieStatus : unsigned char {
  kWaiting,  // a feeding tie is undecided
  kReady,    // both entrants known, no result yet
  kDecided,
  kNotNeeded,  // the bracket reset, when the winners' bracket winner took the grand final
};

struct TieState {
  TieStatus status = TieStatus::kWaiting;
  std::array<int, 2> entrants = {0, 0};  // seeds by slot; 0 while not yet known
  int winner = 0;                        // 0 until decided
};

struct Placing {
  int entrant = 0;  // seed
  int place = 0;    // shared by those who went out together
};

struct BracketState {
  std::vector<TieState> ties;     // by tie id
  std::vector<int> ready;         // the ids of the ready ties, ascending
  std::vector<Placing> placings;  // the entrants whose place is settled, by place then seed
  std::optional<int> champion;
  bool finished() const { return champion.has_value(); }
};

absl::StatusOr<BracketState> EvaluateBracket(const Bracket& bracket,
                                             std::span<const TieResult> results);

// --- Series ---------------------------------------------------------------------------------

enum class SeriesSide : unsigned char { kHigherSeed, kLowerSeed };

enum class MatchOutcome : unsigned char { kHigherSeedWon, kLowerSeedWon, kDrawn };

struct SeriesRules {
  int best_of = 1;        // odd, 1 .. 99
  int extra_matches = 2;  // replays allowed for draws beyond best_of, 0 .. 99
};

struct SeriesState {
  int higher_seed_wins = 0;
  int lower_seed_wins = 0;
  int draws = 0;
  std::optional<SeriesSide> winner;      // set once decided
  bool decided_by_limit = false;         // decided by the match limit, not by a majority
  std::optional<SeriesSide> next_first;  // who plays first in the next match; unset if decided
  bool decided() const { return winner.has_value(); }
};

// INVALID_ARGUMENT for rules out of range or outcomes after the series was decided.
absl::StatusOr<SeriesState> EvaluateSeries(const SeriesRules& rules,
                                           std::span<const MatchOutcome> outcomes);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_KNOCKOUT_H_
