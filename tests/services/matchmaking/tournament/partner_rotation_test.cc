// Partner rotation (partner_rotation.h): the whist designs' counts exactly for every size they
// cover, the search reaching a resolvable design, Eighty-Four's 3/4 and 4/6 counts, the search
// against exhaustive optima for small fields, fair sit-outs, the shape of every round, determinism,
// and bad input refused by field.
#include "services/matchmaking/tournament/partner_rotation.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament/partner_rotation_designs.h"

namespace boneyard::tournament {
namespace {

using ::testing::HasSubstr;

PartnerSchedule Schedule(int players, int team_size, int rounds = 0, uint64_t seed = 7) {
  absl::StatusOr<PartnerSchedule> s = PartnerRotationSchedule(
      {.players = players, .team_size = team_size, .rounds = rounds, .seed = seed});
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : PartnerSchedule{};
}

// Every round seats each player exactly once, in teams of team_size, or sits them out; and
// as many tables as the players fill.
void ExpectWellFormed(const PartnerSchedule& s, int players, int team_size) {
  for (size_t r = 0; r < s.rounds.size(); ++r) {
    const PartnerRound& round = s.rounds[r];
    std::vector<int> seen;
    for (const PartnerTable& t : round.tables) {
      ASSERT_EQ(t.team_a.size(), static_cast<size_t>(team_size)) << "round " << r + 1;
      ASSERT_EQ(t.team_b.size(), static_cast<size_t>(team_size)) << "round " << r + 1;
      seen.insert(seen.end(), t.team_a.begin(), t.team_a.end());
      seen.insert(seen.end(), t.team_b.begin(), t.team_b.end());
    }
    EXPECT_EQ(round.tables.size(), static_cast<size_t>(players / (2 * team_size)));
    seen.insert(seen.end(), round.sitting_out.begin(), round.sitting_out.end());
    std::sort(seen.begin(), seen.end());
    std::vector<int> everyone(players);
    for (int p = 0; p < players; ++p) everyone[p] = p + 1;
    EXPECT_EQ(seen, everyone) << "round " << r + 1;
  }
}

struct Extremes {
  int min_partners = 1 << 30, max_partners = 0, min_opponents = 1 << 30, max_opponents = 0;
};

Extremes ExtremesOf(const PairCounts& c) {
  Extremes e;
  for (int a = 1; a <= c.players(); ++a) {
    for (int b = a + 1; b <= c.players(); ++b) {
      e.min_partners = std::min(e.min_partners, c.partners(a, b));
      e.max_partners = std::max(e.max_partners, c.partners(a, b));
      e.min_opponents = std::min(e.min_opponents, c.opponents(a, b));
      e.max_opponents = std::max(e.max_opponents, c.opponents(a, b));
    }
  }
  return e;
}

// The sizes with a stored design: every N = 4m or 4m + 1 up to 64 (57 is 1-rotational).
bool WhistStored(int n) { return n <= 64; }

TEST(PartnerRotationTest, WhistDesignsPartnerEveryPairOnceAndOpposeItTwice) {
  for (int n = 4; n <= 64; ++n) {
    if (n % 4 != 0 && n % 4 != 1) continue;
    SCOPED_TRACE(n);
    EXPECT_EQ(!StoredWhist(n).base.empty(), WhistStored(n));
    if (!WhistStored(n)) continue;
    const PartnerSchedule s = Schedule(n, 2);
    ExpectWellFormed(s, n, 2);
    ASSERT_EQ(s.rounds.size(), static_cast<size_t>(n % 4 == 0 ? n - 1 : n));
    const PairCounts c = CountPairs(n, s.rounds);
    for (int a = 1; a <= n; ++a) {
      for (int b = a + 1; b <= n; ++b) {
        ASSERT_EQ(c.partners(a, b), 1) << a << " and " << b;
        ASSERT_EQ(c.opponents(a, b), 2) << a << " and " << b;
      }
      EXPECT_EQ(c.sat_out(a), n % 4 == 0 ? 0 : 1) << a;
    }
    EXPECT_EQ(s.design, PartnerDesign::kWhist);
  }
}

// N = 4m + 3: the design for N + 1 with one player missing. Nobody partners twice or opposes
// three times, each sits out exactly three of the N rounds, and not two running.
TEST(PartnerRotationTest, OneShortOfAWhistDesignKeepsItsCountsAndSitsOutEvenly) {
  for (int n = 7; n <= 63; n += 4) {
    if (!WhistStored(n + 1)) continue;
    SCOPED_TRACE(n);
    const PartnerSchedule s = Schedule(n, 2);
    EXPECT_EQ(s.design, PartnerDesign::kWhistLessOne);
    ASSERT_EQ(s.rounds.size(), static_cast<size_t>(n));
    ExpectWellFormed(s, n, 2);
    const PairCounts c = CountPairs(n, s.rounds);
    const Extremes e = ExtremesOf(c);
    EXPECT_EQ(e.max_partners, 1);
    EXPECT_EQ(e.max_opponents, 2);
    for (int a = 1; a <= n; ++a) EXPECT_EQ(c.sat_out(a), 3) << a;
    // The rounds are ordered to spread each player's sit-outs: from 11 players on nobody sits
    // out twice running (at 7 the missing player's tablemates form a difference set mod 7,
    // so some must).
    for (size_t r = 1; n >= 11 && r < s.rounds.size(); ++r) {
      for (int p : s.rounds[r].sitting_out) {
        EXPECT_EQ(
            std::count(s.rounds[r - 1].sitting_out.begin(), s.rounds[r - 1].sitting_out.end(), p),
            0)
            << p << " sits out rounds " << r << " and " << r + 1;
      }
    }
  }
}

TEST(PartnerRotationTest, EightPlayerEightyFourPartnersEachPairThreeTimesAndOpposesItFour) {
  const PartnerSchedule s = Schedule(8, 4);
  EXPECT_EQ(s.design, PartnerDesign::kAffine);
  ASSERT_EQ(s.rounds.size(), 7u);
  ExpectWellFormed(s, 8, 4);
  const Extremes e = ExtremesOf(CountPairs(8, s.rounds));
  EXPECT_EQ(e.min_partners, 3);
  EXPECT_EQ(e.max_partners, 3);
  EXPECT_EQ(e.min_opponents, 4);
  EXPECT_EQ(e.max_opponents, 4);
  // No split twice, so every round is a new pair of teams.
  std::set<std::vector<int>> teams;
  for (const PartnerRound& r : s.rounds) teams.insert(r.tables[0].team_a);
  EXPECT_EQ(teams.size(), 7u);
}

TEST(PartnerRotationTest, SixPlayerEightyFourPlaysEverySplitInTenRounds) {
  const PartnerSchedule s = Schedule(6, 3);
  EXPECT_EQ(s.design, PartnerDesign::kAllSplits);
  ASSERT_EQ(s.rounds.size(), 10u);
  ExpectWellFormed(s, 6, 3);
  const Extremes e = ExtremesOf(CountPairs(6, s.rounds));
  EXPECT_EQ(e.min_partners, 4);
  EXPECT_EQ(e.max_partners, 4);
  EXPECT_EQ(e.min_opponents, 6);
  EXPECT_EQ(e.max_opponents, 6);
}

// The best (most partnerings of a pair, most opposings of a pair) over every choice of one
// split per round among `splits`, found by trying them all.
std::pair<int, int> ExhaustiveBest(int players,
                                   const std::vector<std::vector<PartnerRound>>& choices) {
  std::pair<int, int> best{1 << 30, 1 << 30};
  std::vector<PartnerRound> rounds(choices.size());
  std::function<void(size_t)> go = [&](size_t r) {
    if (r == choices.size()) {
      const Extremes e = ExtremesOf(CountPairs(players, rounds));
      best = std::min(best, std::pair{e.max_partners, e.max_opponents});
      return;
    }
    for (const PartnerRound& c : choices[r]) {
      rounds[r] = c;
      go(r + 1);
    }
  };
  go(0);
  return best;
}

// Every way to seat `seated` (2 x team_size players) at one table in two teams.
std::vector<PartnerRound> OneTableSplits(const std::vector<int>& seated, int team_size,
                                         const std::vector<int>& sitting_out) {
  std::vector<PartnerRound> out;
  const int n = static_cast<int>(seated.size());
  for (int mask = 0; mask < (1 << n); ++mask) {
    if (__builtin_popcount(mask) != team_size || !(mask & 1)) continue;  // seated[0] in team_a
    PartnerTable t;
    for (int i = 0; i < n; ++i) ((mask >> i) & 1 ? t.team_a : t.team_b).push_back(seated[i]);
    out.push_back({{t}, sitting_out});
  }
  return out;
}

// Where no design is perfect, the search is as good as trying every schedule: one table, with
// the search's own sit-outs, for every length up to what exhaustion affords.
TEST(PartnerRotationTest, SearchMatchesTheExhaustiveOptimumForOneTable) {
  struct Case {
    int players, team_size, max_rounds;
  };
  // (Seven in teams of 2 is the 8-player design less one: a design, not searched.)
  for (const Case& c : {Case{6, 3, 6}, Case{6, 2, 6}, Case{7, 3, 5}}) {
    for (int rounds = 1; rounds <= c.max_rounds; ++rounds) {
      if (c.players == 6 && c.team_size == 3 && rounds % 10 == 0) continue;
      SCOPED_TRACE(testing::Message() << c.players << " players, teams of " << c.team_size << ", "
                                      << rounds << " rounds");
      const PartnerSchedule s = Schedule(c.players, c.team_size, rounds);
      EXPECT_EQ(s.design, PartnerDesign::kSearched);
      ExpectWellFormed(s, c.players, c.team_size);
      std::vector<std::vector<PartnerRound>> choices;
      for (const PartnerRound& r : s.rounds) {
        std::vector<int> seated = r.tables[0].team_a;
        seated.insert(seated.end(), r.tables[0].team_b.begin(), r.tables[0].team_b.end());
        std::sort(seated.begin(), seated.end());
        choices.push_back(OneTableSplits(seated, c.team_size, r.sitting_out));
      }
      const Extremes e = ExtremesOf(CountPairs(c.players, s.rounds));
      EXPECT_EQ(std::pair(e.max_partners, e.max_opponents), ExhaustiveBest(c.players, choices));
    }
  }
}

// Where a resolvable design exists the search reaches it: 16 players in teams of 4 for 5
// rounds partner every pair exactly once (120 partnerings over 120 pairs).
TEST(PartnerRotationTest, SearchFindsAResolvableDesignWhereOneExists) {
  const PartnerSchedule s = Schedule(16, 4, 5);
  EXPECT_EQ(s.design, PartnerDesign::kSearched);
  ExpectWellFormed(s, 16, 4);
  const Extremes e = ExtremesOf(CountPairs(16, s.rounds));
  EXPECT_EQ(e.min_partners, 1);
  EXPECT_EQ(e.max_partners, 1);
  EXPECT_EQ(e.max_opponents, 2);
}

TEST(PartnerRotationTest, SitOutsRotateSoNobodySitsOutTwiceBeforeEveryoneOnce) {
  for (const auto& [players, team_size] : {std::pair{10, 2}, {14, 2}, {14, 3}, {19, 4}}) {
    SCOPED_TRACE(testing::Message() << players << " players, teams of " << team_size);
    const PartnerSchedule s = Schedule(players, team_size, 12);
    ExpectWellFormed(s, players, team_size);
    std::vector<int> sat(players + 1, 0);
    for (const PartnerRound& r : s.rounds) {
      for (int p : r.sitting_out) ++sat[p];
      const auto [lo, hi] = std::minmax_element(sat.begin() + 1, sat.end());
      EXPECT_LE(*hi - *lo, 1);
    }
  }
}

TEST(PartnerRotationTest, SearchedSchedulesStayNearEven) {
  // 10 players in teams of 2 for 9 rounds: 2 tables, 2 sit out; 36 partnerings over 45 pairs,
  // so nobody need partner anyone twice, and 72 opposings: at most twice.
  const Extremes ten = ExtremesOf(CountPairs(10, Schedule(10, 2, 9).rounds));
  EXPECT_EQ(ten.max_partners, 1);
  EXPECT_EQ(ten.max_opponents, 2);
  // 30 players for 29 rounds: 7 tables, 2 sit out; 406 partnerings over 435 pairs, so
  // nobody partners anyone twice.
  EXPECT_EQ(ExtremesOf(CountPairs(30, Schedule(30, 2, 29).rounds)).max_partners, 1);
  // 62 players (the largest field short of a design) for 61 rounds: 15 tables, 2 sit out. The
  // search does not reach the floor here (see partner_rotation.h): it stays within these.
  const PartnerSchedule s = Schedule(62, 2, 61);
  ExpectWellFormed(s, 62, 2);
  const Extremes big = ExtremesOf(CountPairs(62, s.rounds));
  EXPECT_LE(big.max_partners, 2);
  EXPECT_LE(big.max_opponents, 4);
}

TEST(PartnerRotationTest, RoundsBeyondADesignRepeatItFromTheStart) {
  const PartnerSchedule s = Schedule(8, 2, 10);
  ASSERT_EQ(s.rounds.size(), 10u);
  for (int r = 7; r < 10; ++r) {
    EXPECT_EQ(s.rounds[r].tables.size(), s.rounds[r - 7].tables.size());
    for (size_t t = 0; t < s.rounds[r].tables.size(); ++t) {
      EXPECT_EQ(s.rounds[r].tables[t].team_a, s.rounds[r - 7].tables[t].team_a);
      EXPECT_EQ(s.rounds[r].tables[t].team_b, s.rounds[r - 7].tables[t].team_b);
    }
  }
}

std::vector<std::vector<int>> Flatten(const PartnerSchedule& s) {
  std::vector<std::vector<int>> out;
  for (const PartnerRound& r : s.rounds) {
    for (const PartnerTable& t : r.tables) {
      out.push_back(t.team_a);
      out.push_back(t.team_b);
    }
    out.push_back(r.sitting_out);
  }
  return out;
}

TEST(PartnerRotationTest, TheSameSpecGivesTheSameScheduleAndSeedsRelabel) {
  for (const auto& [players, team_size] : {std::pair{13, 2}, {10, 2}, {8, 4}}) {
    EXPECT_EQ(Flatten(Schedule(players, team_size, 0, 11)),
              Flatten(Schedule(players, team_size, 0, 11)));
    EXPECT_NE(Flatten(Schedule(players, team_size, 0, 11)),
              Flatten(Schedule(players, team_size, 0, 12)));
  }
}

TEST(PartnerRotationTest, DefaultRoundsAreTheDesignsLengthOrEnoughToPartnerEveryone) {
  EXPECT_EQ(DefaultPartnerRounds(8, 2), 7);
  EXPECT_EQ(DefaultPartnerRounds(9, 2), 9);
  EXPECT_EQ(DefaultPartnerRounds(10, 2), 9);
  EXPECT_EQ(DefaultPartnerRounds(11, 2), 11);  // the 12-player design less one
  EXPECT_EQ(DefaultPartnerRounds(8, 4), 7);
  EXPECT_EQ(DefaultPartnerRounds(6, 3), 10);
  EXPECT_EQ(DefaultPartnerRounds(12, 3), 6);  // 11 others, 2 partners a round
  EXPECT_EQ(DefaultPartnerRounds(16, 4), 5);  // 15 others, 3 partners a round
}

TEST(PartnerRotationTest, BadSpecsAreRefusedNamingTheField) {
  auto error = [](PartnerRotationSpec spec) {
    absl::StatusOr<PartnerSchedule> s = PartnerRotationSchedule(spec);
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(s.status().message());
  };
  EXPECT_THAT(error({.players = 8, .team_size = 1}), HasSubstr("team_size"));
  EXPECT_THAT(error({.players = 8, .team_size = 5}), HasSubstr("team_size"));
  EXPECT_THAT(error({.players = 3, .team_size = 2}), HasSubstr("players"));
  EXPECT_THAT(error({.players = 7, .team_size = 4}), HasSubstr("players"));
  EXPECT_THAT(error({.players = kMaxPartnerRotationPlayers + 1}), HasSubstr("players"));
  EXPECT_THAT(error({.players = 8, .rounds = -1}), HasSubstr("rounds"));
  EXPECT_THAT(error({.players = 8, .rounds = kMaxPartnerRotationRounds + 1}), HasSubstr("rounds"));
}

}  // namespace
}  // namespace boneyard::tournament
