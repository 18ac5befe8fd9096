#include "services/matchmaking/tournament/swiss.h"

#include <algorithm>

#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "services/matchmaking/tournament/swiss_state.h"

namespace boneyard::tournament {

SwissSystem ChooseSwissSystem(const EventRecord& event, int round, const SwissSettings& settings) {
  const int to_pair =
      static_cast<int>(std::count_if(event.entrants.begin(), event.entrants.end(),
                                     [round](const Entrant& e) { return ToBePaired(e, round); }));
  return to_pair > settings.fast_above ? SwissSystem::kFast : SwissSystem::kDutch;
}

absl::StatusOr<std::vector<Board>> PairSwissRound(const EventRecord& event, int round,
                                                  const SwissSettings& settings) {
  if (ChooseSwissSystem(event, round, settings) == SwissSystem::kFast) {
    return PairFastSwissRound(event, round);
  }
  return PairDutchRound(event, round);
}

}  // namespace boneyard::tournament
