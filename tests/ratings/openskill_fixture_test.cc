// boneyard's Weng-Lin model against the openskill npm package: every case in
// fixtures/openskill_fixtures.json (written by fixtures/generate.mjs with the pinned
// openskill 5.x) must come out within 1e-9, absolute, in every mu and sigma.
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/ratings/model/weng_lin.h"
#include "tests/ratings/all_model_kinds.h"

namespace boneyard::ratings {
namespace {

constexpr double kTolerance = 1e-9;

using Teams = std::vector<std::vector<SkillRating>>;

struct FixtureCase {
  std::string name;
  RatingModelConfig config;
  SkillRating initial;
  Teams teams;
  std::vector<double> ranks;
  Teams expected;
};

Teams ParseTeams(const nlohmann::json& json) {
  Teams teams;
  for (const nlohmann::json& team : json) {
    std::vector<SkillRating>& members = teams.emplace_back();
    for (const nlohmann::json& player : team) {
      members.push_back({.mu = player[0].get<double>(), .sigma = player[1].get<double>()});
    }
  }
  return teams;
}

// The whole file once; a failed read or parse leaves it empty and the count test fails.
const std::vector<FixtureCase>& Fixtures() {
  static const std::vector<FixtureCase>* const fixtures = [] {
    auto* cases = new std::vector<FixtureCase>();
    std::ifstream in(BONEYARD_OPENSKILL_FIXTURES);
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return cases;
    for (const nlohmann::json& c : json["cases"]) {
      FixtureCase& out = cases->emplace_back();
      out.name = c["name"].get<std::string>();
      const nlohmann::json& config = c["config"];
      out.config.kind = *ParseModelKind(c["model"].get<std::string>());
      out.config.mu = config["mu"].get<double>();
      out.config.sigma = config["sigma"].get<double>();
      out.config.beta = config["beta"].get<double>();
      out.config.kappa = config["kappa"].get<double>();
      out.config.tau = config["tau"].get<double>();
      out.config.limit_sigma = config["limit_sigma"].get<bool>();
      out.initial = {.mu = c["initial"]["mu"].get<double>(),
                     .sigma = c["initial"]["sigma"].get<double>()};
      out.teams = ParseTeams(c["teams"]);
      out.ranks = c["ranks"].get<std::vector<double>>();
      out.expected = ParseTeams(c["expected"]);
    }
    return cases;
  }();
  return *fixtures;
}

void ExpectMatches(const FixtureCase& c, const Teams& actual) {
  ASSERT_EQ(actual.size(), c.expected.size());
  for (size_t t = 0; t < actual.size(); ++t) {
    ASSERT_EQ(actual[t].size(), c.expected[t].size());
    for (size_t p = 0; p < actual[t].size(); ++p) {
      EXPECT_NEAR(actual[t][p].mu, c.expected[t][p].mu, kTolerance)
          << "teams[" << t << "][" << p << "]";
      EXPECT_NEAR(actual[t][p].sigma, c.expected[t][p].sigma, kTolerance)
          << "teams[" << t << "][" << p << "]";
    }
  }
}

TEST(OpenskillFixtureTest, CoversEveryModelAndShape) {
  const std::vector<FixtureCase>& cases = Fixtures();
  ASSERT_GE(cases.size(), 700u) << "regenerate with tests/ratings/fixtures/generate.mjs";
  std::map<ModelKind, int> per_model;
  std::set<std::string> shapes;
  int ties = 0;
  int with_tau = 0;
  for (const FixtureCase& c : cases) {
    ++per_model[c.config.kind];
    // Names read "model/shape/ranks=.../...".
    const std::vector<std::string> parts = absl::StrSplit(c.name, '/');
    shapes.insert(parts[1]);
    ties += std::set<double>(c.ranks.begin(), c.ranks.end()).size() < c.ranks.size();
    with_tau += c.config.tau > 0;
  }
  EXPECT_EQ(per_model.size(), 5u);
  for (const auto& [kind, count] : per_model) EXPECT_GE(count, 100) << ModelKindName(kind);
  for (const char* shape :
       {"1v1", "2v2", "3v3", "4v4", "1v2", "3v1v2", "ffa3", "ffa4", "ffa8", "ffa20"}) {
    EXPECT_TRUE(shapes.contains(shape)) << shape;
  }
  EXPECT_GE(ties, 100);
  EXPECT_GE(with_tau, 50);
}

class OpenskillFixtureModelTest : public testing::TestWithParam<ModelKind> {};

TEST_P(OpenskillFixtureModelTest, RateMatchesOpenskill) {
  int checked = 0;
  for (const FixtureCase& c : Fixtures()) {
    if (c.config.kind != GetParam()) continue;
    SCOPED_TRACE(c.name);
    const SkillRating initial = InitialRating(c.config);
    EXPECT_EQ(initial.mu, c.initial.mu);
    EXPECT_EQ(initial.sigma, c.initial.sigma);
    absl::StatusOr<Teams> after = Rate(c.config, c.teams, c.ranks);
    ASSERT_TRUE(after.ok()) << after.status();
    ExpectMatches(c, *after);
    ++checked;
  }
  EXPECT_GE(checked, 100);
}

// The allocation-free path, rating in place (`out` aliasing `teams`), gives the same numbers.
TEST_P(OpenskillFixtureModelTest, RateUncheckedInPlaceMatchesOpenskill) {
  for (const FixtureCase& c : Fixtures()) {
    if (c.config.kind != GetParam()) continue;
    SCOPED_TRACE(c.name);
    Teams teams = c.teams;
    RateUnchecked(c.config, teams, c.ranks, teams);
    ExpectMatches(c, teams);
  }
}

INSTANTIATE_TEST_SUITE_P(AllModels, OpenskillFixtureModelTest, testing::ValuesIn(kAllModelKinds),
                         ModelKindTestName);

}  // namespace
}  // namespace boneyard::ratings
