// A tournament's decisions as pure functions of its stored facts (TournamentData): the
// settings' checks, the start (initial ranking), each round's pairings by the event's format
// (the tournament/ library), each game's CreateMatchRequest, a pairing's outcome from its
// games, when a round is over, the standings and the TRF-16 record. No gRPC, no SQL: the
// director and the RPCs run these under the store's row lock (PgTournamentStore::Change), and
// the same facts always give the same answers — so a pairing is reproducible from the store.
//
// Sides and seats. A pairing's "white" is the side that sits first in its first game; a
// series alternates (knockout.h). For one-player entrants, the side that sits first takes seat
// 0. For teams, the game's own teams (engine: Game::teams()) are the sides: the side that sits
// first takes the team holding seat 0, its players in seat order.
//
// Outcomes. A game's outcome compares its sides' ranks in the MatchResult (a tie is a draw); a
// side with a forfeited seat (the clock's FORFEIT policy: a no-show) forfeits. A pairing's
// outcome is the operator's override when there is one, the bye's, else its games': one game
// for Swiss and round robin, a best-of-N series for a knockout tie (a drawn game replayed).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PLAN_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PLAN_H_

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::matchmaking {

inline constexpr int kMaxTournamentEntrants = 1024;
inline constexpr int kMaxSwissRounds = 99;
inline constexpr int kMaxBestOf = 9;
inline constexpr int kDefaultFastAbove = 1000;
inline constexpr int kMaxTournamentDisplayNameChars = 80;
// Tie-breaks an event may list: there are seven kinds, some with a parameter (BH/C1).
inline constexpr int kMaxTieBreaks = 16;

// INVALID_ARGUMENT "tournament.{field}: {why}": how every settings check names its field.
absl::Status InvalidSetting(absl::string_view field, absl::string_view why);

// OK, or INVALID_ARGUMENT naming the field of `tournament.` at fault. Output-only fields are
// ignored.
absl::Status CheckTournamentSettings(const v1::Tournament& tournament);
// The settings as stored: output-only fields cleared, defaults filled in.
v1::Tournament NormalizedSettings(const v1::Tournament& tournament);

// The stored settings; INTERNAL when they do not parse.
absl::StatusOr<v1::Tournament> SettingsOf(const TournamentRow& row);
// The resource: the settings with the row's output-only fields.
v1::Tournament TournamentOf(const TournamentRow& row, const v1::Tournament& settings);
v1::Entrant EntrantOf(const std::string& tournament_id, const EntrantRow& row);

// The seats of each side: [0] the side that sits first, [1] the other, each ascending.
absl::StatusOr<std::array<std::vector<int>, 2>> SideSeats(const v1::Tournament& settings);

// Where a pairing stands.
struct PairingState {
  v1::Outcome outcome = v1::OUTCOME_UNSPECIFIED;  // unspecified while undecided
  int white_wins = 0;
  int black_wins = 0;
  // A series that needs another game, and whether white sits first in it.
  bool needs_game = false;
  bool next_white_first = true;
  bool decided() const { return outcome != v1::OUTCOME_UNSPECIFIED; }
};

// A finished game's outcome from white's point of view; unspecified while it has no result.
v1::Outcome GameOutcome(const GameRow& game, const std::array<std::vector<int>, 2>& sides);
PairingState EvaluatePairing(const v1::Tournament& settings, const PairingRow& pairing,
                             const std::vector<const GameRow*>& games,
                             const std::array<std::vector<int>, 2>& sides);

// The StartTournament change: the initial ranking (pairing numbers by rating, then
// registration), the rounds, and round 1. FAILED_PRECONDITION when it is not in registration
// or has fewer than two entrants.
absl::StatusOr<TournamentChanges> PlanStart(const TournamentData& data, absl::Time now);
// The director's change: a series' next game; once every pairing of the current round is
// decided, the next round (unless rounds are manual and no advance was asked for) or the end.
// Empty when there is nothing to do.
absl::StatusOr<TournamentChanges> PlanStep(const TournamentData& data, absl::Time now);
// When after `now` PlanStep may decide something although no stored fact has changed (an
// arena's close); nullopt when only a change can make it decide anything.
std::optional<absl::Time> NextDecisionTime(const TournamentData& data, absl::Time now);
// AdvanceTournament's change: FAILED_PRECONDITION while the current round is undecided.
absl::StatusOr<TournamentChanges> PlanAdvance(const TournamentData& data, absl::Time now);
// WithdrawPlayer's change for `number`; `actor` for the audit log.
absl::StatusOr<TournamentChanges> PlanWithdraw(const TournamentData& data, int number,
                                               const std::string& actor);
// SetResult's change, audited.
absl::StatusOr<TournamentChanges> PlanSetResult(const TournamentData& data, int round, int board,
                                                v1::Outcome outcome, const std::string& actor,
                                                const std::string& reason);

// The round as clients see it: each game's seat tokens only for `viewer`'s seats (nullopt:
// nobody's).
v1::Round RoundOf(const TournamentData& data, int round, const std::optional<std::string>& viewer);
// Standings through `through_round` (0: every decided result).
absl::StatusOr<v1::Standings> StandingsOf(const TournamentData& data, int through_round);
// The two-sided record of the event (TPNs are pairing numbers), through its decided results.
absl::StatusOr<tournament::EventRecord> EventRecordOf(const TournamentData& data);

// The record ExportTrf writes: EventRecordOf's, with the byes asked for rounds to come ('H',
// 'Z') and each withdrawn entrant's rounds from its withdrawal to the event's last marked 'Z'
// — a TRF has no withdrawal field, and that is how pair-next and an import
// (tournament_import.h) read one.
absl::StatusOr<tournament::EventRecord> TrfRecordOf(const TournamentData& data);

// Reading the facts.
// Every pairing's games, by (round, board), each's first first: one pass over the event's games.
std::map<std::pair<int, int>, std::vector<const GameRow*>> GamesByPairing(
    const TournamentData& data);
// A withdrawn entrant's game is not played: the override outcome that forfeits it (both, when
// both withdrew by `round`); 0 when both play.
int ForfeitFor(const EntrantRow& white, const EntrantRow& black, int round);
// A pairing's games, first first.
std::vector<const GameRow*> GamesOf(const TournamentData& data, int round, int board);
// Round `round`'s games by board, each board's first first: one pass over the event's games,
// for whatever reads a whole round (GamesOf per pairing would scan them once per table).
std::map<int, std::vector<const GameRow*>> RoundGames(const TournamentData& data, int round);
// The entrant with registration number `number` (`data.entrants` is by number, as the store
// reads it); null when there is none.
const EntrantRow* EntrantByNumber(const TournamentData& data, int number);
// The entrants in the event (pairing number set), by pairing number.
std::vector<const EntrantRow*> Ranked(const TournamentData& data);
// Whether the entrant has withdrawn from `round` on.
bool WithdrawnBy(const EntrantRow& e, int round);

// A new game of pairing `p`: the event's game, rules, clock and queue, `seats` seats filled by
// `fill` (FillSeats per entrant), and its request id.
GameRow NewGame(const TournamentData& data, const v1::Tournament& settings, const PairingRow& p,
                int number, bool white_first, int seats,
                const std::function<void(v1::CreateMatchRequest&)>& fill, absl::Time now);
// A new game of two-sided pairing `p`: white's entrant in the side that sits first when
// `white_first`, black's in the other.
GameRow NewTwoSidedGame(const TournamentData& data, const v1::Tournament& settings,
                        const std::array<std::vector<int>, 2>& sides, const PairingRow& p,
                        int number, bool white_first, absl::Time now);
// The initial ranking: by rating, then registration. At the start everyone gets a pairing
// number; when late entrants join a Swiss before `round` (or an arena), everyone is numbered
// anew (FIDE allows it before a round; the order of those already in is unchanged) and the late
// ones are first paired in `round`.
void NumberEntrants(const TournamentData& data, int round, TournamentChanges& changes);
// Whether an entrant has joined since the pairing numbers were given.
bool HasLateEntrants(const TournamentData& data);
// Seats `entrant` in `seats`: its players in turn, or its built-in bot in each.
void FillSeats(const EntrantRow& entrant, const std::vector<int>& seats,
               v1::CreateMatchRequest& request);

// The request id of a game: derived from where it is, so it names one match for ever.
std::string GameRequestId(const std::string& tournament_id, int round, int board, int game);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_PLAN_H_
