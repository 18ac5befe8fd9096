// MaxWeightMatching against brute force: every matching of small random graphs enumerated, the
// best weight compared (the matching itself may differ where several are optimal).
#include "services/matchmaking/tournament/weighted_matching.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace boneyard::tournament {
namespace {

using W2 = LexWeight<2>;

template <typename W>
W WeightOf(const std::vector<int>& mate, const std::vector<WeightedEdge<W>>& edges) {
  W total{};
  for (const auto& e : edges) {
    if (mate[e.u] == e.v) total = total + e.weight;
  }
  return total;
}

template <typename W>
void BestByBruteForce(int v, int n, std::vector<int>& mate,
                      const std::vector<std::vector<int>>& edge_at,
                      const std::vector<WeightedEdge<W>>& edges, W so_far, W& best) {
  while (v < n && mate[v] != -1) ++v;
  if (v >= n) {
    best = std::max(best, so_far);
    return;
  }
  mate[v] = v;  // v stays single
  BestByBruteForce(v + 1, n, mate, edge_at, edges, so_far, best);
  mate[v] = -1;
  for (int u = v + 1; u < n; ++u) {
    const int k = edge_at[v][u];
    if (k < 0 || mate[u] != -1) continue;
    mate[v] = u;
    mate[u] = v;
    BestByBruteForce(v + 1, n, mate, edge_at, edges, so_far + edges[k].weight, best);
    mate[v] = mate[u] = -1;
  }
}

// A matching is valid when mates are symmetric and every matched pair is an edge.
template <typename W>
void ExpectValid(const std::vector<int>& mate, const std::vector<std::vector<int>>& edge_at) {
  for (size_t v = 0; v < mate.size(); ++v) {
    if (mate[v] == -1) continue;
    ASSERT_EQ(mate[mate[v]], static_cast<int>(v));
    ASSERT_GE(edge_at[v][mate[v]], 0) << "matched a non-edge";
  }
}

TEST(WeightedMatchingTest, MatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 9);
    const int density = 20 + static_cast<int>(rng() % 80);
    std::vector<WeightedEdge<W2>> edges;
    std::vector<std::vector<int>> edge_at(n, std::vector<int>(n, -1));
    for (int u = 0; u < n; ++u) {
      for (int v = u + 1; v < n; ++v) {
        if (static_cast<int>(rng() % 100) >= density) continue;
        W2 w;
        w.level[0] = static_cast<int64_t>(rng() % 3);
        w.level[1] = static_cast<int64_t>(rng() % 21) - 5;  // negatives in a lower level
        edge_at[u][v] = edge_at[v][u] = static_cast<int>(edges.size());
        edges.push_back({u, v, w});
      }
    }
    const std::vector<int> mate = MaxWeightMatching(n, edges);
    ExpectValid<W2>(mate, edge_at);
    std::vector<int> scratch(n, -1);
    W2 best{};
    BestByBruteForce<W2>(0, n, scratch, edge_at, edges, W2{}, best);
    ASSERT_EQ(WeightOf(mate, edges), best) << "trial " << trial << " n " << n;
  }
}

TEST(WeightedMatchingTest, CardinalityFirstLevelGivesAPerfectMatchingWhenOneExists) {
  // A path 0-1-2-3: the heavy middle edge alone weighs more in the second level, but the
  // first level counts edges, so the two outer edges win.
  std::vector<WeightedEdge<W2>> edges = {
      {0, 1, W2{{1, 0}}}, {1, 2, W2{{1, 100}}}, {2, 3, W2{{1, 0}}}};
  const auto mate = MaxWeightMatching(4, edges);
  EXPECT_EQ(mate[0], 1);
  EXPECT_EQ(mate[2], 3);
}

TEST(WeightedMatchingTest, LargeOddCyclesFormNestedBlossoms) {
  // Odd cycles sharing vertices force blossoms inside blossoms; compare with brute force.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 12;
    std::vector<WeightedEdge<W2>> edges;
    std::vector<std::vector<int>> edge_at(n, std::vector<int>(n, -1));
    auto add = [&](int u, int v, int64_t a, int64_t b) {
      if (u == v || edge_at[u][v] >= 0) return;
      edge_at[u][v] = edge_at[v][u] = static_cast<int>(edges.size());
      edges.push_back({u, v, W2{{a, b}}});
    };
    for (int v = 0; v < n; ++v) add(v, (v + 1) % n, 1, static_cast<int64_t>(rng() % 7));
    for (int v = 0; v < n; v += 3) add(v, (v + 5) % n, 1, static_cast<int64_t>(rng() % 9));
    for (int extra = 0; extra < 6; ++extra) {
      add(static_cast<int>(rng() % n), static_cast<int>(rng() % n), 1,
          static_cast<int64_t>(rng() % 11));
    }
    const auto mate = MaxWeightMatching(n, edges);
    ExpectValid<W2>(mate, edge_at);
    std::vector<int> scratch(n, -1);
    W2 best{};
    BestByBruteForce<W2>(0, n, scratch, edge_at, edges, W2{}, best);
    ASSERT_EQ(WeightOf(mate, edges), best) << "trial " << trial;
  }
}

}  // namespace
}  // namespace boneyard::tournament
