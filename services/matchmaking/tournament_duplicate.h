// Duplicate deals (Tournament.duplicate, issue 22): the bridge idea at the domino table. Every
// table of a round is dealt the same tiles and each entrant is compared with everyone else who
// held the same tiles, which takes the luck of the deal out of the standings.
//
// The deals. A round's seed is HMAC-SHA256("boneyard duplicate round {n}") under the event's
// secret (stored, never shown): a pure function of the stored facts, so a round re-paired after
// a crash is dealt the same, yet nobody can know it before the round ends, when Round.seed shows
// it — and one round's seed tells nothing of the next. The engine deals round r of a match from
// (seed, r) by seat (engine/core/game.h), so every match of the round with the same number of
// seats deals seat s the same tiles in every hand. The execution service keeps the round's
// matches one deal group (CreateMatchRequest.deal_group): no record or spectator view of any
// until all are over.
//
// One game a table. Each entrant plays the round's deal once: replaying it at the same table,
// seats rotated, would show a player the very hands it is about to hold (or, played at once,
// two hands of one deal), which no rule makes public. Instead the seats rotate over the rounds:
// each table is seated so that every entrant takes the seats it has held least (one seat, then
// another, each seat once before any twice where the tables allow), so nobody keeps the first
// seat's deal. A partnership table keeps its teams: one team takes the seats of one parity.
//
// The comparisons. A hand is a seat at the tables of one size (a table shrunk by a withdrawal
// was dealt other tiles). Its holders are ranked by their place at their table, then by their
// own score in the game's order (fewer pips first at Mexican Train), a seat that forfeited last;
// a solitaire (Castle Rock, every entrant alone: tables of one) by tiles left, then pips left;
// each holder's matchpoints are the holders it beat plus half those it tied, over the holders it
// is compared with (one alone: 1/2). An entrant's points for the round are its matchpoints, 0 to
// 1; its place at its table ranks those points. Nothing is decided before every game of the
// round is over: a table's points depend on all the others. A duplicate event starts with two
// full tables at least, or there is no one to compare with.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUPLICATE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUPLICATE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"
#include "services/matchmaking/tournament_tables.h"

namespace boneyard::matchmaking {

// The seed of round `round`'s deals under the event's secret.
uint64_t RoundDealSeed(const std::string& secret, int round);

// The deal group of round `round`'s matches, "tournaments/{id}/rounds/{round}".
std::string DealGroupName(const std::string& tournament_id, int round);

// How often each entrant held each seat before round `round`: table size -> entrant -> by seat.
using SeatCounts = std::map<int, std::map<int, std::vector<int>>>;
SeatCounts SeatCountsBefore(const TournamentData& data, int round);

// `seated` (a table's entrant numbers in the schedule's seat order; at a partnership game the
// teams alternate) reseated: each entrant in the seat it has held least at tables of this size
// (`held`), the schedule's seat where that ties.
std::vector<int> BalancedSeats(const SeatCounts& held, const v1::Tournament& settings,
                               const std::vector<int>& seated);

// A duplicate round evaluated: each table's state by board (undecided until every game of the
// round is over), and once it is, the comparisons of every hand.
struct DuplicateRound {
  std::map<int, TableState> tables;
  std::vector<v1::HandComparison> comparisons;
  bool finished = false;
};
DuplicateRound EvaluateDuplicateRound(const TournamentData& data, const v1::Tournament& settings,
                                      int round);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DUPLICATE_H_
