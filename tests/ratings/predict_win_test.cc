// PredictWin against openskill's predictWin: every case in fixtures/openskill_predict_win.json
// (written by fixtures/predict_win.mjs with the pinned openskill 5.x) within 1e-12.
#include <fstream>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {
namespace {

TEST(PredictWin, MatchesOpenskillOnEveryFixture) {
  std::ifstream in(BONEYARD_OPENSKILL_PREDICT_WIN);
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(json.is_discarded()) << BONEYARD_OPENSKILL_PREDICT_WIN;
  int cases = 0;
  for (const nlohmann::json& c : json["cases"]) {
    RatingModelConfig config;
    config.beta = c["beta"].get<double>();
    std::vector<std::vector<SkillRating>> teams;
    for (const nlohmann::json& team : c["teams"]) {
      std::vector<SkillRating>& members = teams.emplace_back();
      for (const nlohmann::json& player : team) {
        members.push_back({.mu = player["mu"].get<double>(), .sigma = player["sigma"].get<double>()});
      }
    }
    absl::StatusOr<std::vector<double>> win = PredictWin(config, teams);
    ASSERT_TRUE(win.ok()) << win.status();
    const std::vector<double> expected = c["win"].get<std::vector<double>>();
    ASSERT_EQ(win->size(), expected.size());
    double total = 0;
    for (size_t t = 0; t < expected.size(); ++t) {
      EXPECT_NEAR((*win)[t], expected[t], 1e-12) << "case " << cases << " team " << t;
      total += (*win)[t];
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
    ++cases;
  }
  EXPECT_EQ(cases, 108);
}

TEST(PredictWin, EqualTeamsAreEvenAndTheStrongerTeamIsFavoured) {
  const RatingModelConfig config;
  const SkillRating average{.mu = 25, .sigma = 8};
  const SkillRating strong{.mu = 35, .sigma = 3};
  absl::StatusOr<std::vector<double>> even = PredictWin(config, std::vector<std::vector<SkillRating>>{
      {average, strong}, {strong, average}});
  ASSERT_TRUE(even.ok());
  EXPECT_DOUBLE_EQ((*even)[0], 0.5);
  absl::StatusOr<std::vector<double>> favoured = PredictWin(
      config, std::vector<std::vector<SkillRating>>{{strong, strong}, {average, average}});
  ASSERT_TRUE(favoured.ok());
  EXPECT_GT((*favoured)[0], 0.9);
  EXPECT_DOUBLE_EQ(WinChance(config, 70, 18, 50, 128), (*favoured)[0]);
}

TEST(PredictWin, RefusesFewerThanTwoTeamsAnEmptyTeamAndNonFiniteRatings) {
  const RatingModelConfig config;
  const SkillRating player;
  using Teams = std::vector<std::vector<SkillRating>>;
  EXPECT_FALSE(PredictWin(config, Teams{{player}}).ok());
  EXPECT_FALSE(PredictWin(config, Teams{{player}, {}}).ok());
  EXPECT_FALSE(PredictWin(config, Teams{{player}, {{.mu = NAN, .sigma = 1}}}).ok());
}

}  // namespace
}  // namespace boneyard::ratings
