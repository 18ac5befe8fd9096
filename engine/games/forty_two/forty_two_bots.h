// Forty-Two's bots. Both read only their FortyTwoView and the legal actions, and are
// deterministic for a seed.
//   * "heuristic": bids from hand strength (trump length, the top trumps held, doubles,
//     counts), names its strongest suit, leads trumps to draw them while the opponents may
//     hold some, cashes sure winners, wins counts, smears counts on a partner's safe trick,
//     never overtakes a partner's winning trick, and otherwise throws its least valuable tile.
//   * "random" (replaces the generic uniform bot for this game): bids sanely — the minimum
//     bid, half the time, with a "potential bidding hand" (3+ tiles of one suit, as the sheet
//     says), else passes — names its longest suit, and plays uniformly among legal tiles.
#ifndef BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_BOTS_H_
#define BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_BOTS_H_

#include <cstdint>
#include <span>
#include <string>

#include "engine/bots/bot.h"
#include "engine/games/forty_two/forty_two.h"

namespace boneyard::forty_two {

// The points `hand` may expect to take with `trump` as trumps at `table` (a rough estimate,
// 0..hand_points).
int EstimatePoints(tricks::Hand hand, int trump, const Table& table = kFortyTwoTable);
// The trump suit (pip) for which EstimatePoints is highest; ties go to the lower pip.
int BestTrump(tricks::Hand hand, const Table& table = kFortyTwoTable);

class HeuristicBot : public Bot {
 public:
  explicit HeuristicBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

class SaneRandomBot : public Bot {
 public:
  explicit SaneRandomBot(uint64_t seed) : rng_(seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;

 private:
  Rng rng_;
};

// Registers both bots for `game`: Forty-Two, or another game of the family (Eighty-Four).
void RegisterBots(BotRegistry& registry, const std::string& game = "forty_two");

}  // namespace boneyard::forty_two

#endif  // BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_BOTS_H_
