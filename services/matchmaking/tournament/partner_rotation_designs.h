// The stored whist designs behind partner_rotation.h.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_

#include <span>

namespace boneyard::tournament {

// A whist design's base round, as tables a, b, c, d (partners a-c and b-d), and the group it is
// developed over: each round adds the round's element to every point of the base.
struct WhistDesign {
  std::span<const int> base;  // empty when none is stored
  // 0: Z_N (N = 4m + 1, point 0 sits out the base round) or Z_(N-1) with the fixed point N - 1
  // (N = 4m). p > 0: Z_p x Z_p (N = p * p), the point (a, b) numbered a * p + b; point 0 sits
  // out the base round.
  int square_of = 0;
  // 1-rotational (N = 4m + 1): the base is over Z_(N-1) with the fixed point N - 1 playing and
  // point 0 sitting out, developed N - 1 times; one more round, in which the fixed point sits
  // out, seats {x, x + m, x + 2m, x + 3m} for x < m (partners differ by 2m, which the base
  // leaves to it with one opponent pair at m and one at 2m).
  bool rotational = false;
};

WhistDesign StoredWhist(int players);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_
