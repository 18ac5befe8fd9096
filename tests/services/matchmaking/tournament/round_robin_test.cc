// Round robins (services/matchmaking/tournament/round_robin.h): FIDE's printed Berger tables
// board by board, the properties of one and two cycles, and the table schedule's layouts and
// evenness, including designs where everyone meets everyone exactly once.
#include "services/matchmaking/tournament/round_robin.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;

// "1-4 2-3" → boards, white first.
std::vector<Board> Boards(const std::string& text) {
  std::vector<Board> boards;
  std::istringstream in(text);
  std::string token;
  while (in >> token) {
    const size_t dash = token.find('-');
    boards.push_back({std::stoi(token.substr(0, dash)), std::stoi(token.substr(dash + 1))});
  }
  return boards;
}

std::vector<std::vector<Board>> Table(const std::vector<std::string>& rounds) {
  std::vector<std::vector<Board>> table;
  for (const std::string& r : rounds) table.push_back(Boards(r));
  return table;
}

// FIDE Handbook C.05, Annex 1, as printed (typed in, not generated).
const std::map<int, std::vector<std::string>>& FideTables() {
  static const auto* tables = new std::map<int, std::vector<std::string>>{
      {4, {"1-4 2-3", "4-3 1-2", "2-4 3-1"}},
      {6, {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"}},
      {8,
       {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"}},
      {10,
       {"1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"}},
      {12,
       {"1-12 2-11 3-10 4-9 5-8 6-7", "12-7 8-6 9-5 10-4 11-3 1-2", "2-12 3-1 4-11 5-10 6-9 7-8",
        "12-8 9-7 10-6 11-5 1-4 2-3", "3-12 4-2 5-1 6-11 7-10 8-9", "12-9 10-8 11-7 1-6 2-5 3-4",
        "4-12 5-3 6-2 7-1 8-11 9-10", "12-10 11-9 1-8 2-7 3-6 4-5", "5-12 6-4 7-3 8-2 9-1 10-11",
        "12-11 1-10 2-9 3-8 4-7 5-6", "6-12 7-5 8-4 9-3 10-2 11-1"}},
      {14,
       {"1-14 2-13 3-12 4-11 5-10 6-9 7-8", "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
        "2-14 3-1 4-13 5-12 6-11 7-10 8-9", "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
        "3-14 4-2 5-1 6-13 7-12 8-11 9-10", "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
        "4-14 5-3 6-2 7-1 8-13 9-12 10-11", "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
        "5-14 6-4 7-3 8-2 9-1 10-13 11-12", "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
        "6-14 7-5 8-4 9-3 10-2 11-1 12-13", "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-14 8-6 9-5 10-4 11-3 12-2 13-1"}},
      {16,
       {"1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9", "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2",
        "2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10", "16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3",
        "3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11", "16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4",
        "4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12", "16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5",
        "5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13", "16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6",
        "6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14", "16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15", "16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1"}},
  };
  return *tables;
}

// --- Berger tables --------------------------------------------------------------------------

TEST(BergerTest, EvenCountsReproduceFidesPrintedTablesBoardByBoard) {
  for (const auto& [n, printed] : FideTables()) {
    SCOPED_TRACE(n);
    absl::StatusOr<std::vector<std::vector<Board>>> schedule = BergerSchedule(n);
    ASSERT_TRUE(schedule.ok()) << schedule.status();
    EXPECT_EQ(*schedule, Table(printed));
  }
}

TEST(BergerTest, OddCountsUseTheNextTableWithTheDummysOpponentOnABye) {
  for (const auto& [table, printed] : FideTables()) {
    const int even = table;  // clang 14 cannot capture a structured binding
    const int n = even - 1;
    SCOPED_TRACE(n);
    std::vector<std::vector<Board>> expected;
    for (std::vector<Board> round : Table(printed)) {
      // The bye: whoever meets `even`, listed after the played boards.
      auto dummy = std::find_if(round.begin(), round.end(), [even](const Board& b) {
        return b.white == even || b.black == even;
      });
      ASSERT_EQ(dummy, round.begin());  // FIDE puts the last number on board 1
      const int bye = dummy->white == even ? dummy->black : dummy->white;
      round.erase(dummy);
      round.push_back({bye, 0});
      expected.push_back(round);
    }
    absl::StatusOr<std::vector<std::vector<Board>>> schedule = BergerSchedule(n);
    ASSERT_TRUE(schedule.ok()) << schedule.status();
    EXPECT_EQ(*schedule, expected);
  }
}

TEST(BergerTest, ThreeEntrantsHaveOneBoardAndOneByeEachRound) {
  absl::StatusOr<std::vector<std::vector<Board>>> schedule = BergerSchedule(3);
  ASSERT_TRUE(schedule.ok());
  EXPECT_THAT(*schedule, ElementsAre(ElementsAre(Board{2, 3}, Board{1, 0}),
                                     ElementsAre(Board{1, 2}, Board{3, 0}),
                                     ElementsAre(Board{3, 1}, Board{2, 0})));
}

TEST(BergerTest, TwoEntrantsPlayOneBoard) {
  absl::StatusOr<std::vector<std::vector<Board>>> schedule = BergerSchedule(2);
  ASSERT_TRUE(schedule.ok());
  EXPECT_THAT(*schedule, ElementsAre(ElementsAre(Board{1, 2})));
}

// Meetings by ordered (white, black) pair; byes by entrant.
struct Tally {
  std::map<std::pair<int, int>, int> games;
  std::map<int, int> byes;
  std::map<int, int> whites;
};

Tally Count(const std::vector<std::vector<Board>>& rounds) {
  Tally t;
  for (const auto& round : rounds) {
    for (const Board& b : round) {
      if (b.black == 0) {
        ++t.byes[b.white];
      } else {
        ++t.games[{b.white, b.black}];
        ++t.whites[b.white];
      }
    }
  }
  return t;
}

TEST(BergerTest, EveryoneMeetsEveryoneExactlyOnceAndPlaysOnceARound) {
  for (int n = 2; n <= 41; ++n) {
    SCOPED_TRACE(n);
    absl::StatusOr<std::vector<std::vector<Board>>> schedule = BergerSchedule(n);
    ASSERT_TRUE(schedule.ok());
    ASSERT_EQ(static_cast<int>(schedule->size()), BergerRounds(n));
    for (const auto& round : *schedule) {
      std::vector<int> seen;
      for (const Board& b : round) {
        seen.push_back(b.white);
        if (b.black != 0) seen.push_back(b.black);
      }
      std::sort(seen.begin(), seen.end());
      std::vector<int> all(n);
      for (int i = 0; i < n; ++i) all[i] = i + 1;
      EXPECT_EQ(seen, all);
      EXPECT_EQ(
          std::count_if(round.begin(), round.end(), [](const Board& b) { return b.black == 0; }),
          n % 2);
    }
    const Tally t = Count(*schedule);
    for (int a = 1; a <= n; ++a) {
      for (int b = a + 1; b <= n; ++b) {
        const int met = (t.games.count({a, b}) ? t.games.at({a, b}) : 0) +
                        (t.games.count({b, a}) ? t.games.at({b, a}) : 0);
        EXPECT_EQ(met, 1) << a << " v " << b;
      }
      EXPECT_EQ(t.byes.count(a) ? t.byes.at(a) : 0, n % 2) << a;
    }
  }
}

TEST(BergerTest, EvenCountsBalanceWhitesWithinOne) {
  for (int n = 2; n <= 40; n += 2) {
    SCOPED_TRACE(n);
    const Tally t = Count(*BergerSchedule(n));
    int least = n, most = 0;
    for (int e = 1; e <= n; ++e) {
      const int w = t.whites.count(e) ? t.whites.at(e) : 0;
      least = std::min(least, w);
      most = std::max(most, w);
    }
    EXPECT_LE(most - least, 1);
  }
}

TEST(BergerTest, LastEntrantAlternatesColourOnBoardOne) {
  for (int n = 4; n <= 20; n += 2) {
    SCOPED_TRACE(n);
    const auto schedule = *BergerSchedule(n);
    for (int r = 1; r <= n - 1; ++r) {
      const Board& first = schedule[r - 1][0];
      EXPECT_EQ(r % 2 == 1 ? first.black : first.white, n) << "round " << r;
    }
  }
}

TEST(BergerTest, RejectsTooFewOrTooManyEntrantsAndRoundsOutsideTheTable) {
  EXPECT_EQ(BergerSchedule(1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BergerSchedule(0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BergerSchedule(kMaxRoundRobinEntrants + 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BergerRound(6, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(BergerRound(6, 6).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(BergerRound(5, 5).ok());
}

// --- Double round robin ---------------------------------------------------------------------

TEST(DoubleRoundRobinTest, EveryPairMeetsTwiceOnceWithEachColour) {
  for (int n = 2; n <= 21; ++n) {
    SCOPED_TRACE(n);
    for (RoundRobinCycles order :
         {RoundRobinCycles::kSwapLastTwoOfFirstCycle, RoundRobinCycles::kAsPrinted}) {
      absl::StatusOr<std::vector<std::vector<Board>>> schedule = DoubleRoundRobin(n, order);
      ASSERT_TRUE(schedule.ok());
      ASSERT_EQ(static_cast<int>(schedule->size()), 2 * BergerRounds(n));
      const Tally t = Count(*schedule);
      for (int a = 1; a <= n; ++a) {
        for (int b = 1; b <= n; ++b) {
          if (a == b) continue;
          EXPECT_EQ(t.games.count({a, b}) ? t.games.at({a, b}) : 0, 1);
        }
        EXPECT_EQ(t.byes.count(a) ? t.byes.at(a) : 0, 2 * (n % 2));
      }
    }
  }
}

TEST(DoubleRoundRobinTest, SecondCycleIsTheTableInOrderWithColoursReversed) {
  const auto single = *BergerSchedule(6);
  const auto both = *DoubleRoundRobin(6);
  for (int r = 0; r < 5; ++r) {
    ASSERT_EQ(both[5 + r].size(), single[r].size());
    for (size_t k = 0; k < single[r].size(); ++k) {
      EXPECT_EQ(both[5 + r][k], (Board{single[r][k].black, single[r][k].white}));
    }
  }
  const auto odd_single = *BergerSchedule(5);
  const auto odd_both = *DoubleRoundRobin(5);
  EXPECT_EQ(odd_both[5].back(), odd_single[0].back());  // a bye stays a bye
}

TEST(DoubleRoundRobinTest, FirstCycleExchangesItsLastTwoRoundsByDefault) {
  const auto single = *BergerSchedule(8);
  const auto swapped = *DoubleRoundRobin(8);
  const auto printed = *DoubleRoundRobin(8, RoundRobinCycles::kAsPrinted);
  for (int r = 0; r < 5; ++r) EXPECT_EQ(swapped[r], single[r]);
  EXPECT_EQ(swapped[5], single[6]);
  EXPECT_EQ(swapped[6], single[5]);
  for (int r = 0; r < 7; ++r) EXPECT_EQ(printed[r], single[r]);
}

// The longest run of one colour (byes interrupt nothing: they are skipped).
int LongestColourRun(const std::vector<std::vector<Board>>& rounds, int entrant) {
  int longest = 0, run = 0, last = 0;  // last: 1 white, 2 black
  for (const auto& round : rounds) {
    for (const Board& b : round) {
      if (b.black == 0) continue;
      const int colour = b.white == entrant ? 1 : (b.black == entrant ? 2 : 0);
      if (colour == 0) continue;
      run = colour == last ? run + 1 : 1;
      last = colour;
      longest = std::max(longest, run);
    }
  }
  return longest;
}

TEST(DoubleRoundRobinTest, SwappingTheLastTwoRoundsAvoidsThreeSameColoursInARow) {
  for (int n = 4; n <= 20; n += 2) {
    SCOPED_TRACE(n);
    const auto swapped = *DoubleRoundRobin(n);
    const auto printed = *DoubleRoundRobin(n, RoundRobinCycles::kAsPrinted);
    for (int e = 1; e <= n; ++e) EXPECT_LE(LongestColourRun(swapped, e), 2) << e;
    // Why FIDE recommends it: as printed, entrants 1 and n/2 + 1 get three in a row.
    EXPECT_EQ(LongestColourRun(printed, 1), 3);
    EXPECT_EQ(LongestColourRun(printed, n / 2 + 1), 3);
  }
}

TEST(DoubleRoundRobinTest, RejectsOneEntrant) {
  EXPECT_EQ(DoubleRoundRobin(1).status().code(), absl::StatusCode::kInvalidArgument);
}

// --- Table layouts --------------------------------------------------------------------------

TEST(PlanTablesTest, FullTablesWhenTheCountDivides) {
  absl::StatusOr<TableLayout> layout = PlanTables(12, 4, 3);
  ASSERT_TRUE(layout.ok());
  EXPECT_THAT(layout->sizes, ElementsAre(4, 4, 4));
  EXPECT_EQ(layout->sitting_out, 0);
}

TEST(PlanTablesTest, AsFewShortTablesAsPossible) {
  EXPECT_THAT(PlanTables(14, 4, 2)->sizes, ElementsAre(4, 4, 4, 2));
  EXPECT_THAT(PlanTables(14, 4, 3)->sizes, ElementsAre(4, 4, 3, 3));
  EXPECT_THAT(PlanTables(13, 4, 3)->sizes, ElementsAre(4, 3, 3, 3));
  EXPECT_THAT(PlanTables(13, 5, 3)->sizes, ElementsAre(5, 5, 3));
  EXPECT_THAT(PlanTables(23, 8, 2)->sizes, ElementsAre(8, 8, 7));
}

TEST(PlanTablesTest, ShortfallSpreadEvenlyOverTheShortTables) {
  // 10 at tables of 3..8: two tables, short by 6 in all, 3 each rather than 5 and 1.
  EXPECT_THAT(PlanTables(10, 8, 3)->sizes, ElementsAre(5, 5));
  // 25 at tables of 5..8: four tables short by 7, at most 3 each: 3 short tables, 3+2+2.
  EXPECT_THAT(PlanTables(25, 8, 5)->sizes, ElementsAre(8, 6, 6, 5));
}

TEST(PlanTablesTest, SitOutsOnlyWhenNoLayoutFits) {
  absl::StatusOr<TableLayout> layout = PlanTables(13, 4, 4);
  ASSERT_TRUE(layout.ok());
  EXPECT_THAT(layout->sizes, ElementsAre(4, 4, 4));
  EXPECT_EQ(layout->sitting_out, 1);
  EXPECT_EQ(PlanTables(5, 4, 3)->sitting_out, 1);  // 5 is neither 3 + 3 nor one table
  EXPECT_THAT(PlanTables(5, 4, 3)->sizes, ElementsAre(4));
  EXPECT_EQ(PlanTables(7, 3, 3)->sitting_out, 1);
  EXPECT_EQ(PlanTables(5, 4, 2)->sitting_out, 0);
}

TEST(PlanTablesTest, RejectsBadSizes) {
  EXPECT_EQ(PlanTables(12, 9, 3).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanTables(12, 4, 5).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanTables(12, 4, 1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanTables(2, 4, 3).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanTables(kMaxTableEntrants + 1, 4, 4).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// --- Table schedules ------------------------------------------------------------------------

struct Meetings {
  int max = 0;
  int min = 0;
  std::vector<int> sat_out;  // by entrant, 1-based
};

// Checks that each round seats every entrant once (as the layout says) and counts meetings.
Meetings Check(const TableSpec& spec, const std::vector<TableRound>& rounds) {
  const TableLayout layout =
      *PlanTables(spec.entrants, spec.table_size, spec.min_table_size.value_or(spec.table_size));
  const int n = spec.entrants;
  std::vector<std::vector<int>> met(n + 1, std::vector<int>(n + 1, 0));
  Meetings m;
  m.sat_out.assign(n + 1, 0);
  EXPECT_EQ(static_cast<int>(rounds.size()), spec.rounds);
  for (const TableRound& round : rounds) {
    std::vector<int> seen;
    std::vector<int> sizes;
    for (const auto& table : round.tables) {
      sizes.push_back(table.size());
      EXPECT_TRUE(std::is_sorted(table.begin(), table.end()));
      for (size_t i = 0; i < table.size(); ++i) {
        seen.push_back(table[i]);
        for (size_t j = i + 1; j < table.size(); ++j) {
          ++met[table[i]][table[j]];
          ++met[table[j]][table[i]];
        }
      }
    }
    EXPECT_EQ(sizes, layout.sizes);
    EXPECT_EQ(static_cast<int>(round.sitting_out.size()), layout.sitting_out);
    for (int e : round.sitting_out) {
      seen.push_back(e);
      ++m.sat_out[e];
    }
    std::sort(seen.begin(), seen.end());
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) all[i] = i + 1;
    EXPECT_EQ(seen, all);
  }
  m.min = spec.rounds + 1;
  for (int a = 1; a <= n; ++a) {
    for (int b = a + 1; b <= n; ++b) {
      m.max = std::max(m.max, met[a][b]);
      m.min = std::min(m.min, met[a][b]);
    }
  }
  return m;
}

Meetings Schedule(const TableSpec& spec) {
  absl::StatusOr<std::vector<TableRound>> rounds = TableSchedule(spec);
  EXPECT_TRUE(rounds.ok()) << rounds.status();
  if (!rounds.ok()) return {};
  return Check(spec, *rounds);
}

TEST(TableScheduleTest, NineAtTablesOfThreeForFourRoundsMeetExactlyOnce) {
  // The affine plane of order 3 (Kirkman): every pair exactly once.
  for (uint64_t seed = 0; seed < 10; ++seed) {
    SCOPED_TRACE(seed);
    const Meetings m = Schedule({.entrants = 9, .table_size = 3, .rounds = 4, .seed = seed});
    EXPECT_EQ(m.max, 1);
    EXPECT_EQ(m.min, 1);
  }
}

TEST(TableScheduleTest, SixteenAtTablesOfFourForFiveRoundsMeetExactlyOnce) {
  // The affine plane of order 4.
  for (uint64_t seed = 0; seed < 3; ++seed) {
    SCOPED_TRACE(seed);
    const Meetings m = Schedule({.entrants = 16, .table_size = 4, .rounds = 5, .seed = seed});
    EXPECT_EQ(m.max, 1);
    EXPECT_EQ(m.min, 1);
  }
}

TEST(TableScheduleTest, KirkmansFifteenSchoolgirlsMeetExactlyOnce) {
  const Meetings m = Schedule({.entrants = 15, .table_size = 3, .rounds = 7, .seed = 1});
  EXPECT_EQ(m.max, 1);
  EXPECT_EQ(m.min, 1);
}

TEST(TableScheduleTest, EightAtTablesOfFourForSevenRoundsMeetExactlyThreeTimes) {
  // The planes of AG(3, 2): each pair shares exactly three of the fourteen.
  const Meetings m = Schedule({.entrants = 8, .table_size = 4, .rounds = 7, .seed = 3});
  EXPECT_EQ(m.max, 3);
  EXPECT_EQ(m.min, 3);
}

TEST(TableScheduleTest, SixtyFourAtTablesOfFourForTenRoundsNeverMeetTwiceAndQuickly) {
  const auto start = std::chrono::steady_clock::now();
  const Meetings m = Schedule({.entrants = 64, .table_size = 4, .rounds = 10, .seed = 7});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(m.max, 1);
  RecordProperty("seconds", std::to_string(seconds));
  EXPECT_LT(seconds, 1.0);  // typically a few milliseconds; the bound allows sanitizers
}

TEST(TableScheduleTest, MoreRoundsThanAPerfectDesignSpreadRepeatsEvenly) {
  // 9 at tables of 3 for 8 rounds: two copies of the affine plane, every pair exactly twice.
  Meetings m = Schedule({.entrants = 9, .table_size = 3, .rounds = 8, .seed = 2});
  EXPECT_EQ(m.max, 2);
  EXPECT_EQ(m.min, 2);
  // 16 at tables of 4 for 7 rounds: 168 meetings over 120 pairs, 1 or 2 each at best.
  m = Schedule({.entrants = 16, .table_size = 4, .rounds = 7, .seed = 2});
  EXPECT_EQ(m.max, 2);
  EXPECT_EQ(m.min, 1);
}

TEST(TableScheduleTest, ShortTablesAndSitOutsAreScheduledAndRotated) {
  // Muggins: 14 at tables of 3..4 (4, 4, 3, 3) for 4 rounds, nobody meeting twice.
  Meetings m =
      Schedule({.entrants = 14, .table_size = 4, .min_table_size = 3, .rounds = 4, .seed = 1});
  EXPECT_EQ(m.max, 1);
  // Moon: 10 at tables of exactly 3: one sits out each round, nobody twice before all once.
  const TableSpec moon{.entrants = 10, .table_size = 3, .rounds = 12, .seed = 5};
  m = Schedule(moon);
  const auto [least, most] = std::minmax_element(m.sat_out.begin() + 1, m.sat_out.end());
  EXPECT_EQ(*least, 1);
  EXPECT_EQ(*most, 2);
  const std::vector<TableRound> rounds = *TableSchedule(moon);
  std::vector<int> first_ten;
  for (int r = 0; r < 10; ++r) first_ten.push_back(rounds[r].sitting_out[0]);
  std::sort(first_ten.begin(), first_ten.end());
  EXPECT_THAT(first_ten, ElementsAre(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
}

TEST(TableScheduleTest, LargerEventsNeverRepeatAMeetingWhileTheyNeedNot) {
  for (const TableSpec& spec :
       {TableSpec{.entrants = 40, .table_size = 3, .rounds = 12},
        TableSpec{.entrants = 100, .table_size = 6, .rounds = 10},
        TableSpec{.entrants = 78, .table_size = 8, .min_table_size = 5, .rounds = 4},
        TableSpec{.entrants = 50, .table_size = 6, .min_table_size = 4, .rounds = 5},
        TableSpec{.entrants = 33, .table_size = 4, .min_table_size = 3, .rounds = 8},
        TableSpec{.entrants = 500, .table_size = 4, .min_table_size = 3, .rounds = 30}}) {
    SCOPED_TRACE(spec.entrants);
    const Meetings m = Schedule(spec);
    EXPECT_EQ(m.max, 1);
  }
}

TEST(TableScheduleTest, HeadToHeadTablesFindARoundRobin) {
  // Tables of 2 for n - 1 rounds: the search rediscovers a one-factorisation.
  const Meetings m = Schedule({.entrants = 20, .table_size = 2, .rounds = 19, .seed = 4});
  EXPECT_EQ(m.max, 1);
  EXPECT_EQ(m.min, 1);
}

TEST(TableScheduleTest, SameSpecSameScheduleAndSeedsDiffer) {
  const TableSpec spec{.entrants = 20, .table_size = 4, .rounds = 5, .seed = 11};
  const auto a = *TableSchedule(spec);
  const auto b = *TableSchedule(spec);
  ASSERT_EQ(a.size(), b.size());
  for (size_t r = 0; r < a.size(); ++r) EXPECT_EQ(a[r].tables, b[r].tables);
  TableSpec other = spec;
  other.seed = 12;
  const auto c = *TableSchedule(other);
  bool differs = false;
  for (size_t r = 0; r < a.size(); ++r) differs |= a[r].tables != c[r].tables;
  EXPECT_TRUE(differs);
}

TEST(TableScheduleTest, OneTableSeatsEveryoneTogether) {
  const Meetings m = Schedule({.entrants = 4, .table_size = 4, .rounds = 3});
  EXPECT_EQ(m.max, 3);
  EXPECT_EQ(m.min, 3);
}

TEST(TableScheduleTest, RejectsBadRoundsAndSizes) {
  EXPECT_EQ(TableSchedule({.entrants = 12, .table_size = 4, .rounds = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TableSchedule({.entrants = 12, .table_size = 4, .rounds = kMaxTableRounds + 1})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TableSchedule({.entrants = 12, .table_size = 1, .rounds = 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TableSchedule({.entrants = 1, .table_size = 3, .rounds = 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace boneyard::tournament
