// Castle Rock's bots. "greedy": make the removal that leaves the most removals available
// afterwards (ties: remove more tiles, then the leftmost).
#ifndef BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_
#define BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_

#include "engine/bots/bot.h"

namespace boneyard::castle_rock {

// The search bot's iterations for levels 1-5 (search_bot.h SearchLevelWithIterations). The
// solitaire's few real choices saturate uniform playouts early: 1,000 iterations did not beat
// 400 on 4,000 deals, nor 20,000 beat 6,000 on 400, so levels 1-4 sit below 400 and level 5 is
// 6,000; each level beats the one below, narrowly at the top (docs/bots.md).
inline constexpr int kSearchIterations[5] = {10, 40, 150, 400, 6'000};

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::castle_rock

#endif  // BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_BOTS_H_
