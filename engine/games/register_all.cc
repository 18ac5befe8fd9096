// The one place that lists every game and its bots. Adding a game: copy the smallest game
// folder (castle_rock), rename, and add it here.
#include "engine/bots/bot.h"
#include "engine/bots/search_bot.h"
#include "engine/core/registry.h"
#include "engine/games/castle_rock/castle_rock.h"
#include "engine/games/castle_rock/castle_rock_bots.h"
#include "engine/games/chickenfoot/chickenfoot.h"
#include "engine/games/chickenfoot/chickenfoot_bots.h"
#include "engine/games/eighty_four/eighty_four.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_bots.h"
#include "engine/games/mexican_train/mexican_train.h"
#include "engine/games/mexican_train/mexican_train_bots.h"
#include "engine/games/moon/moon.h"
#include "engine/games/muggins/muggins.h"
#include "engine/games/muggins/muggins_bots.h"

namespace boneyard {
namespace {

void MustRegister(GameRegistry& registry, GameSpec spec) {
  if (absl::Status s = registry.Register(std::move(spec)); !s.ok()) {
    std::fprintf(stderr, "boneyard: %s\n", std::string(s.message()).c_str());
    std::abort();
  }
}

}  // namespace

void RegisterAllGames(GameRegistry& registry) {
  MustRegister(registry, castle_rock::Spec());
  MustRegister(registry, chickenfoot::Spec());
  MustRegister(registry, eighty_four::Spec());
  MustRegister(registry, forty_two::Spec());
  MustRegister(registry, mexican_train::Spec());
  MustRegister(registry, moon::Spec());
  MustRegister(registry, muggins::Spec());
}

void RegisterAllBots(BotRegistry& registry) {
  castle_rock::RegisterBots(registry);
  chickenfoot::RegisterBots(registry);
  eighty_four::RegisterBots(registry);
  forty_two::RegisterBots(registry);
  mexican_train::RegisterBots(registry);
  moon::RegisterBots(registry);
  muggins::RegisterBots(registry);
  // The search bot is the same for every game; a game that tunes its search (Forty-Two's and
  // Eighty-Four's bidding rule, Forty-Two's solving levels, Muggins' levels and playouts)
  // registers it itself, above.
  for (const std::string& game : DefaultRegistry().Names()) {
    if (registry.LevelsOf(game, "search") > 0) continue;
    registry.Register(
        game, "search",
        [](const Game&, uint64_t seed, int level) {
          return std::make_unique<SearchBot>(seed, SearchLevelFor(level));
        },
        kSearchLevels);
  }
}

}  // namespace boneyard
