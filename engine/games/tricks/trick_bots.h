// What the trick games' bots share: reading a view's tiles as ids, and the judgements of a
// play that do not depend on the game (is a tile a sure winner, how long is a suit).
#ifndef BONEYARD_ENGINE_GAMES_TRICKS_TRICK_BOTS_H_
#define BONEYARD_ENGINE_GAMES_TRICKS_TRICK_BOTS_H_

#include <span>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/view.h"
#include "engine/games/tricks/trick_view.h"
#include "engine/games/tricks/tricks.h"

namespace boneyard::tricks {

// The seat's own tiles.
Hand HandOf(const View& view);
// Tiles of a hand holding `pip` (a pip suit, trumps or not).
int SuitLength(Hand hand, int pip);
// Every tile played this hand: the finished tricks and the open one.
Hand PlayedTiles(std::span<const TrickView> done, const TrickView& open);
// The open trick as the rules' Trick, to ask who is winning it.
Trick ToTrick(const TrickView& view);
// No tile that others may hold (`unknown`) beats `id` when it is led.
bool IsSureWinner(int id, Hand unknown, const TrickRules& rules);

// The candidate no other beats under `better` (the first among equals).
template <typename Better>
Action Pick(std::span<const Action> candidates, Better better) {
  Action best = candidates[0];
  for (Action a : candidates) {
    if (better(a, best)) best = a;
  }
  return best;
}

}  // namespace boneyard::tricks

#endif  // BONEYARD_ENGINE_GAMES_TRICKS_TRICK_BOTS_H_
