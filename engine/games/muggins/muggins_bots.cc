#include "engine/games/muggins/muggins_bots.h"

#include <memory>

namespace boneyard::muggins {

int ImmediatePoints(const MugginsView& view, Action action) {
  if (action == kMuggins) return view.unclaimed_points;
  if (!IsPlay(action)) return 0;
  if (view.claim_scoring && !ActionClaims(action)) return 0;  // an unclaimed score is lost
  const int tile = ActionTile(action);
  const End end = ActionEnd(action);
  const int count = end == kOpening ? TilePips(tile) : view.layout.CountAfter(tile, end);
  return CountScore(count);
}

Action GreedyBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& mv = static_cast<const MugginsView&>(view);
  for (Action a : legal) {
    // Stealing costs nothing: the turn goes on afterwards.
    if (a == kMuggins) return a;
  }
  Action best = legal[0];
  int best_points = -1;
  int best_pips = -1;
  for (Action a : legal) {  // ascending, so ties keep the lowest code
    if (!IsPlay(a)) continue;
    const int points = ImmediatePoints(mv, a);
    const int pips = TilePips(ActionTile(a));
    if (points > best_points || (points == best_points && pips > best_pips)) {
      best = a;
      best_points = points;
      best_pips = pips;
    }
  }
  return best;
}

void RegisterBots(BotRegistry& registry) {
  registry.Register("muggins", "greedy", [](const Game&, uint64_t seed, int) {
    return std::make_unique<GreedyBot>(seed);
  });
}

}  // namespace boneyard::muggins
