// The stored cyclic whist designs behind partner_rotation.h.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_

#include <span>

namespace boneyard::tournament {

// The base round of the cyclic whist design for `players`, or empty when none is stored.
std::span<const int> WhistBase(int players);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PARTNER_ROTATION_DESIGNS_H_
