#include "engine/games/mexican_train/mexican_train_bots.h"

#include <memory>
#include <span>

#include "engine/bots/search_bot.h"

namespace boneyard::mexican_train {
namespace {

using trains::TileHas;
using trains::TileIsDouble;
using trains::TileOther;
using trains::TilePips;
using trains::TilesWithPip;

struct ChainSearch {
  int budget = 4000;
  int best_len = 0;
  TileMask best;

  void Run(const TileMask& hand, int pip, TileMask used, int len) {
    if (len > best_len) {
      best_len = len;
      best = used;
    }
    if (--budget <= 0) return;
    (hand & TilesWithPip(pip)).ForEach([&](int id) {
      if (used.Test(id) || budget <= 0) return;
      TileMask next = used;
      next.Set(id);
      Run(hand, TileOther(id, pip), next, len + 1);
    });
  }
};

TileMask HandMask(const View& view) {
  TileMask m;
  for (const Tile& t : view.hand) m.Set(t.BaseId());
  return m;
}

const TrainView* TrainOf(const MexicanTrainView& view, int train) {
  const int owner = train == kMexican ? kNobody : train;
  for (const TrainView& t : view.trains) {
    if (t.owner == owner) return &t;
  }
  return nullptr;
}

}  // namespace

TileMask LongestChain(const TileMask& hand, int pip) {
  ChainSearch search;
  search.Run(hand, pip, TileMask(), 0);
  return search.best;
}

int GreedyScore(const MexicanTrainView& view, Action action) {
  if (!IsPlay(action)) return action == kStop ? 0 : -1000;
  const int tile = ActionTile(action);
  const int train = ActionTrain(action);
  const TileMask hand = HandMask(view);
  const TrainView* own = TrainOf(view, view.seat);
  const TrainView* target = TrainOf(view, train);
  if (own == nullptr || target == nullptr) return 0;
  const TileMask chain = LongestChain(hand, own->end_pip);
  int score = 10 * TilePips(tile) + 100;
  const bool on_own = train == view.seat;
  if (chain.Test(tile)) {
    score += on_own ? 30 : -40;
  } else if (!on_own) {
    score += 25;
  }
  if (on_own && own->marker) score += 15;
  if (TileIsDouble(tile)) {
    TileMask rest = hand;
    rest.Reset(tile);
    const bool can_follow = !(rest & TilesWithPip(target->end_pip)).Empty();
    score += can_follow ? 40 : -60;
  }
  if (target->open_double) score += 20;  // closing a double frees every train
  return score;
}

Action HeavyPlayout(const State&, std::span<const Action> legal, Rng& rng) {
  return trains::HeavyPlayout(legal, rng,
                              [](Action a) { return IsPlay(a) ? TilePips(ActionTile(a)) : -1; });
}

Action GreedyBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& mv = static_cast<const MexicanTrainView&>(view);
  return trains::BestAction(legal, [&](Action a) { return GreedyScore(mv, a); });
}

void RegisterBots(BotRegistry& registry) {
  registry.Register("mexican_train", "greedy", [](const Game&, uint64_t seed, int) {
    return std::make_unique<GreedyBot>(seed);
  });
  // The shared search at the train games' levels, level 5 with HeavyPlayout.
  RegisterSearchLevels(registry, "mexican_train", trains::kSearchIterations, HeavyPlayout);
}

}  // namespace boneyard::mexican_train
