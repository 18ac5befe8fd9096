// Arenas (v1.Tournament.ARENA): a time window in which every idle entrant is paired again as
// soon as there is someone for it to play, scored by the tournament library's arena rules
// (tournament/arena.h: 2 a win, 1 a draw, doubled on a streak of two wins). Like every other
// decision these are pure functions of the stored facts (tournament_plan.h), so a pass repeated
// after a crash pairs nobody twice.
//
// Each director pass that pairs anyone writes a round (a "wave"): its pairings, one game each,
// are those the idle entrants got at that moment. An entrant is idle when none of its pairings
// is undecided, it has not withdrawn, and it has not forfeited a game (a no-show on the clock
// has left the arena: pairing it again would hand its opponents wins for waiting). Late
// entrants (an arena takes entries while it runs) are numbered with the others by rating when
// they are first seen. White is whichever of the two has had white less often.
//
// The window closes `duration` after the start: nobody is paired after it, the games being
// played finish and count, and the event finishes with the last of them — so the director must
// look at an arena again at its close even when nothing in it changed (ArenaCloseTime).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_SERVICE_H_

#include <map>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"
#include "services/matchmaking/tournament/arena.h"

namespace boneyard::matchmaking {

inline bool IsArena(const v1::Tournament& settings) {
  return settings.format() == v1::Tournament::ARENA;
}

inline constexpr absl::Duration kMinArenaDuration = absl::Minutes(1);
inline constexpr absl::Duration kMaxArenaDuration = absl::Hours(24);

// OK, or INVALID_ARGUMENT naming the field: an arena needs its duration and is two-sided, one
// game a pairing, paired by the service (no rounds, tables, duplicate, series, manual rounds or
// tie-breaks of its own); `duration` is for arenas only.
absl::Status CheckArenaSettings(const v1::Tournament& settings);

// When a running arena stops pairing: its start plus its duration; nullopt for other events
// and before the start.
std::optional<absl::Time> ArenaCloseTime(const TournamentRow& row, const v1::Tournament& settings);

// Where an entrant stands in an arena.
struct ArenaEntrant {
  tournament::ArenaScore score;
  bool playing = false;   // a pairing of its is undecided
  bool left = false;      // it forfeited a game
  int last_opponent = 0;  // entrant number
  int whites = 0;         // games it sat first in
};

// Every entrant's standing (by entrant number), from the pairings of rounds 1 to `through`
// (0: all) in round order.
std::map<int, ArenaEntrant> EvaluateArena(const TournamentData& data,
                                          const v1::Tournament& settings, int through = 0);

// The director's step for a running arena at `now`: the idle entrants' pairings as a new round
// while the window is open; once it has closed and no game is being played, the end. Empty when
// there is nothing to do.
absl::StatusOr<TournamentChanges> PlanArenaStep(const TournamentData& data,
                                                const v1::Tournament& settings, absl::Time now);

// The arena's leaderboard through round `through` (tournament.proto Standings: PTS, GAMES, WINS,
// STREAK and each entrant's sheet), every entrant in it, ranked by points, then fewer games.
v1::Standings ArenaStandings(const TournamentData& data, const v1::Tournament& settings,
                             int through);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_SERVICE_H_
