// Arenas: a time window in which every entrant who is not playing is paired again as soon as
// there is someone to play, scored for winning often and winning in a row — the format of
// Lichess's arenas, for casual nights and ladders.
//
// Scoring. A win scores 2, a draw 1, a loss 0. An entrant that has won its last two games is on
// a streak: its next win scores 4 and its next draw 2; anything but a win ends the streak (a
// draw on a streak still scores its 2). So a sheet of W W W W D L W reads 2 2 4 4 2 0 2.
//
// Pairing. The idle entrants, ordered by points, then rating (the leaders meet each other, and
// at the start, when nobody has points, the strongest meet the strongest), are paired greedily
// in that order: each with the nearest one below it that it did not just play — neither's last
// game was against the other — looking at most `kArenaPairingWindow` places down. One left over,
// or two who just played each other, wait for the next finisher. Greedy is linear, so a pass
// with thousands of idle entrants is cheap, and with one forbidden opponent per entrant it
// leaves at most the few that no pairing could seat.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_H_

#include <utility>
#include <vector>

namespace boneyard::tournament {

enum class ArenaOutcome { kWin, kDraw, kLoss };

// An entrant's scores from its decided games, first first.
struct ArenaScore {
  int points = 0;
  int games = 0;
  int wins = 0;
  int streak = 0;          // wins in a row now; 2 or more: on a streak
  std::vector<int> sheet;  // the points of each game
  bool on_streak() const { return streak >= 2; }
};

ArenaScore ScoreArena(const std::vector<ArenaOutcome>& games);

// An entrant waiting to be paired.
struct ArenaCandidate {
  int id = 0;  // any distinct positive number
  int points = 0;
  double rating = 0;
  int last_opponent = 0;  // the id of its last game's opponent; 0: none
};

inline constexpr int kArenaPairingWindow = 8;

// The pairs, the higher ranked first in each, in ranking order. Ties in points and rating are
// ordered by id, so the answer is a function of the candidates alone.
std::vector<std::pair<int, int>> PairArena(std::vector<ArenaCandidate> idle);

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_ARENA_H_
