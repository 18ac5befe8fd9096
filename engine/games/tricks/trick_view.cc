#include "engine/games/tricks/trick_view.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace boneyard::tricks {

TrickView MakeTrickView(const Trick& trick) {
  TrickView v;
  v.leader = trick.empty() ? kNobody : trick.leader();
  for (int i = 0; i < trick.size; ++i) {
    v.seats.push_back(trick.seats[i]);
    v.tiles.push_back(TileOf(trick.tiles[i]));
  }
  return v;
}

nlohmann::json TrickJson(const TrickView& t) {
  nlohmann::json tiles = nlohmann::json::array();
  for (const Tile& tile : t.tiles) tiles.push_back(tile.ToString());
  nlohmann::json j = {
      {"leader", t.leader != kNobody ? nlohmann::json(t.leader) : nlohmann::json(nullptr)},
      {"seats", t.seats},
      {"tiles", tiles}};
  if (t.winner != kNobody) {
    j["winner"] = t.winner;
    if (t.points.has_value()) j["points"] = *t.points;
  }
  return j;
}

std::vector<int> VoidSuits(uint8_t voids) {
  std::vector<int> suits;
  for (int x = 0; x < kNumSuits; ++x) {
    if ((voids >> x) & 1) suits.push_back(x);
  }
  return suits;
}

void NoteVoid(const TrickRules& rules, const Trick& trick, int tile, uint8_t& voids,
              Hand& excluded) {
  if (trick.empty()) return;
  const int led = rules.LedSuit(trick.tiles[0]);
  if (rules.Follows(tile, led)) return;
  voids |= static_cast<uint8_t>(1u << led);
  excluded |= rules.SuitTiles(led);
}

absl::Status FollowSuitError(const TrickRules& rules, const Trick& trick, Hand hand) {
  const int led = rules.LedSuit(trick.tiles[0]);
  return absl::FailedPreconditionError(absl::StrCat(
      "you must follow suit: ", TileName(trick.tiles[0]), " led ",
      led == rules.trump_suit() ? std::string("trumps") : SuitName(led), " and you hold ",
      HandText(hand & rules.SuitTiles(led))));
}

}  // namespace boneyard::tricks
