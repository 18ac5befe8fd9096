// A Swiss round by the event's system: the FIDE Dutch system, or the fast mode once the field
// to pair is larger than the event allows the exact system (its pairing is cubic in the field;
// a 1,000-entrant round takes seconds, docs/tournaments.md).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament {

struct SwissSettings {
  // Fields of more entrants to pair than this are paired by the fast mode.
  int fast_above = 1000;
};

enum class SwissSystem { kDutch, kFast };

// The system `settings` choose for `round` of `event`: by the number of entrants to pair.
SwissSystem ChooseSwissSystem(const EventRecord& event, int round, const SwissSettings& settings);

// The boards of `round` by that system (dutch.h, fast_swiss.h).
absl::StatusOr<std::vector<Board>> PairSwissRound(const EventRecord& event, int round,
                                                  const SwissSettings& settings);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_H_
