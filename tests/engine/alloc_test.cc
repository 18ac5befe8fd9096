// No heap allocation per move: a counting global operator new shows that LegalActions and
// Apply (round changes included) allocate nothing during random playouts of every game.
// This file has a binary of its own because it replaces the global allocator.
#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "gtest/gtest.h"

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

namespace boneyard {
namespace {

struct Config {
  const char* game;
  const char* rules;
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.game << " " << c.rules; }

class NoAllocationPerMove : public ::testing::TestWithParam<Config> {};

TEST_P(NoAllocationPerMove, RandomPlayouts) {
  auto game = DefaultRegistry().CreateGame(GetParam().game, *ParseRuleText(GetParam().rules));
  ASSERT_TRUE(game.ok()) << game.status();
  Rng rng(3);
  ActionList legal;
  long moves = 0;
  long allocations = 0;
  for (int match = 0; match < 200; ++match) {
    std::unique_ptr<State> state = *(*game)->NewMatch(DeriveSeed(11, match));
    const long before = g_allocations.load();
    while (!state->IsTerminal()) {
      legal.clear();
      state->LegalActions(legal);
      state->Apply(legal[rng.Below(legal.size())]);
      ++moves;
    }
    allocations += g_allocations.load() - before;
  }
  EXPECT_GT(moves, 1000);
  EXPECT_EQ(allocations, 0) << "over " << moves << " moves";
}

// The counter itself works (so the test above can fail).
TEST(CountingAllocator, CountsAllocations) {
  const long before = g_allocations.load();
  auto* p = new std::vector<int>(100);
  delete p;
  EXPECT_GE(g_allocations.load() - before, 2);
}

INSTANTIATE_TEST_SUITE_P(Games, NoAllocationPerMove,
                         ::testing::Values(Config{"muggins", "players=2"},
                                           Config{"muggins", "players=3"},
                                           Config{"muggins", "players=4,teams=true,claim_scoring=true"},
                                           Config{"castle_rock", "set=6"},
                                           Config{"castle_rock", "set=18"}),
                         [](const auto& info) {
                           return std::string(info.param.game) + "_" +
                                  std::to_string(info.index);
                         });

}  // namespace
}  // namespace boneyard
