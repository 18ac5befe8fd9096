#include "engine/games/tricks/trick_bots.h"

#include <bit>

namespace boneyard::tricks {

Hand HandOf(const View& view) {
  Hand h = 0;
  for (const Tile& t : view.hand) h |= Bit(IdOf(t));
  return h;
}

int SuitLength(Hand hand, int pip) {
  int n = 0;
  for (Hand h = hand; h; h &= h - 1) n += TileHas(std::countr_zero(h), pip) ? 1 : 0;
  return n;
}

Hand PlayedTiles(std::span<const TrickView> done, const TrickView& open) {
  Hand played = 0;
  for (const TrickView& t : done) {
    for (const Tile& tile : t.tiles) played |= Bit(IdOf(tile));
  }
  for (const Tile& tile : open.tiles) played |= Bit(IdOf(tile));
  return played;
}

Trick ToTrick(const TrickView& view) {
  Trick trick;
  for (size_t i = 0; i < view.tiles.size(); ++i) trick.Add(view.seats[i], IdOf(view.tiles[i]));
  return trick;
}

bool IsSureWinner(int id, Hand unknown, const TrickRules& rules) {
  const int led = rules.LedSuit(id);
  const int power = rules.Power(id, led);
  if (!rules.IsTrump(id) && (unknown & rules.trumps()) != 0) return false;
  for (Hand u = unknown; u; u &= u - 1) {
    if (rules.Power(std::countr_zero(u), led) > power) return false;
  }
  return true;
}

}  // namespace boneyard::tricks
