// Chickenfoot's bots. "greedy" scores each legal play from its view alone and plays the best
// (ties: the lowest action code); deterministic, no randomness:
//   * shed high pips early (a play is worth its pips) and the double-blank first of all (it
//     costs 50 if it stays in hand);
//   * keep playable ends: a bonus for each tile left in hand that matches the end the play
//     opens;
//   * satisfy doubles you can and avoid feet that block yourself: a double earns a bonus when
//     the hand holds tiles for its toes, a penalty when it holds none.
#ifndef BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_BOTS_H_
#define BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_BOTS_H_

#include <cstdint>
#include <span>

#include "engine/bots/bot.h"
#include "engine/core/rng.h"
#include "engine/games/chickenfoot/chickenfoot.h"

namespace boneyard::chickenfoot {

// How much the greedy bot likes `action` in `view` (higher is better).
int GreedyScore(const ChickenfootView& view, Action action);

// Level 5's playouts (search_bot.h PlayoutPolicy): trains::HeavyPlayout, a tile weighing its
// pips and the double-blank its penalty (double_blank_penalty), which is what either costs left
// in hand.
Action HeavyPlayout(const State& world, std::span<const Action> legal, Rng& rng);

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::chickenfoot

#endif  // BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_BOTS_H_
