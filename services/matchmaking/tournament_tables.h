// Round robins at tables: a ROUND_ROBIN with `table_size`, for the games more than two play
// alone (Muggins 3-4, Moon, Mexican Train, Chickenfoot). Each round seats every entrant at a
// table of min_table_size .. table_size seats by the tournament library's schedule
// (round_robin.h TableSchedule: every pair shares a table as evenly as the table size allows,
// sit-outs in turn when no layout seats everyone), seeded by the event's id so that it is a
// pure function of the stored facts like every other decision (tournament_plan.h).
//
// Seats: the schedule lists a table's entrants ascending; round r seats them rotated by r - 1,
// so who sits first moves round to round. A withdrawn entrant's seat is left out; a table the
// game cannot seat without it sits the round out.
//
// Places and points: a table's places are its game's ranks (1 best, ties shared); a seat that
// forfeited (a no-show on the clock) is placed last with no points. Points are
// `placement_points` by place (ties share the mean of the places they span; a smaller table
// uses the first places'), or by default one for each entrant at the table placed below and a
// half for each tied — a two-sided game's 1, 1/2, 0. Sitting out scores nothing. The standings
// rank by points, then as asked by the tables won (WIN, a shared first included) and the
// entrant's own scores in its games (GP, in the game's order: the lower first where the lower
// score wins, as Mexican Train's pips).
//
// Partner rotation (PARTNER_ROTATION) is tables too: individuals in a partnership game, each
// round's tables and teams from the library's schedule (partner_rotation.h), a table's seats
// alternating between its two teams (the engine's partners sit opposite), every seat needed (a
// table with a withdrawn player sits the round out). Teammates share their game's rank, so
// with the default placement points — 1 for each of the team's places, 0 for the others' —
// each player scores their team's result: 1, 1/2 for a tie, 0.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TABLES_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TABLES_H_

#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"

namespace boneyard::matchmaking {

inline bool AtTables(const v1::Tournament& settings) { return settings.table_size() > 0; }
inline bool IsPartnerRotation(const v1::Tournament& settings) {
  return settings.format() == v1::Tournament::PARTNER_ROTATION;
}
// A duplicate solitaire (Castle Rock): every entrant alone, all dealt the same each round.
inline bool IsSolitaire(const v1::Tournament& settings) { return settings.table_size() == 1; }

// The players per team of the event's game under its rules (2 to 4), or INVALID_ARGUMENT
// naming `tournament.game` when it is not played by two teams of equal size, partners
// alternating round the table.
absl::StatusOr<int> PartnerTeamSize(const v1::Tournament& settings);

// PARTNER_ROTATION's settings as stored: table_size the game's seats, placement points the
// team's result. Unchanged for any other format, or when the game is not a partnership game.
void NormalizePartnerRotation(v1::Tournament& settings);

// OK, or INVALID_ARGUMENT naming the field: tables are for a ROUND_ROBIN or SWISS of single
// players (not double), in sizes the game seats under the event's rules, with as many placement
// points as seats and only the WIN and GP tie-breaks; PARTNER_ROTATION's for individuals in a
// partnership game, table_size unset or the game's seats.
absl::Status CheckTableSettings(const v1::Tournament& settings);

// The rounds of the event for `entrants`: the setting, else enough for everyone to be able to
// meet everyone once (PARTNER_ROTATION: the design's length, partner_rotation.h).
int TableRounds(const v1::Tournament& settings, int entrants);

// Round `round`'s tables (pairings with `table`, a sit-out as a one-entrant BYE) and their
// games, into `changes`.
absl::Status PairTables(const TournamentData& data, const v1::Tournament& settings, int round,
                        absl::Time now, TournamentChanges& changes);

// Where a table stands.
struct TableState {
  v1::Outcome outcome = v1::OUTCOME_UNSPECIFIED;  // PLACED or BYE once decided
  std::vector<int> places;                        // by seat, once decided
  std::vector<double> points;                     // by seat, once decided
  std::vector<double> game_points;                // by seat: own scores in the table's games
  bool decided() const { return outcome != v1::OUTCOME_UNSPECIFIED; }
};
// One table's state from its own game (not for duplicate events: EvaluateRoundTables).
TableState EvaluateTable(const v1::Tournament& settings, const PairingRow& pairing,
                         const std::vector<const GameRow*>& games);
// Every table of round `round` by board; a duplicate round's from all its games together
// (tournament_duplicate.h).
std::map<int, TableState> EvaluateRoundTables(const TournamentData& data,
                                              const v1::Tournament& settings, int round);

// Each seat's place in a game's result (1 best, ties shared); a seat that forfeited is placed
// last, `seats`.
std::vector<int> PlacesOf(const v1::MatchResult& result, int seats);
// Whether the event's game ranks the lower score first (Mexican Train, Chickenfoot: pips).
bool LowerScoreWins(const v1::Tournament& settings);

// How often each pair of entrants partnered (seats of the same parity at a table) and opposed,
// over every round paired.
v1::PairCounts PairCountsOf(const TournamentData& data);

// The standings through `through` rounds (PARTNER_ROTATION: with the pair counts).
v1::Standings TableStandings(const TournamentData& data, const v1::Tournament& settings,
                             int through);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_TABLES_H_
