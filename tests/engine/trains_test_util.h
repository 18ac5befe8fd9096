// Test helpers for the train games (Mexican Train, Chickenfoot), on top of the engine tests'
// own (tests/engine/engine_test_util.h): deals around a centre double, and random matches
// seeded as these tests expect.
#ifndef BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_
#define BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/rules.h"
#include "engine/core/tile.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::trains::train_test {

// Hands as given; the boneyard starts with `boneyard` and goes on with every other tile of
// double-`max_pip` but the centre double `centre`-`centre` (none when `centre` < 0), in id
// order.
inline Deal MakeDeal(int max_pip, int centre, const std::vector<std::string>& hands,
                     const std::string& boneyard = "") {
  std::vector<Tile> centre_double;
  if (centre >= 0) centre_double.push_back(Tile(centre, centre));
  return engine_test::MakeFullDeal(max_pip, hands, boneyard, centre_double);
}

// Plays a match with random legal moves; calls `round_start(state)` as each round starts and
// `round_end(before, after)` after the action that ended a round (`before` is the state just
// before it).
inline void RandomMatch(const std::string& game_name, const RuleText& rules, uint64_t seed,
                        const engine_test::RoundStart& round_start,
                        const engine_test::RoundEnd& round_end) {
  std::shared_ptr<const Game> game = engine_test::MakeGame(game_name, rules);
  ASSERT_NE(game, nullptr);
  Rng rng(DeriveSeed(seed, 99));
  engine_test::RandomMatch(*game, seed, rng, round_start, round_end);
}

}  // namespace boneyard::trains::train_test

#endif  // BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_
