// The fast Swiss mode, for fields too large for the Dutch system's exact optimisation (the
// event's `fast_above` setting; Lichess pairs its large Swiss events the same way, greedily).
//
// The algorithm. Entrants are ranked as the Dutch system ranks them (score, then TPN) and
// paired bracket by bracket from the top; a bracket is a scoregroup plus those who floated into
// it. Its upper half (S1) meets its lower half (S2) in order: S1's i-th entrant takes the
// first S2 entrant from position i on (wrapping round) that it has not played and whose colour
// preference fits; failing that, the first it has not played at all. Whoever is left floats to
// the next bracket. At the bottom, if the last entrants cannot all be paired without a rematch,
// the last boards are unpicked and re-paired with the leftovers by a maximum matching, taking
// twice as many boards each time until it succeeds, so the round never has a rematch when one
// can be avoided. The pairing-allocated bye goes to the lowest-ranked eligible entrant left.
// Colours follow the Dutch system's allocation (C.04.3 5.2).
//
// Cost: O(n * w) for a window w of candidates per entrant, plus the repair (rare, and over a
// few boards). It guarantees C1 (no rematch), C2 (bye eligibility) and completion; it does not
// optimise the Dutch quality criteria (floats, colour preferences) beyond the greedy choice.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FAST_SWISS_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FAST_SWISS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

// The boards of `round`, in board order, the bye last (black == 0). FAILED_PRECONDITION when
// no pairing without a rematch exists.
absl::StatusOr<std::vector<Board>> PairFastSwissRound(const EventRecord& event, int round);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FAST_SWISS_H_
