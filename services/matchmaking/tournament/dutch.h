// The FIDE (Dutch) Swiss system: the pairing of one round, as the handbook's C.04.3 (the text
// applied from 1 February 2026) defines it.
//
// The rules, in brief. Entrants are ranked by score, then TPN. Brackets are paired from the
// top scoregroup down; a bracket is a scoregroup plus the entrants who floated down into it
// (moved-down players, MDPs). Each bracket's pairing is the first candidate, in the order the
// rules generate candidates (MDPs first, S1 against S2 by transpositions, then exchanges
// between S1 and S2), that best satisfies, in priority order:
//   C1 no rematch; C2 no second pairing-allocated bye (PAB); C3 non-topscorers with the same
//   absolute colour preference do not meet (absolute criteria);
//   C4 the rest of the round can still be paired; C5 the PAB goes to the lowest score possible;
//   C6 fewest downfloaters; C7 the least scores floated down; C8 the next bracket keeps the
//   best C1-C7; C9 the PAB assignee has the fewest unplayed games; C10/C11 topscorers keep
//   colour differences within 2 and no colour three times running; C12 fewest colour
//   preferences unmet; C13 fewest strong preferences unmet; C14-C17 fewest repeated floats
//   (downfloats in the previous round, upfloats of MDPs' opponents, then two rounds before);
//   C18-C21 the least scores in those repeated floats.
// Colours follow 5.2 (swiss_state.h: AllocateColours).
//
// How it is computed. Every criterion from C4 to C21 is a sum over the pairs chosen, so a
// bracket's best candidate is a maximum-weight matching over the bracket and every entrant
// below it (weighted_matching.h), each edge weighing a vector of those criteria in priority
// order; entrants below take part so that C4 (completion) and C8 (the next bracket) are judged
// on the real rest of the round. Among equally good candidates the rules' generation order
// decides; that order is imposed by further, lower-priority levels and by fixing decisions in
// turn: which MDPs are paired and against whom (highest first, lowest resident index first),
// then the remainder's exchange (fewest players exchanged, the smallest difference of the
// sums of their bracket sequence numbers, the highest number moved from S1 to S2, the lowest
// moved from S2 to S1), then its transposition (S1's first entrant gets the lowest S2 index it
// can, then the second, ...). A bracket therefore costs a few matchings of O(n^3) each, each
// first solved on a window of the bracket and the next scoregroup (BracketPairer::Match). The
// weights are built by `CriteriaWeigher` in dutch.cc; docs/tournaments.md has the details and
// how the pairings were checked against another implementation.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUTCH_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUTCH_H_

#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

// The boards of `round` (1-based) in board order (C.04.2 3.6), the PAB last (black == 0).
// FAILED_PRECONDITION when no pairing satisfies the absolute criteria.
absl::StatusOr<std::vector<Board>> PairDutchRound(const EventRecord& event, int round);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUTCH_H_
