// Partner rotation: individual entry to the partnership games (Forty-Two and team Muggins, two
// teams of 2; Eighty-Four, two teams of 3 or 4). Each round seats the players at tables in two
// teams, so that over the event everyone partners everyone, and opposes everyone, as evenly as
// possible; each player scores their team's result.
//
// The schedule uses a perfect design where one exists, and a search elsewhere:
//   * Whist designs (teams of 2, N = 4m or 4m + 1 players): every pair partners exactly once
//     and opposes exactly twice, in N - 1 rounds (N = 4m, nobody sits out) or N rounds
//     (N = 4m + 1, one player sits out each round, everyone once). They are cyclic: a base round
//     of m tables over Z_N (player 0 sitting out), or over Z_(N-1) plus a fixed player, shifted
//     by 1 each round; a table (a, b, c, d) has partners a-c and b-d, so the base is perfect
//     exactly when the partner differences cover every non-zero residue once and the opponent
//     differences twice. The bases are stored for every such N <= 61 but 57
//     (partner_rotation_designs.cc), found by a seeded annealing or tabu search or, for the primes
//     4m + 1 and for 9 and 49 (GF(p^2), developed over Z_p x Z_p: Wh(9) has no cyclic design),
//     built from the fourth roots of unity; the tests check them pair by pair.
//   * Teams of 2 with N = 4m + 3 players (7, 11, 15, ...): the whist design for N + 1 with its
//     fixed point left empty; the three who would have sat with it sit out. Every pair partners
//     at most once and opposes at most twice, and over each cycle of N rounds every player sits
//     out exactly three times (with the fixed point: once as its partner, twice as its
//     opponent) — evenly, though not always spread as the search's rotation spreads them.
//   * Eighty-Four with 8 players: the seven ways to split AG(3, 2)'s points by a plane and its
//     complement. Players are the vectors of F_2^3; in round r (1..7) player i is on team
//     popcount(i & r) mod 2. Two players are together in exactly the 3 rounds whose functional
//     vanishes on their difference: every pair partners 3 times and opposes 4 times.
//   * Eighty-Four with 6 players: the 10 splits into teams of 3 (each pair partners 4 times,
//     opposes 6) when the rounds are a multiple of 10. No shorter schedule is balanced — the
//     2-(6,3,2) design is not closed under complements — so other lengths are searched.
//   * Everyone else: tables of 2 x team_size seats, as many as the players fill; the rest sit out
//     in a seeded rotation (nobody a second time before everyone once). A seeded tabu search
//     then swaps players within rounds to minimise, in this order, the most times a pair
//     partners, the most times a pair opposes, and 4 x (sum of squares of partner counts) +
//     (sum of squares of opponent counts); it stops at the perfect floor or after a fixed
//     budget of work (so the result never depends on the machine).
// Rounds beyond a design's length repeat it from its first round.
//
// A design's players are relabelled by a seeded permutation, so that events with different
// seeds do not all start with players 1 and 2 as partners; the same spec always gives the same
// schedule (SplitMix64 and a hand-written shuffle, as round_robin.h).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace boneyard::tournament {

inline constexpr int kMaxPartnerRotationPlayers = 256;
inline constexpr int kMaxPartnerRotationRounds = 100;
inline constexpr int kMaxPartnerTeamSize = 4;

struct PartnerRotationSpec {
  int players = 0;    // 2 x team_size .. kMaxPartnerRotationPlayers
  int team_size = 2;  // 2 (Forty-Two, team Muggins), 3 or 4 (Eighty-Four)
  int rounds = 0;     // 1 .. kMaxPartnerRotationRounds; 0 means DefaultPartnerRounds
  uint64_t seed = 0;
};

// Player numbers are 1-based. Seat a table's teams alternately round it (team_a[0], team_b[0],
// team_a[1], ...): partners alternate in every partnership game the engine plays.
struct PartnerTable {
  std::vector<int> team_a;  // ascending
  std::vector<int> team_b;  // ascending
};

struct PartnerRound {
  std::vector<PartnerTable> tables;  // by their lowest player
  std::vector<int> sitting_out;      // ascending
};

enum class PartnerDesign : unsigned char {
  kWhist,         // teams of 2, N = 4m or 4m + 1: partners once, opponents twice
  kWhistLessOne,  // teams of 2, N = 4m + 3: at most once and twice; 3 sit-outs each a cycle
  kAffine,        // Eighty-Four, 8 players: partners 3 times, opponents 4 times in 7 rounds
  kAllSplits,     // Eighty-Four, 6 players: all 10 splits
  kSearched,      // the tabu search's best
};

struct PartnerSchedule {
  std::vector<PartnerRound> rounds;  // rounds[r - 1] is round r
  PartnerDesign design = PartnerDesign::kSearched;
};

// A design's length where one applies (whist N - 1 or N, N for 4m + 3, affine 7, all splits
// 10); otherwise
// enough rounds for everyone to partner everyone once: ceil((N - 1) / (team_size - 1)).
int DefaultPartnerRounds(int players, int team_size);

// INVALID_ARGUMENT naming the field for a team size, player count or round count out of range.
absl::StatusOr<PartnerSchedule> PartnerRotationSchedule(const PartnerRotationSpec& spec);

// How often each pair of players partnered and opposed over some rounds.
class PairCounts {
 public:
  explicit PairCounts(int players);
  void Add(const PartnerRound& round);
  int players() const { return players_; }
  int partners(int a, int b) const { return partners_[Index(a, b)]; }    // 1-based, a != b
  int opponents(int a, int b) const { return opponents_[Index(a, b)]; }  // 1-based, a != b
  int sat_out(int a) const { return sat_out_[a - 1]; }

 private:
  size_t Index(int a, int b) const { return static_cast<size_t>(a - 1) * players_ + (b - 1); }
  int players_;
  std::vector<int> partners_;
  std::vector<int> opponents_;
  std::vector<int> sat_out_;
};

PairCounts CountPairs(int players, std::span<const PartnerRound> rounds);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_H_
