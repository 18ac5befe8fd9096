// Head-to-head pairing: given players on a line (their skill) and each player's window, the
// pairs to form.
//
// The objective, as Lichess pools state it: as many pairs as possible, and among those the
// least total distance. Two players may meet when their distance is within both windows.
// Pairs are taken between neighbours in skill order, by dynamic programming over that order:
// best[i] (the first i players) is best[i-1] (player i-1 waits) or best[i-2] plus the pair
// (i-2, i-1). With equal windows this is optimal over all matchings (a crossing or nested pair
// can always be uncrossed into neighbours, no longer and no less allowed); with unequal windows
// a longer pair may sometimes be needed to seat a player whose window is narrow, and the
// result can fall short of the optimum there (tests/services/matchmaking/pairing_test.cc
// measures how often against brute force). O(n log n) for the sort, O(n) after.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHING_PAIRING_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHING_PAIRING_H_

#include <span>
#include <utility>
#include <vector>

namespace boneyard::matchmaking {

struct PairingPoint {
  double skill = 0;
  double window = 0;
};

// The pairs, as indices into `points`, each (lower skill, higher skill).
std::vector<std::pair<int, int>> PairNeighbours(std::span<const PairingPoint> points);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHING_PAIRING_H_
