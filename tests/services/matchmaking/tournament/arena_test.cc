// Arenas (services/matchmaking/tournament/arena.h): the scoring of a sheet (wins, draws and the
// streak that doubles them) and the pairing of idle entrants (by points, then rating, never
// against the opponent just played, one left over when nothing else works).
#include "services/matchmaking/tournament/arena.h"

#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr ArenaOutcome W = ArenaOutcome::kWin;
constexpr ArenaOutcome D = ArenaOutcome::kDraw;
constexpr ArenaOutcome L = ArenaOutcome::kLoss;

TEST(ArenaScoreTest, AWinScoresTwoADrawOneALossNothing) {
  const ArenaScore s = ScoreArena({W, L, D, L});
  EXPECT_THAT(s.sheet, ElementsAre(2, 0, 1, 0));
  EXPECT_EQ(s.points, 3);
  EXPECT_EQ(s.games, 4);
  EXPECT_EQ(s.wins, 1);
  EXPECT_EQ(s.streak, 0);
}

TEST(ArenaScoreTest, AfterTwoWinsInARowWinsAndDrawsCountDoubleUntilAGameIsNotWon) {
  // The sheet of the header's example: the third and fourth wins 4, the draw on the streak 2,
  // and after it the streak has to be built again.
  const ArenaScore s = ScoreArena({W, W, W, W, D, L, W});
  EXPECT_THAT(s.sheet, ElementsAre(2, 2, 4, 4, 2, 0, 2));
  EXPECT_EQ(s.points, 16);
  EXPECT_EQ(s.wins, 5);
  EXPECT_EQ(s.streak, 1);
  EXPECT_FALSE(s.on_streak());
  // A loss ends a streak too; two wins start a new one.
  const ArenaScore again = ScoreArena({W, W, L, W, W, W});
  EXPECT_THAT(again.sheet, ElementsAre(2, 2, 0, 2, 2, 4));
  EXPECT_EQ(again.streak, 3);
  EXPECT_TRUE(again.on_streak());
  // A draw before the streak is one point and breaks nothing to come.
  EXPECT_THAT(ScoreArena({D, W, W, D}).sheet, ElementsAre(1, 2, 2, 2));
  EXPECT_THAT(ScoreArena({}).sheet, IsEmpty());
}

TEST(ArenaPairingTest, TheLeadersMeetEachOtherThenTheStrongestByRating) {
  // Points first (3 and 6 lead), then rating (1 over 5 over 2 at none), then the id.
  const std::vector<std::pair<int, int>> pairs = PairArena({{.id = 1, .points = 0, .rating = 30},
                                                            {.id = 2, .points = 0, .rating = 10},
                                                            {.id = 3, .points = 4, .rating = 1},
                                                            {.id = 4, .points = 0, .rating = 10},
                                                            {.id = 5, .points = 0, .rating = 20},
                                                            {.id = 6, .points = 6, .rating = 0}});
  EXPECT_THAT(pairs, ElementsAre(std::pair(6, 3), std::pair(1, 5), std::pair(2, 4)));
}

TEST(ArenaPairingTest, NobodyMeetsTheOpponentTheyJustPlayed) {
  // 1 and 2 just played: 1 takes 3 instead, and 2 the next one down.
  EXPECT_THAT(PairArena({{.id = 1, .points = 4, .last_opponent = 2},
                         {.id = 2, .points = 3, .last_opponent = 1},
                         {.id = 3, .points = 2, .last_opponent = 9},
                         {.id = 4, .points = 1, .last_opponent = 8}}),
              ElementsAre(std::pair(1, 3), std::pair(2, 4)));
  // Either side's last game counts: 2's last was against 1 although 1 has played 7 since.
  EXPECT_THAT(PairArena({{.id = 1, .points = 2, .last_opponent = 7},
                         {.id = 2, .points = 1, .last_opponent = 1},
                         {.id = 3, .points = 0}}),
              ElementsAre(std::pair(1, 3)));
  // Two who just played each other wait for someone else to finish.
  EXPECT_THAT(PairArena({{.id = 1, .last_opponent = 2}, {.id = 2, .last_opponent = 1}}), IsEmpty());
  EXPECT_THAT(PairArena({{.id = 1}}), IsEmpty());
  EXPECT_THAT(PairArena({}), IsEmpty());
}

TEST(ArenaPairingTest, RandomPoolsPairEveryoneButTheUnavoidableNeverTwiceNeverTheLastOpponent) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const int n = std::uniform_int_distribution<int>(0, 40)(rng);
    std::vector<ArenaCandidate> idle;
    for (int i = 1; i <= n; ++i) {
      idle.push_back({.id = i,
                      .points = std::uniform_int_distribution<int>(0, 6)(rng),
                      .rating = static_cast<double>(std::uniform_int_distribution<int>(0, 3)(rng)),
                      .last_opponent = std::uniform_int_distribution<int>(0, n)(rng)});
    }
    const std::vector<std::pair<int, int>> pairs = PairArena(idle);
    std::set<int> seen;
    for (const auto& [a, b] : pairs) {
      EXPECT_TRUE(seen.insert(a).second) << a << " paired twice";
      EXPECT_TRUE(seen.insert(b).second) << b << " paired twice";
      EXPECT_NE(idle[a - 1].last_opponent, b);
      EXPECT_NE(idle[b - 1].last_opponent, a);
    }
    // Greedy leaves two out only when they are forbidden to each other or further apart in the
    // ranking than it looks.
    std::vector<ArenaCandidate> ranked = idle;
    std::sort(ranked.begin(), ranked.end(), [](const ArenaCandidate& a, const ArenaCandidate& b) {
      return std::tuple(-a.points, -a.rating, a.id) < std::tuple(-b.points, -b.rating, b.id);
    });
    for (int x = 0; x < n; ++x) {
      for (int y = x + 1; y < n; ++y) {
        const ArenaCandidate& a = ranked[x];
        const ArenaCandidate& b = ranked[y];
        if (seen.count(a.id) || seen.count(b.id)) continue;
        const bool forbidden = a.last_opponent == b.id || b.last_opponent == a.id;
        EXPECT_TRUE(forbidden || y - x > kArenaPairingWindow)
            << a.id << " and " << b.id << " could have played";
      }
    }
    // The same pool in another order pairs the same.
    std::shuffle(idle.begin(), idle.end(), rng);
    EXPECT_EQ(PairArena(idle), pairs);
  }
}

}  // namespace
}  // namespace boneyard::tournament
