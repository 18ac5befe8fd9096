#include "engine/games/chickenfoot/chickenfoot_bots.h"

#include <memory>
#include <span>

#include "engine/bots/search_bot.h"

namespace boneyard::chickenfoot {

int GreedyScore(const ChickenfootView& view, Action action) {
  if (!IsPlay(action)) return -1000;
  const int tile = ActionTile(action);
  const int node = ActionNode(action);
  if (node >= static_cast<int>(view.nodes.size())) return -1000;
  const int on_pip = view.nodes[node].pip;
  const int opens = trains::TileOther(tile, on_pip);
  int score = 10 * trains::TilePips(tile);
  if (tile == trains::DoubleId(0)) score += 500;
  int matching = 0;
  for (const Tile& t : view.hand) {
    if (t.BaseId() != tile && t.Has(opens)) ++matching;
  }
  if (trains::TileIsDouble(tile)) {
    score += matching >= 2 ? 30 : matching == 0 ? -30 : 0;
  } else {
    score += 5 * matching;
  }
  return score;
}

Action HeavyPlayout(const State& world, std::span<const Action> legal, Rng& rng) {
  const int blank = static_cast<const ChickenfootGame&>(world.game()).double_blank_penalty();
  return trains::HeavyPlayout(legal, rng, [blank](Action a) {
    if (!IsPlay(a)) return -1;
    const int tile = ActionTile(a);
    return tile == trains::DoubleId(0) ? blank : trains::TilePips(tile);
  });
}

Action GreedyBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& cv = static_cast<const ChickenfootView&>(view);
  return trains::BestAction(legal, [&](Action a) { return GreedyScore(cv, a); });
}

void RegisterBots(BotRegistry& registry) {
  registry.Register("chickenfoot", "greedy", [](const Game&, uint64_t seed, int) {
    return std::make_unique<GreedyBot>(seed);
  });
  // The shared search at the train games' levels, level 5 with HeavyPlayout.
  RegisterSearchLevels(registry, "chickenfoot", trains::kSearchIterations, HeavyPlayout);
}

}  // namespace boneyard::chickenfoot
