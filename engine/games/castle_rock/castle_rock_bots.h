// Castle Rock's bots. "greedy": make the removal that leaves the most removals available
// afterwards (ties: remove more tiles, then the leftmost).
#ifndef BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_
#define BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_

#include "engine/bots/bot.h"

namespace boneyard::castle_rock {

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::castle_rock

#endif  // BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_
