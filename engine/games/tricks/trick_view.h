// What the trick games' views show of tricks and of the suits a seat has shown void in,
// shared by Forty-Two (and Eighty-Four) and Moon so that their layouts describe tricks alike,
// and the two rule-checks every trick game makes when a tile is played: the void it shows,
// and why a tile that does not follow suit is illegal.
#ifndef BONEYARD_ENGINE_GAMES_TRICKS_TRICK_VIEW_H_
#define BONEYARD_ENGINE_GAMES_TRICKS_TRICK_VIEW_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "engine/core/tile.h"
#include "engine/core/view.h"
#include "engine/games/tricks/tricks.h"
#include "nlohmann/json.hpp"

namespace boneyard::tricks {

struct TrickView {
  int leader = kNobody;
  std::vector<int> seats;   // who played each tile, in order
  std::vector<Tile> tiles;  // in the order played
  int winner = kNobody;     // kNobody while the trick is open
  // What the won trick scores, in games that count points per trick (Forty-Two: 1 + counts).
  std::optional<int> points;
};

// The trick's plays; winner and points are the caller's.
TrickView MakeTrickView(const Trick& trick);
// {"leader", "seats", "tiles"}, and once won "winner" (and "points" when the game has them).
nlohmann::json TrickJson(const TrickView& trick);

// The suits (0..kNumSuits-1) set in a mask of voids, ascending.
std::vector<int> VoidSuits(uint8_t voids);

// `tile` is played to `trick`: when it does not follow the suit led, its seat has shown it
// holds none of that suit, which `voids` (a suit bitmask) and `excluded` (the suit's tiles)
// record for views and determinization.
void NoteVoid(const TrickRules& rules, const Trick& trick, int tile, uint8_t& voids,
              Hand& excluded);

// FAILED_PRECONDITION for a tile that does not follow the suit led while `hand` could:
// "you must follow suit: 6-4 led sixes and you hold 6-6 6-1". `trick` must not be empty.
absl::Status FollowSuitError(const TrickRules& rules, const Trick& trick, Hand hand);

}  // namespace boneyard::tricks

#endif  // BONEYARD_ENGINE_GAMES_TRICKS_TRICK_VIEW_H_
