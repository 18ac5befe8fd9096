#include "services/matchmaking/matching/pairing.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace boneyard::matchmaking {
namespace {

// The best of a prefix: more pairs first, then less total distance.
struct Score {
  int pairs = 0;
  double distance = 0;
  bool BetterThan(const Score& other) const {
    if (pairs != other.pairs) return pairs > other.pairs;
    return distance < other.distance;
  }
};

}  // namespace

std::vector<std::pair<int, int>> PairNeighbours(std::span<const PairingPoint> points) {
  const int n = static_cast<int>(points.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return points[a].skill < points[b].skill; });

  // best[i]: the first i players in `order`; paired[i]: whether best[i] pairs i-2 with i-1.
  std::vector<Score> best(n + 1);
  std::vector<char> paired(n + 1, 0);
  for (int i = 2; i <= n; ++i) {
    best[i] = best[i - 1];
    const PairingPoint& low = points[order[i - 2]];
    const PairingPoint& high = points[order[i - 1]];
    const double distance = high.skill - low.skill;
    if (distance <= std::min(low.window, high.window)) {
      const Score with{best[i - 2].pairs + 1, best[i - 2].distance + distance};
      if (with.BetterThan(best[i])) {
        best[i] = with;
        paired[i] = 1;
      }
    }
  }
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(best[n].pairs);
  for (int i = n; i >= 2;) {
    if (paired[i]) {
      pairs.emplace_back(order[i - 2], order[i - 1]);
      i -= 2;
    } else {
      --i;
    }
  }
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace boneyard::matchmaking
