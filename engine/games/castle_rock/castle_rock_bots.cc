#include "engine/games/castle_rock/castle_rock_bots.h"

#include <memory>
#include <vector>

#include "engine/bots/search_bot.h"
#include "engine/games/castle_rock/castle_rock.h"

namespace boneyard::castle_rock {
namespace {

int CountRemovals(const std::vector<Tile>& row) {
  auto share = [](const Tile& a, const Tile& b) {
    return a.Has(b.hi) || a.Has(b.lo);
  };
  int n = 0;
  for (size_t i = 0; i + 2 < row.size(); ++i) {
    if (share(row[i], row[i + 2])) {
      ++n;
      for (int pip : {row[i].hi, row[i].lo}) {
        if (row[i + 1].Has(pip) && row[i + 2].Has(pip)) {
          ++n;
          break;
        }
      }
    }
  }
  return n;
}

std::vector<Tile> After(const std::vector<Tile>& row, Action a) {
  std::vector<Tile> out = row;
  if (a >= kTripleBase) {
    const auto i = static_cast<ptrdiff_t>(a - kTripleBase);
    out.erase(out.begin() + i, out.begin() + i + 3);
  } else {
    out.erase(out.begin() + static_cast<ptrdiff_t>(a));
  }
  return out;
}

}  // namespace

Action GreedyBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& row = static_cast<const CastleRockView&>(view).row;
  Action best = legal[0];
  int best_score = -1;
  for (Action a : legal) {
    if (a == kDraw) continue;
    const int removed = a >= kTripleBase ? 3 : 1;
    // Future removals first; the tiles removed now break ties.
    const int score = CountRemovals(After(row, a)) * 4 + removed;
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

void RegisterBots(BotRegistry& registry) {
  registry.Register("castle_rock", "greedy", [](const Game&, uint64_t seed, int) {
    return std::make_unique<GreedyBot>(seed);
  });
  RegisterSearchLevels(registry, "castle_rock", kSearchIterations);
}

}  // namespace boneyard::castle_rock
