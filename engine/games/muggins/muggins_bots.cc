#include "engine/games/muggins/muggins_bots.h"

#include <memory>

#include "engine/bots/search_bot.h"

namespace boneyard::muggins {
namespace {

// MugginsSearchLevel's iterations, levels 1-5 (muggins_bots.h says why).
constexpr int kSearchIterations[kSearchLevels] = {50, 150, 400, 1'000, 6'000};

}  // namespace

int ImmediatePoints(const MugginsView& view, Action action) {
  return ImmediatePoints(view.layout, view.claim_scoring, view.unclaimed_points, action);
}

int ImmediatePoints(const Layout& layout, bool claim_scoring, int unclaimed, Action action) {
  if (action == kMuggins) return unclaimed;
  if (!IsPlay(action)) return 0;
  if (claim_scoring && !ActionClaims(action)) return 0;  // an unclaimed score is lost
  const int tile = ActionTile(action);
  const End end = ActionEnd(action);
  const int count = end == kOpening ? TilePips(tile) : layout.CountAfter(tile, end);
  return CountScore(count);
}

SearchLevel MugginsSearchLevel(int level) {
  return SearchLevelWithIterations(level, kSearchIterations);
}

Action ScoringPlayout(const State& world, std::span<const Action> legal, Rng& rng) {
  const Action random = legal[rng.Below(static_cast<uint32_t>(legal.size()))];
  if (legal.size() == 1 || rng.Below(4) == 0) return random;
  const auto& s = static_cast<const MugginsState&>(world);
  const bool claim = static_cast<const MugginsGame&>(s.game()).claim_scoring();
  Action best = random;
  int best_points = 0;
  for (Action a : legal) {
    const int points = ImmediatePoints(s.layout(), claim, s.unclaimed_points(), a);
    if (points > best_points) {
      best = a;
      best_points = points;
    }
  }
  return best;
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
  // The shared search bot at Muggins' own levels (MugginsSearchLevel).
  RegisterSearchLevels(registry, "muggins", kSearchIterations, ScoringPlayout);
}

}  // namespace boneyard::muggins
