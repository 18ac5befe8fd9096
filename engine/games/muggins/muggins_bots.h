// Muggins' bots. "greedy": call "muggins" whenever it is offered; otherwise make the play
// that scores the most at once (claiming it under claim_scoring); ties shed the heaviest
// tile, then the lowest action code. It draws or passes only when that is all it can do.
// It reads only its MugginsView and the legal actions, and uses no randomness.
#ifndef BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_
#define BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_

#include <cstdint>
#include <span>

#include "engine/bots/bot.h"
#include "engine/bots/search_bot.h"
#include "engine/core/rng.h"
#include "engine/games/muggins/muggins.h"

namespace boneyard::muggins {

// Points `action` scores for the seat at once, read from the view's layout: the count's
// score for a play (nothing for the unclaimed form under claim_scoring), the stolen points
// for "muggins", nothing for draw and pass.
int ImmediatePoints(const MugginsView& view, Action action);
// The same from the table's layout (a view's or a state's), the rules' claim_scoring and the
// points left unclaimed by the last play.
int ImmediatePoints(const Layout& layout, bool claim_scoring, int unclaimed, Action action);

// Muggins' search levels. Uniform playouts saturate early here: from ~1,500 iterations up more
// search found nothing more (4 vs 3 and 5 vs 4 of the shared levels were not told apart on
// 60-100 deals), so levels 1-4 are spread below that point — 50 (drawn by visits), 150, 400
// and 1,000 iterations — and level 5 adds what more iterations could not: 6,000 playouts by
// ScoringPlayout. Each level beats the one below (docs/bots.md).
SearchLevel MugginsSearchLevel(int level);

// Level 5's playouts (search_bot.h PlayoutPolicy): three moves in four as the greedy bot would
// choose them (call muggins; else the play scoring the most, when one scores), the rest at
// random. Uniform playouts miss most of the fives any player takes.
Action ScoringPlayout(const State& world, std::span<const Action> legal, Rng& rng);

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::muggins

#endif  // BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_BOTS_H_
