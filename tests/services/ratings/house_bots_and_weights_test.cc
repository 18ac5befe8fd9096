// Ladders' two additions to a rated result (ladder.proto): a built-in bot with a `rating_id`
// (a house bot) is rated and kept under that id, and a player seat's `rating_weight` scales its
// change — a person playing bots on a ladder moves that share of the way, the bot the whole way.
#include <cmath>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/ratings/match_result.h"
#include "services/ratings/rating_update.h"
#include "tests/services/ratings/ratings_test_util.h"

namespace boneyard::ratings {
namespace {

using test_util::FinishedMatch;
using test_util::Minute;
using test_util::Request;
using ::testing::HasSubstr;

// ann (seat 0) against a house bot (seat 1), ann winning; ann's weight `weight`.
v1::Match AgainstHouseBot(double weight, const std::string& rating_id = "house:l:search-2") {
  v1::Match match = FinishedMatch("m1", "muggins", {{"ann", 1}, {"", 2}}, Minute(1));
  match.mutable_seats(0)->mutable_player()->set_rating_weight(weight);
  match.mutable_seats(1)->mutable_bot()->set_rating_id(rating_id);
  return match;
}

std::vector<v1::RatingChange> Apply(const v1::Match& match, RatingTable& table) {
  absl::StatusOr<ValidResult> valid = ValidateResult(Request(match), DefaultRegistry());
  EXPECT_TRUE(valid.ok()) << valid.status();
  if (!valid.ok()) return {};
  absl::StatusOr<std::vector<v1::RatingChange>> changes =
      ApplyResult(RatingModelConfig(), *valid, table);
  EXPECT_TRUE(changes.ok()) << changes.status();
  return changes.ok() ? *changes : std::vector<v1::RatingChange>();
}

TEST(HouseBotTest, IsRatedAndKeptUnderItsRatingId) {
  RatingTable table;
  const std::vector<v1::RatingChange> changes = Apply(AgainstHouseBot(0), table);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[1].player_id(), "house:l:search-2");
  ASSERT_TRUE(table.contains("house:l:search-2"));
  EXPECT_LT(table["house:l:search-2"].skill.mu, 25.0);  // it lost
  EXPECT_EQ(table["house:l:search-2"].games_played, 1);
  // Without a rating id it is nobody, as before.
  v1::Match plain = FinishedMatch("m2", "muggins", {{"ann", 1}, {"", 2}}, Minute(2));
  RatingTable other;
  EXPECT_EQ(Apply(plain, other).size(), 1u);
  EXPECT_EQ(other.size(), 1u);
}

TEST(RatingWeightTest, ScalesThePersonsChangeNotTheBots) {
  RatingTable whole;
  const std::vector<v1::RatingChange> full = Apply(AgainstHouseBot(0), whole);  // 0 means 1
  RatingTable half;
  const std::vector<v1::RatingChange> weighted = Apply(AgainstHouseBot(0.5), half);
  ASSERT_EQ(full.size(), 2u);
  ASSERT_EQ(weighted.size(), 2u);
  const double full_gain = full[0].mu_after() - full[0].mu_before();
  const double half_gain = weighted[0].mu_after() - weighted[0].mu_before();
  EXPECT_GT(full_gain, 0);
  EXPECT_NEAR(half_gain, full_gain / 2, 1e-12);
  EXPECT_NEAR(weighted[0].sigma_after() - weighted[0].sigma_before(),
              (full[0].sigma_after() - full[0].sigma_before()) / 2, 1e-12);
  // The bot's change is whole either way.
  EXPECT_EQ(weighted[1].mu_after(), full[1].mu_after());
  EXPECT_EQ(half["ann"].skill.mu, weighted[0].mu_after());
}

TEST(RatingWeightTest, OutsideZeroToOneIsRefusedNamingTheField) {
  for (double bad : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    absl::StatusOr<ValidResult> valid =
        ValidateResult(Request(AgainstHouseBot(bad)), DefaultRegistry());
    EXPECT_EQ(valid.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(valid.status().message(), HasSubstr("match.seats[0].player.rating_weight"));
  }
}

TEST(HouseBotTest, ARatingIdIsCheckedAndRatedOncePerMatch) {
  absl::StatusOr<ValidResult> valid =
      ValidateResult(Request(AgainstHouseBot(0, std::string("bad\0id", 6))), DefaultRegistry());
  EXPECT_EQ(valid.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(valid.status().message(), HasSubstr("match.seats[1].bot.rating_id"));
  // A rating id equal to a seated player's id would rate one id twice.
  valid = ValidateResult(Request(AgainstHouseBot(0, "ann")), DefaultRegistry());
  EXPECT_EQ(valid.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(valid.status().message(), HasSubstr("also sits in seat 0"));
}

}  // namespace
}  // namespace boneyard::ratings
