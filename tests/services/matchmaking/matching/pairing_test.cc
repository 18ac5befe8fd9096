// Head-to-head pairing (services/matchmaking/matching/pairing.h), against brute force.
#include "services/matchmaking/matching/pairing.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

struct Best {
  int pairs = 0;
  double distance = 0;
};

bool Allowed(const std::vector<PairingPoint>& points, int a, int b) {
  return std::abs(points[a].skill - points[b].skill) <=
         std::min(points[a].window, points[b].window);
}

// Every matching, by recursion over the first unseated point.
void Search(const std::vector<PairingPoint>& points, std::vector<char>& seated, int pairs,
            double distance, Best& best) {
  if (pairs > best.pairs || (pairs == best.pairs && distance < best.distance - 1e-9)) {
    best = {pairs, distance};
  }
  const int n = static_cast<int>(points.size());
  int first = 0;
  while (first < n && seated[first]) ++first;
  if (first == n) return;
  seated[first] = 1;
  Search(points, seated, pairs, distance, best);  // `first` waits
  for (int other = first + 1; other < n; ++other) {
    if (seated[other] || !Allowed(points, first, other)) continue;
    seated[other] = 1;
    Search(points, seated, pairs + 1,
           distance + std::abs(points[first].skill - points[other].skill), best);
    seated[other] = 0;
  }
  seated[first] = 0;
}

Best BruteForce(const std::vector<PairingPoint>& points) {
  std::vector<char> seated(points.size(), 0);
  Best best;
  Search(points, seated, 0, 0, best);
  return best;
}

Best Score(const std::vector<PairingPoint>& points,
           const std::vector<std::pair<int, int>>& pairs) {
  Best score;
  std::vector<int> uses(points.size(), 0);
  for (const auto& [a, b] : pairs) {
    EXPECT_TRUE(Allowed(points, a, b)) << a << "-" << b;
    EXPECT_LE(points[a].skill, points[b].skill);
    ++uses[a];
    ++uses[b];
    ++score.pairs;
    score.distance += points[b].skill - points[a].skill;
  }
  for (int u : uses) EXPECT_LE(u, 1);
  return score;
}

TEST(PairNeighbours, PairsTheNearestAndLeavesTheOddOneOut) {
  const std::vector<PairingPoint> points = {
      {.skill = 31, .window = 5}, {.skill = 10, .window = 5}, {.skill = 30, .window = 5},
      {.skill = 11, .window = 5}, {.skill = 50, .window = 5}};
  EXPECT_THAT(PairNeighbours(points), ElementsAre(Pair(1, 3), Pair(2, 0)));
}

TEST(PairNeighbours, BothWindowsMustReach) {
  // 8 apart: the first would accept, the second (a new arrival) would not.
  EXPECT_TRUE(PairNeighbours(std::vector<PairingPoint>{{.skill = 10, .window = 20},
                                                       {.skill = 18, .window = 3}})
                  .empty());
  EXPECT_EQ(PairNeighbours(std::vector<PairingPoint>{{.skill = 10, .window = 20},
                                                     {.skill = 18, .window = 8}})
                .size(),
            1u);
}

TEST(PairNeighbours, MorePairsBeatShorterOnes) {
  // 1-2 is the shortest pair, but taking it leaves 0 and 3 alone; 0-1 and 2-3 seat everyone.
  const std::vector<PairingPoint> points = {{.skill = 0, .window = 4}, {.skill = 3, .window = 4},
                                            {.skill = 4, .window = 4}, {.skill = 7, .window = 4}};
  EXPECT_THAT(PairNeighbours(points), ElementsAre(Pair(0, 1), Pair(2, 3)));
}

// With one window for everybody (players who waited alike), the neighbours' pairing is optimal:
// as many pairs as any matching, and no more total distance.
TEST(PairNeighbours, IsOptimalWhenTheWindowsAreEqual) {
  std::mt19937 random(20261125);
  std::uniform_real_distribution<double> skill(0, 40);
  std::uniform_real_distribution<double> window(0.5, 10);
  for (int round = 0; round < 400; ++round) {
    const int n = 2 + round % 11;
    const double w = window(random);
    std::vector<PairingPoint> points(n);
    for (PairingPoint& p : points) p = {.skill = skill(random), .window = w};
    const Best expected = BruteForce(points);
    const Best actual = Score(points, PairNeighbours(points));
    ASSERT_EQ(actual.pairs, expected.pairs) << "round " << round;
    ASSERT_NEAR(actual.distance, expected.distance, 1e-9) << "round " << round;
  }
}

// With unequal windows it is always valid, and it is measured against the optimum: how many
// instances fall short (recorded, not asserted: docs/matchmaking.md quotes it).
TEST(PairNeighbours, IsValidAndNearOptimalWhenWindowsDiffer) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> skill(0, 40);
  std::uniform_real_distribution<double> window(0.5, 15);
  int short_of_pairs = 0;
  int rounds = 400;
  for (int round = 0; round < rounds; ++round) {
    const int n = 2 + round % 11;
    std::vector<PairingPoint> points(n);
    for (PairingPoint& p : points) p = {.skill = skill(random), .window = window(random)};
    const Best expected = BruteForce(points);
    const Best actual = Score(points, PairNeighbours(points));
    ASSERT_LE(actual.pairs, expected.pairs);
    short_of_pairs += actual.pairs < expected.pairs;
  }
  RecordProperty("instances_short_of_the_most_pairs", short_of_pairs);
  RecordProperty("instances", rounds);
  std::printf("neighbours' pairing short of the most pairs in %d of %d instances\n",
              short_of_pairs, rounds);
}

}  // namespace
}  // namespace boneyard::matchmaking
