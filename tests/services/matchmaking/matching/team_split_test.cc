// The fairest split into teams (services/matchmaking/matching/team_split.h).
#include "services/matchmaking/matching/team_split.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;
using ratings::SkillRating;

SplitTicket Single(double mu, double sigma = 2) { return {{.mu = mu, .sigma = sigma}}; }

TEST(BestSplit, PairsTheStrongestWithTheWeakest) {
  const ratings::RatingModelConfig model;
  const std::vector<SplitTicket> tickets = {Single(40), Single(30), Single(20), Single(10)};
  std::optional<TeamSplit> split = BestSplit(model, tickets, 2, 2);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->considered, 3);
  EXPECT_THAT(split->teams, UnorderedElementsAre(UnorderedElementsAre(0, 3),
                                                 UnorderedElementsAre(1, 2)));
  EXPECT_DOUBLE_EQ(split->win_chance[0], 0.5);
  EXPECT_DOUBLE_EQ(split->win_chance[0] + split->win_chance[1], 1.0);
}

TEST(BestSplit, LooksAtEverySplitOfThreeAndFourAside) {
  const ratings::RatingModelConfig model;
  std::vector<SplitTicket> six;
  for (int i = 0; i < 6; ++i) six.push_back(Single(20 + i));
  EXPECT_EQ(BestSplit(model, six, 2, 3)->considered, 10);
  std::vector<SplitTicket> eight;
  for (int i = 0; i < 8; ++i) eight.push_back(Single(20 + i));
  EXPECT_EQ(BestSplit(model, eight, 2, 4)->considered, 35);
}

TEST(BestSplit, KeepsAPartyOnOneTeam) {
  const ratings::RatingModelConfig model;
  // The party is the two strongest: balance would split them, but a party stays whole.
  const std::vector<SplitTicket> tickets = {
      {{.mu = 40, .sigma = 2}, {.mu = 38, .sigma = 2}}, Single(12), Single(10)};
  std::optional<TeamSplit> split = BestSplit(model, tickets, 2, 2);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->considered, 1);
  EXPECT_THAT(split->teams, ElementsAre(ElementsAre(0), ElementsAre(1, 2)));
  EXPECT_GT(split->win_chance[0], 0.9);
}

TEST(BestSplit, NoSplitWhenThePartiesDoNotPack) {
  const ratings::RatingModelConfig model;
  const std::vector<SplitTicket> tickets = {
      {{.mu = 20, .sigma = 2}, {.mu = 20, .sigma = 2}}, Single(20), Single(20), Single(20),
      Single(20)};
  EXPECT_FALSE(BestSplit(model, tickets, 2, 2).has_value());  // six players for four seats
  EXPECT_FALSE(BestSplit(model, std::vector<SplitTicket>{{{.mu = 1}, {.mu = 2}, {.mu = 3}},
                                                         Single(1)},
                         2, 2)
                   .has_value());  // a party of three in teams of two
}

// Brute force: every permutation of the players into consecutive teams.
TEST(BestSplit, FindsTheMostEvenSplitThatBruteForceFinds) {
  const ratings::RatingModelConfig model;
  std::mt19937 random(42);
  std::uniform_real_distribution<double> mu(5, 45);
  std::uniform_real_distribution<double> sigma(0.5, 8.3);
  for (int round = 0; round < 60; ++round) {
    const int team_size = 2 + round % 3;
    std::vector<SplitTicket> tickets;
    for (int i = 0; i < 2 * team_size; ++i) tickets.push_back(Single(mu(random), sigma(random)));
    std::optional<TeamSplit> split = BestSplit(model, tickets, 2, team_size);
    ASSERT_TRUE(split.has_value());
    std::vector<int> order(tickets.size());
    std::iota(order.begin(), order.end(), 0);
    double best_gap = 1;
    do {
      std::vector<std::vector<SkillRating>> teams(2);
      for (size_t i = 0; i < order.size(); ++i) {
        teams[i / team_size].push_back(tickets[order[i]][0]);
      }
      best_gap = std::min(best_gap, std::abs((*ratings::PredictWin(model, teams))[0] - 0.5));
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_NEAR(std::abs(split->win_chance[0] - 0.5), best_gap, 1e-12) << "round " << round;
  }
}

TEST(BestSplit, KeepsRecentPartnersApartWhenThatIsAlmostAsEven) {
  const ratings::RatingModelConfig model;
  // Four equals: every split is even, so the one that does not pair 0 with 1 again wins.
  const std::vector<SplitTicket> equals = {Single(25), Single(25), Single(25), Single(25)};
  const RecentPartners zero_and_one = [](int a, int b) {
    return (a == 0 && b == 1) || (a == 1 && b == 0) ? 1 : 0;
  };
  std::optional<TeamSplit> split = BestSplit(model, equals, 2, 2, zero_and_one);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->repeats, 0);
  for (const std::vector<int>& team : split->teams) {
    EXPECT_FALSE(team == (std::vector<int>{0, 1}));
  }
  // Far from even otherwise: balance comes first, and the partners play together again.
  const std::vector<SplitTicket> spread = {Single(40), Single(30), Single(20), Single(10)};
  const RecentPartners zero_and_three = [](int a, int b) {
    return (a == 0 && b == 3) || (a == 3 && b == 0) ? 1 : 0;
  };
  split = BestSplit(model, spread, 2, 2, zero_and_three);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->repeats, 1);
  EXPECT_DOUBLE_EQ(split->win_chance[0], 0.5);
}

TEST(Packs, FitsPartiesIntoTeamsWithoutSplittingThem) {
  EXPECT_TRUE(Packs(std::vector<int>{2, 2}, 2, 2));
  EXPECT_TRUE(Packs(std::vector<int>{2, 1, 1}, 2, 2));
  EXPECT_TRUE(Packs(std::vector<int>{2, 1}, 2, 2));  // a seat left for later
  EXPECT_FALSE(Packs(std::vector<int>{3}, 2, 2));
  EXPECT_FALSE(Packs(std::vector<int>{2, 2, 1}, 2, 2));
  EXPECT_TRUE(Packs(std::vector<int>{3, 1, 2, 2}, 2, 4));
  EXPECT_FALSE(Packs(std::vector<int>{3, 3, 2}, 2, 4));
}

}  // namespace
}  // namespace boneyard::matchmaking
