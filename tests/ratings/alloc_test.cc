// RateUnchecked allocates nothing for up to kInlineTeams teams: a counting global operator
// new around the calls, for every model kind. This file has a binary of its own because it
// replaces the global allocator.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "gtest/gtest.h"
#include "services/ratings/model/weng_lin.h"
#include "tests/ratings/all_model_kinds.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// The replaced operator new hands out malloc'd memory, so free() is the matching release.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

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
  const long before = g_allocations.load();
  RateUnchecked(config, teams, ranks, out);
  RateUnchecked(config, out, ranks, out);  // in place
  return g_allocations.load() - before;
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
