// Rate()'s contract at its edges: each bad input in weng_lin.h's list is INVALID_ARGUMENT
// naming it; model names round-trip; the initial rating and the ordinal.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/ratings/model/weng_lin.h"
#include "tests/ratings/all_model_kinds.h"

namespace boneyard::ratings {
namespace {

using ::testing::HasSubstr;
using Teams = std::vector<std::vector<SkillRating>>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

const Teams kOneVsOne = {{{.mu = 25, .sigma = 8}}, {{.mu = 25, .sigma = 8}}};
const std::vector<double> kWinLose = {1, 2};

void ExpectInvalid(const absl::StatusOr<Teams>& result, const std::string& naming) {
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << naming;
  EXPECT_THAT(std::string(result.status().message()), HasSubstr(naming));
}

TEST(ValidationTest, BadMatchShapes) {
  ExpectInvalid(Rate({}, Teams{{{.mu = 25, .sigma = 8}}}, std::vector<double>{1}),
                "at least 2 teams");
  ExpectInvalid(Rate({}, Teams{}, std::vector<double>{}), "at least 2 teams");
  ExpectInvalid(Rate({}, Teams{{{.mu = 25, .sigma = 8}}, {}}, kWinLose), "teams[1] is empty");
  ExpectInvalid(Rate({}, kOneVsOne, std::vector<double>{1}), "ranks has 1 entries for 2 teams");
  ExpectInvalid(Rate({}, kOneVsOne, std::vector<double>{1, 2, 3}), "ranks has 3");
}

TEST(ValidationTest, BadRanks) {
  ExpectInvalid(Rate({}, kOneVsOne, std::vector<double>{1, kNaN}), "ranks[1]");
  ExpectInvalid(Rate({}, kOneVsOne, std::vector<double>{-kInf, 1}), "ranks[0]");
}

TEST(ValidationTest, BadRatings) {
  for (double mu : {kNaN, kInf, -kInf}) {
    Teams teams = kOneVsOne;
    teams[1].push_back({.mu = mu, .sigma = 1});
    ExpectInvalid(Rate({}, teams, kWinLose), "teams[1][1].mu");
  }
  for (double sigma : {kNaN, kInf, 0.0, -1.0}) {
    Teams teams = kOneVsOne;
    teams[0][0].sigma = sigma;
    ExpectInvalid(Rate({}, teams, kWinLose), "teams[0][0].sigma");
  }
}

TEST(ValidationTest, BadConfigs) {
  struct Bad {
    RatingModelConfig config;
    std::string naming;
  };
  auto with = [](auto set) {
    RatingModelConfig config;
    set(config);
    return config;
  };
  const Bad bad[] = {
      {with([](auto& c) { c.mu = kNaN; }), "config mu"},
      {with([](auto& c) { c.mu = kInf; }), "config mu"},
      {with([](auto& c) { c.sigma = 0; }), "config sigma"},
      {with([](auto& c) { c.sigma = kNaN; }), "config sigma"},
      {with([](auto& c) { c.beta = -1; }), "config beta"},
      {with([](auto& c) { c.beta = kInf; }), "config beta"},
      {with([](auto& c) { c.kappa = -0.1; }), "config kappa"},
      {with([](auto& c) { c.kappa = kNaN; }), "config kappa"},
      {with([](auto& c) { c.tau = -1; }), "config tau"},
      {with([](auto& c) { c.tau = kInf; }), "config tau"},
      {with([](auto& c) { c.kind = static_cast<ModelKind>(99); }), "config kind"},
  };
  for (const Bad& b : bad) {
    EXPECT_EQ(ValidateConfig(b.config).code(), absl::StatusCode::kInvalidArgument) << b.naming;
    ExpectInvalid(Rate(b.config, kOneVsOne, kWinLose), b.naming);
  }
  EXPECT_TRUE(ValidateConfig({}).ok());
  EXPECT_TRUE(ValidateConfig(with([](auto& c) { c.kappa = 0; })).ok());
}

TEST(ModelKindTest, NamesRoundTrip) {
  for (ModelKind kind : kAllModelKinds) {
    EXPECT_EQ(*ParseModelKind(ModelKindName(kind)), kind);
  }
  EXPECT_EQ(ModelKindName(ModelKind::kPlackettLuce), "plackett_luce");
  EXPECT_EQ(ModelKindName(ModelKind::kBradleyTerryPart), "bradley_terry_part");
  const absl::StatusOr<ModelKind> unknown = ParseModelKind("glicko");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("glicko"));
}

TEST(RatingTest, InitialRatingAndOrdinal) {
  const SkillRating fresh = InitialRating({});
  EXPECT_EQ(fresh.mu, 25.0);
  EXPECT_EQ(fresh.sigma, 25.0 / 3.0);
  EXPECT_NEAR(fresh.Ordinal(), 0.0, 1e-12);
  RatingModelConfig elo;
  elo.mu = 1500;
  elo.sigma = 500;
  EXPECT_EQ(InitialRating(elo).mu, 1500);
  EXPECT_EQ(InitialRating(elo).sigma, 500);
  EXPECT_EQ((SkillRating{.mu = 30, .sigma = 2}).Ordinal(), 24);
  EXPECT_EQ(RatingModelConfig{}.beta, RatingModelConfig{}.sigma / 2);
}

TEST(RatingTest, ResultHasTheInputsShape) {
  const Teams teams = {{{.mu = 20, .sigma = 5}, {.mu = 30, .sigma = 7}},
                       {{.mu = 25, .sigma = 8}},
                       {{.mu = 21, .sigma = 3}, {.mu = 22, .sigma = 4}, {.mu = 23, .sigma = 5}}};
  const absl::StatusOr<Teams> after = Rate({}, teams, std::vector<double>{2, 1, 3});
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->size(), 3u);
  for (size_t t = 0; t < 3; ++t) EXPECT_EQ((*after)[t].size(), teams[t].size());
}

}  // namespace
}  // namespace boneyard::ratings
