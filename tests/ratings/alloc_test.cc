// RateUnchecked allocates nothing for up to kInlineTeams teams: a counting global operator
// new around the calls, for every model kind. This file has a binary of its own because it
// replaces the global allocator.
#include <vector>

#include "gtest/gtest.h"
#include "services/ratings/model/weng_lin.h"
#include "tests/common/counting_new.h"
#include "tests/ratings/all_model_kinds.h"

namespace boneyard::ratings {
namespace {

using Teams = std::vector<std::vector<SkillRating>>;

// `team_count` teams of `team_size`, places 1, 1, 3, 4, ... (a tie for first included).
long AllocationsPerRate(ModelKind kind, int team_count, int team_size) {
  RatingModelConfig config;
  config.kind = kind;
  config.tau = 0.1;  // the widened-sigma path too
  config.limit_sigma = true;
  Teams teams(team_count);
  std::vector<double> ranks;
  for (int t = 0; t < team_count; ++t) {
    for (int p = 0; p < team_size; ++p) teams[t].push_back({.mu = 20.0 + t + p, .sigma = 5});
    ranks.push_back(t == 1 ? 1 : t + 1);
  }
  Teams out = teams;
  const long before = boneyard::test_alloc::Allocations();
  RateUnchecked(config, teams, ranks, out);
  RateUnchecked(config, out, ranks, out);  // in place
  return boneyard::test_alloc::Allocations() - before;
}

class RateUncheckedAllocationTest : public testing::TestWithParam<ModelKind> {};

TEST_P(RateUncheckedAllocationTest, NoneUpToInlineTeams) {
  EXPECT_EQ(AllocationsPerRate(GetParam(), 2, 1), 0);
  EXPECT_EQ(AllocationsPerRate(GetParam(), 2, 2), 0);
  EXPECT_EQ(AllocationsPerRate(GetParam(), 2, 4), 0);
  EXPECT_EQ(AllocationsPerRate(GetParam(), 8, 1), 0);
  EXPECT_EQ(AllocationsPerRate(GetParam(), kInlineTeams, 1), 0);
  // Past that the scratch space moves to the heap, and the update still works.
  EXPECT_GT(AllocationsPerRate(GetParam(), kInlineTeams + 1, 1), 0);
}

INSTANTIATE_TEST_SUITE_P(AllModels, RateUncheckedAllocationTest, testing::ValuesIn(kAllModelKinds),
                         ModelKindTestName);

}  // namespace
}  // namespace boneyard::ratings
