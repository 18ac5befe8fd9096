// Muggins' bots. "greedy": call "muggins" whenever it is offered; otherwise make the play
// that scores the most at once (claiming it under claim_scoring); ties shed the heaviest
// tile, then the lowest action code. It draws or passes only when that is all it can do.
// It reads only its MugginsView and the legal actions, and uses no randomness.
#ifndef BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_
#define BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_

#include <cstdint>
#include <span>

#include "engine/bots/bot.h"
#include "engine/games/muggins/muggins.h"

namespace boneyard::muggins {

// Points `action` scores for the seat at once, read from the view's layout: the count's
// score for a play (nothing for the unclaimed form under claim_scoring), the stolen points
// for "muggins", nothing for draw and pass.
int ImmediatePoints(const MugginsView& view, Action action);

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::muggins

#endif  // BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_
