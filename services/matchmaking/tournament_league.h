// Leagues (v1.Tournament.LEAGUE): a season of scheduled rounds. At the start the entrants are
// ranked and cut into divisions; each division's whole round robin (Berger tables, once or home
// and away) is written at once, every round with its date, so the fixtures are known from the
// first day. The director opens each round on its date — its games are created then, a
// withdrawn entrant's game forfeited instead — and closes it at its deadline: a game still
// without a result counts as lost by both (BOTH_FORFEITED, audited "deadline"; the operator may
// set the true result later with SetResult). The season finishes when its last round is over.
// Like every other decision these are pure functions of the stored facts and the time
// (tournament_plan.h).
//
// Divisions. The initial ranking is by rating — or, for a season that follows another, the
// previous season's entrants first in the order NextSeasonEntrants made (where they finished,
// with promotion and relegation), then the newcomers by rating. It is cut into ceil(n /
// division_size) divisions as even as possible (the upper ones the larger; never fewer than
// two entrants: when the sizes cannot all be kept, the divisions are fewer and larger).
// Standings are per division (StandingRow.division): two-sided points (1, 1/2, 0; a bye 0)
// and the event's tie-breaks, ranked within the division.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LEAGUE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LEAGUE_H_

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"

namespace boneyard::matchmaking {

inline bool IsLeague(const v1::Tournament& settings) {
  return settings.format() == v1::Tournament::LEAGUE;
}

inline constexpr absl::Duration kMinLeagueInterval = absl::Minutes(1);
inline constexpr absl::Duration kMaxLeagueInterval = absl::Hours(24 * 366);
inline constexpr int kMaxDivisionSize = 64;

// OK, or INVALID_ARGUMENT naming the field: a league needs its round interval; its deadline
// fits in the interval; divisions of 2-64; promotion at most half a division; two-sided, paired
// by the service (no rounds, tables, duplicate, manual rounds). `league` is for leagues only.
absl::Status CheckLeagueSettings(const v1::Tournament& settings);

// The divisions' sizes for `entrants`, top first.
std::vector<int> DivisionSizes(int entrants, int division_size);
// The division (1 the top) of pairing number `pairing_number`.
int DivisionOf(const std::vector<int>& sizes, int pairing_number);

// When round `round` closes: its opening (RoundRow.start_time) plus the deadline.
absl::Time RoundDeadline(const v1::Tournament& settings, absl::Time opens);

// The StartTournament change of a league: the ranking, the divisions' fixtures for every round
// with its date, and the rounds due at `now` opened.
absl::StatusOr<TournamentChanges> PlanLeagueStart(const TournamentData& data,
                                                  const v1::Tournament& settings, absl::Time now);
// The director's step: rounds past their deadline closed, rounds due opened, the end once every
// round has opened and every pairing is decided. Empty when there is nothing to do.
absl::StatusOr<TournamentChanges> PlanLeagueStep(const TournamentData& data,
                                                 const v1::Tournament& settings, absl::Time now);
// The next opening or deadline after `now`; nullopt when none is left.
std::optional<absl::Time> LeagueNextTime(const TournamentData& data, const v1::Tournament& settings,
                                         absl::Time now);

// Two-sided standings (best first, over every division) regrouped by division, each row's
// division set and its rank made the rank within its division.
void GroupByDivision(const TournamentData& data, const v1::Tournament& settings,
                     v1::Standings& standings);

// The entrants of the season after `previous` (a finished league), in the order they are
// ranked for its divisions: each division's entrants by where they finished, the bottom
// `promotion` of each division and the top `promotion` of the one below it exchanged; those
// who withdrew left out. Numbered from 1, registered at `now`.
absl::StatusOr<std::vector<EntrantRow>> NextSeasonEntrants(const TournamentData& previous,
                                                           int promotion, absl::Time now);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LEAGUE_H_
