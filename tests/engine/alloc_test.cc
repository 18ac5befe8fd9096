// No heap allocation per move: a counting global operator new shows that LegalActions and
// Apply (round changes included) allocate nothing during random playouts of every game.
// This file has a binary of its own because it replaces the global allocator.
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "tests/common/counting_new.h"

namespace boneyard {
namespace {

struct Config {
  const char* game;
  const char* rules;
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.game << " " << c.rules; }

class NoAllocationPerMove : public ::testing::TestWithParam<Config> {};

// The test's bound on one match (the rules have none: a random Moon match may never reach its
// target); far above any other game's random match.
constexpr long kMaxMovesPerMatch = 5'000;

TEST_P(NoAllocationPerMove, RandomPlayouts) {
  auto game = DefaultRegistry().CreateGame(GetParam().game, *ParseRuleText(GetParam().rules));
  ASSERT_TRUE(game.ok()) << game.status();
  Rng rng(3);
  ActionList legal;
  long moves = 0;
  long allocations = 0;
  for (int match = 0; match < 200; ++match) {
    std::unique_ptr<State> state = *(*game)->NewMatch(DeriveSeed(11, match));
    const long before = boneyard::test_alloc::Allocations();
    for (long match_moves = 0; !state->IsTerminal() && match_moves < kMaxMovesPerMatch;
         ++match_moves) {
      legal.clear();
      state->LegalActions(legal);
      state->Apply(legal[rng.Below(legal.size())]);
      ++moves;
    }
    allocations += boneyard::test_alloc::Allocations() - before;
  }
  EXPECT_GT(moves, 1000);
  EXPECT_EQ(allocations, 0) << "over " << moves << " moves";
}

// The counter itself works (so the test above can fail).
TEST(CountingAllocator, CountsAllocations) {
  const long before = boneyard::test_alloc::Allocations();
  auto* p = new std::vector<int>(100);
  delete p;
  EXPECT_GE(boneyard::test_alloc::Allocations() - before, 2);
}

INSTANTIATE_TEST_SUITE_P(Games, NoAllocationPerMove,
                         ::testing::Values(Config{"muggins", "players=2"},
                                           Config{"muggins", "players=3"},
                                           Config{"muggins", "players=4,teams=true,claim_scoring=true"},
                                           Config{"castle_rock", "set=6"},
                                           Config{"castle_rock", "set=18"},
                                           Config{"forty_two", ""},
                                           Config{"forty_two", "nello=true,plunge=true,splash=true,"
                                                               "sevens=true,mark_bidding=true"},
                                           Config{"forty_two", "doubles_trump=true,follow_me=true"},
                                           Config{"eighty_four", "players=8"},
                                           Config{"eighty_four", "players=6"},
                                           Config{"moon", ""},
                                           Config{"mexican_train", "preset=classic,players=4"},
                                           Config{"mexican_train", "preset=classic_double_9,players=6"},
                                           Config{"mexican_train", "preset=first_turn_strings,players=4"},
                                           Config{"mexican_train", "preset=house,players=5"},
                                           Config{"chickenfoot", "players=4"},
                                           Config{"chickenfoot", "set=12,players=6"}),
                         [](const auto& info) {
                           return std::string(info.param.game) + "_" +
                                  std::to_string(info.index);
                         });

}  // namespace
}  // namespace boneyard
