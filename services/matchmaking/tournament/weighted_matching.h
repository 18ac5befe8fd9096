// Maximum-weight matching in a general graph: Edmonds' blossom algorithm in its primal-dual
// form (Galil, "Efficient algorithms for finding maximum matching in graphs", 1986), O(n^3).
//
// Why it is here: a Swiss pairing is a lexicographic optimisation — complete the round first,
// then as many pairs in the bracket as possible, then the least float scores, then colours, and
// so on — and every such criterion is a sum over the pairs chosen. Give each edge a vector of
// those per-pair contributions, compare vectors lexicographically, and the maximum-weight
// matching is the pairing the rules ask for. Weights are therefore a template parameter: any
// totally ordered abelian group works (the algorithm only adds, subtracts, compares and halves
// slacks that are provably even), and `LexWeight` is the one the pairing engines use.
//
// Vertices are 0..n-1; the graph is given as edges. Edges absent from the graph can never be
// matched. The result is the mate of each vertex, or -1.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_H_

#include <array>
#include <cstdint>
#include <vector>

namespace boneyard::tournament {

// A weight compared level by level: level 0 matters most. Levels are plain integers so sums
// of n edge weights never overflow for the sizes pairing uses (each level stays below 2^40).
template <int kLevels>
struct LexWeight {
  std::array<int64_t, kLevels> level{};

  friend LexWeight operator+(LexWeight a, const LexWeight& b) {
    for (int i = 0; i < kLevels; ++i) a.level[i] += b.level[i];
    return a;
  }
  friend LexWeight operator-(LexWeight a, const LexWeight& b) {
    for (int i = 0; i < kLevels; ++i) a.level[i] -= b.level[i];
    return a;
  }
  friend bool operator<(const LexWeight& a, const LexWeight& b) { return a.level < b.level; }
  friend bool operator==(const LexWeight& a, const LexWeight& b) { return a.level == b.level; }
  // Only ever applied to slacks of edges between two outer vertices, which are even in every
  // level when weights are integers (the duals of outer vertices share a parity per level).
  LexWeight Half() const {
    LexWeight h = *this;
    for (auto& x : h.level) x /= 2;
    return h;
  }
  bool IsZero() const {
    for (auto x : level) {
      if (x != 0) return false;
    }
    return true;
  }
  bool IsNegative() const { return *this < LexWeight{}; }
};

template <typename W>
struct WeightedEdge {
  int u = 0;
  int v = 0;
  W weight{};
};

// Returns mate[v] for each vertex of a maximum-weight matching (not necessarily of maximum
// cardinality: put cardinality in the weight's first level to ask for that).
template <typename W>
std::vector<int> MaxWeightMatching(int vertices, const std::vector<WeightedEdge<W>>& edges);

}  // namespace boneyard::tournament

#include "services/matchmaking/tournament/weighted_matching_impl.h"  // IWYU pragma: export

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_H_
