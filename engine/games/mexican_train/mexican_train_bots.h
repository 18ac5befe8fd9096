// Mexican Train's bots. "greedy" scores each legal action from its view alone and plays the
// best (ties: the lowest action code); it uses no randomness, so it is deterministic:
//   * shed high pips early: a play is worth its tile's pips;
//   * keep a playable chain for your own train: the longest line of hand tiles that follows
//     your train's end is reserved; its next tile on your own train earns a bonus, a reserved
//     tile played elsewhere a penalty, an unreserved tile on the Mexican or a marked train a
//     bonus;
//   * satisfy doubles you can, and avoid open doubles that block yourself: a double you can
//     follow from hand earns a bonus, one you cannot a penalty;
//   * on a first-turn string it goes on while it can ("stop" scores nothing); draw and pass
//     only when they are all it may do.
#ifndef BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_
#define BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_

#include <cstdint>
#include <span>

#include "engine/bots/bot.h"
#include "engine/core/rng.h"
#include "engine/games/mexican_train/mexican_train.h"

namespace boneyard::mexican_train {

// The tiles of the longest line from `pip` made of tiles in `hand` (a bounded search).
TileMask LongestChain(const TileMask& hand, int pip);

// How much the greedy bot likes `action` in `view` (higher is better).
int GreedyScore(const MexicanTrainView& view, Action action);

// Level 5's playouts (search_bot.h PlayoutPolicy): trains::HeavyPlayout, a tile weighing its
// pips.
Action HeavyPlayout(const State& world, std::span<const Action> legal, Rng& rng);

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::mexican_train

#endif  // BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_
