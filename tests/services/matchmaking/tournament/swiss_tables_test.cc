// Swiss tables (swiss_tables.h): the leaders sit together, those who have met are kept apart
// when the field allows (through the window, then by repair), short tables go to the bottom,
// sit-outs go to the lowest-placed who sat out least, a whole simulated event seats without a
// repeat, and bad input is refused naming the field.
#include "services/matchmaking/tournament/swiss_tables.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

SwissTablesSpec Field(int n, int table_size, int min_table_size = 0) {
  SwissTablesSpec spec;
  for (int id = 1; id <= n; ++id) spec.standings.push_back({.id = id});
  spec.table_size = table_size;
  spec.min_table_size = min_table_size;
  return spec;
}

TEST(SwissTablesTest, WithNobodyMetTheTablesAreTheStandingsInBlocks) {
  absl::StatusOr<SwissTablesRound> round = PairSwissTables(Field(12, 4));
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_THAT(round->tables, ElementsAre(ElementsAre(1, 2, 3, 4), ElementsAre(5, 6, 7, 8),
                                         ElementsAre(9, 10, 11, 12)));
  EXPECT_TRUE(round->sitting_out.empty());
  EXPECT_EQ(round->repeats, 0);
}

TEST(SwissTablesTest, ThoseWhoMetAreKeptApartAndTheNextPlacedMovesUp) {
  SwissTablesSpec spec = Field(8, 4);
  spec.met = {{2, 1}};
  absl::StatusOr<SwissTablesRound> round = PairSwissTables(spec);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_THAT(round->tables, ElementsAre(ElementsAre(1, 3, 4, 5), ElementsAre(2, 6, 7, 8)));
  EXPECT_EQ(round->repeats, 0);
}

TEST(SwissTablesTest, ABottomTableThatWouldRepeatIsRepairedFromTheTableAbove) {
  // 7 and 8 have met: at the bottom table nobody else is left to take 8's seat, so a swap
  // with the table above takes the repeat away.
  SwissTablesSpec spec = Field(8, 4);
  spec.met = {{7, 8}};
  absl::StatusOr<SwissTablesRound> round = PairSwissTables(spec);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_EQ(round->repeats, 0);
  for (const std::vector<int>& table : round->tables) {
    EXPECT_FALSE(std::count(table.begin(), table.end(), 7) &&
                 std::count(table.begin(), table.end(), 8));
  }
}

TEST(SwissTablesTest, ShortTablesAreAtTheBottomAndSitOutsTakeTurns) {
  absl::StatusOr<SwissTablesRound> round = PairSwissTables(Field(10, 4, 3));
  ASSERT_TRUE(round.ok()) << round.status();
  ASSERT_EQ(round->tables.size(), 3u);
  EXPECT_EQ(round->tables[0].size(), 4u);
  EXPECT_EQ(round->tables[1].size(), 3u);
  EXPECT_EQ(round->tables[2].size(), 3u);
  // Full tables only: two of ten sit out, the lowest-placed who have sat out least.
  SwissTablesSpec spec = Field(10, 4);
  round = PairSwissTables(spec);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_THAT(round->sitting_out, ElementsAre(9, 10));
  spec.standings[8].sit_outs = 1;
  spec.standings[9].sit_outs = 1;
  round = PairSwissTables(spec);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_THAT(round->sitting_out, ElementsAre(7, 8));
}

// A whole event: 40 entrants at tables of four for six rounds, the standings shuffled by
// seeded results each round. Every round seats without a repeat.
TEST(SwissTablesTest, AWholeEventSeatsWithoutARepeat) {
  constexpr int kEntrants = 40;
  std::vector<int> points(kEntrants + 1, 0);
  std::vector<std::pair<int, int>> met;
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>(state >> 33);
  };
  for (int round = 1; round <= 6; ++round) {
    SwissTablesSpec spec;
    spec.table_size = 4;
    std::vector<int> order(kEntrants);
    for (int i = 0; i < kEntrants; ++i) order[i] = i + 1;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return points[a] > points[b]; });
    for (int id : order) spec.standings.push_back({.id = id});
    spec.met = met;
    absl::StatusOr<SwissTablesRound> seated = PairSwissTables(spec);
    ASSERT_TRUE(seated.ok()) << seated.status();
    EXPECT_EQ(seated->repeats, 0) << "round " << round;
    std::set<int> everyone;
    for (const std::vector<int>& table : seated->tables) {
      ASSERT_EQ(table.size(), 4u);
      for (size_t i = 0; i < table.size(); ++i) {
        EXPECT_TRUE(everyone.insert(table[i]).second) << "seated twice: " << table[i];
        points[table[i]] += next() % 4;
        for (size_t j = i + 1; j < table.size(); ++j) met.emplace_back(table[i], table[j]);
      }
    }
    EXPECT_EQ(everyone.size(), static_cast<size_t>(kEntrants));
  }
}

TEST(SwissTablesTest, BadInputIsRefusedNamingTheField) {
  auto error = [](const SwissTablesSpec& spec) {
    absl::StatusOr<SwissTablesRound> r = PairSwissTables(spec);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(r.status().message());
  };
  EXPECT_THAT(error(Field(8, 9)), HasSubstr("table_size"));
  EXPECT_THAT(error(Field(8, 4, 5)), HasSubstr("min_table_size"));
  EXPECT_THAT(error(Field(3, 4)), HasSubstr("standings"));
  SwissTablesSpec twice = Field(8, 4);
  twice.standings[3].id = 1;
  EXPECT_THAT(error(twice), HasSubstr("appears twice"));
  SwissTablesSpec zero = Field(8, 4);
  zero.standings[0].id = 0;
  EXPECT_THAT(error(zero), HasSubstr("not positive"));
}

}  // namespace
}  // namespace boneyard::tournament
