// Knockouts (services/matchmaking/tournament/knockout.h): seeding, the shape of single and
// double elimination brackets with and without byes, whole brackets played out with random
// results, stored results replayed in any order, and best-of-N series.
#include "services/matchmaking/tournament/knockout.h"

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

Bracket Make(int entrants, Elimination elimination = Elimination::kSingle,
             BracketReset reset = BracketReset::kIfLosersBracketWins) {
  absl::StatusOr<Bracket> bracket = MakeBracket({entrants, elimination, reset});
  EXPECT_TRUE(bracket.ok()) << bracket.status();
  return *bracket;
}

BracketState Evaluate(const Bracket& bracket, const std::vector<TieResult>& results) {
  absl::StatusOr<BracketState> state = EvaluateBracket(bracket, results);
  EXPECT_TRUE(state.ok()) << state.status();
  return *state;
}

// Plays every ready tie until the bracket finishes; `pick` chooses the winner of two seeds.
template <typename Pick>
std::vector<TieResult> PlayOut(const Bracket& bracket, Pick pick) {
  std::vector<TieResult> results;
  for (int guard = 0; guard < 10000; ++guard) {
    const BracketState state = Evaluate(bracket, results);
    if (state.finished()) {
      EXPECT_THAT(state.ready, IsEmpty());
      return results;
    }
    EXPECT_FALSE(state.ready.empty()) << "stuck before the end";
    if (state.ready.empty()) return results;
    for (int id : state.ready) {
      const auto& [a, b] = state.ties[id].entrants;
      results.push_back({id, pick(a, b)});
    }
  }
  ADD_FAILURE() << "never finished";
  return results;
}

int HigherSeed(int a, int b) { return std::min(a, b); }

// The seeds that can reach a tie's slot.
std::set<int> Reach(const Bracket& bracket, const Feed& feed) {
  if (feed.kind == Feed::Kind::kSeed) return {feed.value};
  std::set<int> seeds;
  for (const Feed& f : bracket.ties[feed.value].slots) {
    const std::set<int> more = Reach(bracket, f);
    seeds.insert(more.begin(), more.end());
  }
  return seeds;
}

bool OppositeSides(const Bracket& bracket, const Tie& tie, int x, int y) {
  const std::set<int> upper = Reach(bracket, tie.slots[0]), lower = Reach(bracket, tie.slots[1]);
  return (upper.count(x) && lower.count(y)) || (upper.count(y) && lower.count(x));
}

// --- Seeding --------------------------------------------------------------------------------

TEST(SeedLinesTest, SixteenLinesFollowTheStandardOrder) {
  EXPECT_THAT(*SeedLines(16), ElementsAre(1, 16, 8, 9, 5, 12, 4, 13, 6, 11, 3, 14, 7, 10, 2, 15));
}

TEST(SeedLinesTest, SmallerBracketsPairOneWithTheLastAndTwoAtTheBottom) {
  EXPECT_THAT(*SeedLines(2), ElementsAre(1, 2));
  EXPECT_THAT(*SeedLines(4), ElementsAre(1, 4, 2, 3));
  EXPECT_THAT(*SeedLines(8), ElementsAre(1, 8, 4, 5, 3, 6, 2, 7));
}

TEST(SeedLinesTest, TopSeedsAreInDifferentSubBracketsAtEveryLevel) {
  for (int size = 2; size <= kMaxKnockoutEntrants; size *= 2) {
    SCOPED_TRACE(size);
    const std::vector<int> lines = *SeedLines(size);
    std::vector<int> sorted = lines;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < size; ++i) ASSERT_EQ(sorted[i], i + 1);
    for (int i = 0; i < size; i += 2) {
      EXPECT_EQ(lines[i] + lines[i + 1], size + 1);  // s meets size + 1 - s in round 1
      EXPECT_LT(lines[i], lines[i + 1]);             // the higher seed on the upper line
    }
    // With 2^j blocks, seeds 1 .. 2^j are one to a block: they can meet only when the blocks
    // merge (1 and 2 in the final, 1 to 4 from the semi-finals, ...).
    for (int blocks = 2; blocks <= size; blocks *= 2) {
      std::set<int> seen;
      for (int i = 0; i < size; ++i) {
        if (lines[i] <= blocks) seen.insert(i / (size / blocks));
      }
      EXPECT_EQ(static_cast<int>(seen.size()), blocks);
    }
  }
}

TEST(SeedLinesTest, RejectsSizesThatAreNotPowersOfTwo) {
  EXPECT_EQ(SeedLines(12).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SeedLines(1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SeedLines(2048).status().code(), absl::StatusCode::kInvalidArgument);
}

// --- Single elimination: shape --------------------------------------------------------------

TEST(SingleEliminationTest, HasOneTieFewerThanEntrantsAndTheFinalLast) {
  for (int n = 2; n <= 70; ++n) {
    const Bracket bracket = Make(n);
    EXPECT_EQ(static_cast<int>(bracket.ties.size()), n - 1) << n;
    for (const Tie& tie : bracket.ties) EXPECT_EQ(tie.part, BracketPart::kWinners);
  }
}

TEST(SingleEliminationTest, SeedsOneAndTwoAreInOppositeHalves) {
  for (int n = 2; n <= 70; ++n) {
    SCOPED_TRACE(n);
    const Bracket bracket = Make(n);
    const Tie& final = bracket.ties.back();
    const std::set<int> upper = Reach(bracket, final.slots[0]);
    const std::set<int> lower = Reach(bracket, final.slots[1]);
    EXPECT_TRUE(upper.count(1));
    EXPECT_TRUE(lower.count(2));
    EXPECT_EQ(static_cast<int>(upper.size() + lower.size()), n);
    if (n >= 4) {
      // And 3, 4 on opposite sides of each semi-final.
      const Tie& top = bracket.ties[final.slots[0].value];
      const Tie& bottom = bracket.ties[final.slots[1].value];
      EXPECT_TRUE(OppositeSides(bracket, top, 1, 4));
      EXPECT_TRUE(OppositeSides(bracket, bottom, 2, 3));
    }
  }
}

TEST(SingleEliminationTest, ByesOnlyInRoundOneAndToTheTopSeeds) {
  for (int n = 2; n <= 70; ++n) {
    SCOPED_TRACE(n);
    const Bracket bracket = Make(n);
    std::vector<int> byes;
    for (const Tie& tie : bracket.ties) {
      for (const Feed& f : tie.slots) {
        if (f.kind != Feed::Kind::kSeed) continue;
        EXPECT_LE(tie.round, 2);
        if (tie.round == 2) byes.push_back(f.value);
      }
    }
    std::sort(byes.begin(), byes.end());
    std::vector<int> top(bracket.size - n);
    for (int i = 0; i < bracket.size - n; ++i) top[i] = i + 1;
    EXPECT_EQ(byes, top);
  }
}

TEST(SingleEliminationTest, FiveEntrantsLeaveOnePlayInTieAndTwoByesMeetInRoundTwo) {
  const Bracket bracket = Make(5);
  const BracketState state = Evaluate(bracket, {});
  ASSERT_EQ(state.ready.size(), 2u);
  EXPECT_EQ(state.ties[state.ready[0]].entrants, (std::array<int, 2>{4, 5}));
  EXPECT_EQ(state.ties[state.ready[1]].entrants, (std::array<int, 2>{3, 2}));
}

// --- Single elimination: playing --------------------------------------------------------------

std::map<int, int> Losses(const Bracket& bracket, const std::vector<TieResult>& results) {
  const BracketState state = Evaluate(bracket, results);
  std::map<int, int> losses;
  for (const TieState& ts : state.ties) {
    if (ts.status != TieStatus::kDecided) continue;
    ++losses[ts.entrants[0] == ts.winner ? ts.entrants[1] : ts.entrants[0]];
  }
  return losses;
}

std::vector<int> Places(const BracketState& state) {
  std::vector<int> places;
  for (const Placing& p : state.placings) places.push_back(p.place);
  return places;
}

TEST(SingleEliminationTest, RandomResultsEndWithAFullPlacingAndOneLossForAllButTheChampion) {
  std::mt19937 rng(21);
  for (int n = 2; n <= 70; ++n) {
    for (int trial = 0; trial < 3; ++trial) {
      SCOPED_TRACE(n);
      const Bracket bracket = Make(n);
      const auto results = PlayOut(bracket, [&](int a, int b) { return rng() % 2 ? a : b; });
      const BracketState state = Evaluate(bracket, results);
      ASSERT_TRUE(state.finished());
      ASSERT_EQ(static_cast<int>(state.placings.size()), n);
      const std::map<int, int> losses = Losses(bracket, results);
      for (int e = 1; e <= n; ++e) {
        EXPECT_EQ(losses.count(e) ? losses.at(e) : 0, e == *state.champion ? 0 : 1);
      }
      EXPECT_EQ(state.placings[0].entrant, *state.champion);
      EXPECT_EQ(state.placings[0].place, 1);
      EXPECT_EQ(state.placings[1].place, 2);
      // A place is one more than the number placed above it.
      for (const Placing& p : state.placings) {
        EXPECT_EQ(p.place, 1 + std::count_if(state.placings.begin(), state.placings.end(),
                                             [&](const Placing& q) { return q.place < p.place; }));
      }
    }
  }
}

TEST(SingleEliminationTest, EntrantsOutInTheSameRoundShareAPlace) {
  const Bracket bracket = Make(16);
  const BracketState state = Evaluate(bracket, PlayOut(bracket, HigherSeed));
  EXPECT_THAT(Places(state), ElementsAre(1, 2, 3, 3, 5, 5, 5, 5, 9, 9, 9, 9, 9, 9, 9, 9));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(state.placings[i].entrant, i + 1);
  // With byes the places count the entrants, not the lines: 6 play one round-1 tie.
  const Bracket six = Make(6);
  EXPECT_THAT(Places(Evaluate(six, PlayOut(six, HigherSeed))), ElementsAre(1, 2, 3, 3, 5, 5));
}

TEST(SingleEliminationTest, PlacesAreSettledAsEntrantsGoOut) {
  const Bracket bracket = Make(8);
  std::vector<TieResult> results;
  for (int id : Evaluate(bracket, {}).ready) {
    results.push_back(
        {id, HigherSeed(bracket.ties[id].slots[0].value, bracket.ties[id].slots[1].value)});
  }
  const BracketState state = Evaluate(bracket, results);
  EXPECT_FALSE(state.finished());
  ASSERT_EQ(state.placings.size(), 4u);
  for (const Placing& p : state.placings) EXPECT_EQ(p.place, 5);
  EXPECT_EQ(state.ready.size(), 2u);
}

// --- Double elimination ---------------------------------------------------------------------

TEST(DoubleEliminationTest, EightEntrantsPlaceOneTwoThreeFourFiveFiveSevenSeven) {
  const Bracket bracket = Make(8, Elimination::kDouble);
  const BracketState state = Evaluate(bracket, PlayOut(bracket, HigherSeed));
  EXPECT_THAT(Places(state), ElementsAre(1, 2, 3, 4, 5, 5, 7, 7));
  EXPECT_EQ(*state.champion, 1);
  EXPECT_EQ(state.placings[1].entrant, 2);
}

TEST(DoubleEliminationTest, EveryoneButTheChampionLosesTwiceWithAReset) {
  std::mt19937 rng(42);
  for (int n = 2; n <= 70; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      SCOPED_TRACE(n);
      const Bracket bracket = Make(n, Elimination::kDouble);
      const auto results = PlayOut(bracket, [&](int a, int b) { return rng() % 2 ? a : b; });
      const BracketState state = Evaluate(bracket, results);
      ASSERT_TRUE(state.finished());
      ASSERT_EQ(static_cast<int>(state.placings.size()), n);
      const std::map<int, int> losses = Losses(bracket, results);
      for (int e = 1; e <= n; ++e) {
        const int lost = losses.count(e) ? losses.at(e) : 0;
        if (e == *state.champion) {
          EXPECT_LE(lost, 1);
        } else {
          EXPECT_EQ(lost, 2) << e;
        }
      }
      for (const Placing& p : state.placings) {
        EXPECT_EQ(p.place, 1 + std::count_if(state.placings.begin(), state.placings.end(),
                                             [&](const Placing& q) { return q.place < p.place; }));
      }
    }
  }
}

TEST(DoubleEliminationTest, WithoutAResetTheRunnerUpMayHaveLostOnlyOnce) {
  std::mt19937 rng(7);
  int single_loss_runners_up = 0;
  for (int n = 2; n <= 40; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      SCOPED_TRACE(n);
      const Bracket bracket = Make(n, Elimination::kDouble, BracketReset::kNever);
      for (const Tie& tie : bracket.ties) EXPECT_NE(tie.part, BracketPart::kGrandFinalReset);
      const auto results = PlayOut(bracket, [&](int a, int b) { return rng() % 2 ? a : b; });
      const BracketState state = Evaluate(bracket, results);
      ASSERT_TRUE(state.finished());
      ASSERT_EQ(static_cast<int>(state.placings.size()), n);
      const std::map<int, int> losses = Losses(bracket, results);
      const int runner_up = state.placings[1].entrant;
      for (int e = 1; e <= n; ++e) {
        const int lost = losses.count(e) ? losses.at(e) : 0;
        if (e == *state.champion) {
          EXPECT_LE(lost, 1);
        } else if (e == runner_up && lost == 1) {
          ++single_loss_runners_up;  // the winners' bracket winner, beaten once, in the final
        } else {
          EXPECT_EQ(lost, 2) << e;
        }
      }
    }
  }
  EXPECT_GT(single_loss_runners_up, 0);
}

// Plays the winners' bracket with the higher seed winning, the losers' bracket likewise.
std::vector<TieResult> UpToTheGrandFinal(const Bracket& bracket) {
  std::vector<TieResult> results;
  for (;;) {
    const BracketState state = Evaluate(bracket, results);
    bool progressed = false;
    for (int id : state.ready) {
      if (bracket.ties[id].part == BracketPart::kGrandFinal) continue;
      results.push_back({id, HigherSeed(state.ties[id].entrants[0], state.ties[id].entrants[1])});
      progressed = true;
    }
    if (!progressed) return results;
  }
}

TEST(DoubleEliminationTest, BracketResetIsPlayedOnlyWhenTheLosersBracketWinnerTakesTheFirst) {
  const Bracket bracket = Make(8, Elimination::kDouble);
  const int first = static_cast<int>(bracket.ties.size()) - 2;
  const int reset = first + 1;
  ASSERT_EQ(bracket.ties[first].part, BracketPart::kGrandFinal);
  ASSERT_EQ(bracket.ties[reset].part, BracketPart::kGrandFinalReset);
  std::vector<TieResult> results = UpToTheGrandFinal(bracket);
  BracketState state = Evaluate(bracket, results);
  ASSERT_THAT(state.ready, ElementsAre(first));
  EXPECT_EQ(state.ties[first].entrants, (std::array<int, 2>{1, 2}));
  EXPECT_EQ(state.ties[reset].status, TieStatus::kWaiting);

  // The winners' bracket winner takes it: no reset, 1 is champion.
  std::vector<TieResult> upper_wins = results;
  upper_wins.push_back({first, 1});
  state = Evaluate(bracket, upper_wins);
  EXPECT_EQ(state.ties[reset].status, TieStatus::kNotNeeded);
  EXPECT_EQ(state.champion, 1);

  // The losers' bracket winner takes it: the reset, with 1 on the upper line again.
  results.push_back({first, 2});
  state = Evaluate(bracket, results);
  EXPECT_FALSE(state.finished());
  EXPECT_THAT(state.ready, ElementsAre(reset));
  EXPECT_EQ(state.ties[reset].entrants, (std::array<int, 2>{1, 2}));
  ASSERT_EQ(state.placings.size(), 6u);  // 2 is not out yet, nor 1
  results.push_back({reset, 2});
  state = Evaluate(bracket, results);
  EXPECT_EQ(state.champion, 2);
  EXPECT_EQ(state.placings[1].entrant, 1);
  EXPECT_EQ(state.placings[1].place, 2);

  // A result for the reset when it is not needed is refused.
  upper_wins.push_back({reset, 2});
  EXPECT_EQ(EvaluateBracket(bracket, upper_wins).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(DoubleEliminationTest, WithoutAResetTheFirstGrandFinalDecides) {
  const Bracket bracket = Make(8, Elimination::kDouble, BracketReset::kNever);
  std::vector<TieResult> results = UpToTheGrandFinal(bracket);
  const int final = static_cast<int>(bracket.ties.size()) - 1;
  results.push_back({final, 2});
  const BracketState state = Evaluate(bracket, results);
  EXPECT_EQ(state.champion, 2);
  EXPECT_THAT(Places(state), ElementsAre(1, 2, 3, 4, 5, 5, 7, 7));
}

TEST(DoubleEliminationTest, TieCountIsTwiceTheEntrantsLessOneWithTheReset) {
  for (int n = 2; n <= 70; ++n) {
    EXPECT_EQ(static_cast<int>(Make(n, Elimination::kDouble).ties.size()), 2 * n - 1) << n;
    EXPECT_EQ(static_cast<int>(Make(n, Elimination::kDouble, BracketReset::kNever).ties.size()),
              2 * n - 2)
        << n;
  }
}

TEST(DoubleEliminationTest, WinnersBracketLosersDropInAndByesStayInTheFirstRounds) {
  for (int n = 3; n <= 70; ++n) {
    SCOPED_TRACE(n);
    const Bracket bracket = Make(n, Elimination::kDouble);
    std::map<int, int> dropped;  // winners' tie → times its loser is fed somewhere
    for (const Tie& tie : bracket.ties) {
      for (const Feed& f : tie.slots) {
        if (f.kind == Feed::Kind::kSeed) {
          EXPECT_EQ(tie.part, BracketPart::kWinners);
          EXPECT_LE(tie.round, 2);
        }
        if (f.kind == Feed::Kind::kLoserOf && bracket.ties[f.value].part == BracketPart::kWinners) {
          ++dropped[f.value];
          EXPECT_EQ(tie.part, BracketPart::kLosers);
          // Winners' round k + 1 drops into losers' round 2k, in the lower slot, or later
          // when the survivor it was to meet is a bye (an empty losers' tie passes it on).
          const Tie& from = bracket.ties[f.value];
          if (from.round > 1) {
            EXPECT_GE(tie.round, 2 * (from.round - 1)) << tie.id;
            EXPECT_TRUE(tie.round > 2 * (from.round - 1) || &f == &tie.slots[1]) << tie.id;
          }
        }
      }
    }
    for (const Tie& tie : bracket.ties) {
      if (tie.part != BracketPart::kWinners) continue;
      EXPECT_EQ(dropped[tie.id], 1) << tie.id;
    }
  }
}

// Losers' ties whose two slots can hold entrants who have met before (share a feeding tie).
std::vector<const Tie*> PossibleRematches(const Bracket& bracket) {
  std::vector<std::set<int>> ancestors(bracket.ties.size());
  auto above = [&](const Feed& f) {
    std::set<int> s;
    if (f.kind != Feed::Kind::kSeed) {
      s = ancestors[f.value];
      s.insert(f.value);
    }
    return s;
  };
  std::vector<const Tie*> rematches;
  for (const Tie& tie : bracket.ties) {
    const std::set<int> upper = above(tie.slots[0]), lower = above(tie.slots[1]);
    ancestors[tie.id] = upper;
    ancestors[tie.id].insert(lower.begin(), lower.end());
    if (tie.part != BracketPart::kLosers) continue;
    if (std::any_of(upper.begin(), upper.end(), [&](int t) { return lower.count(t) > 0; })) {
      rematches.push_back(&tie);
    }
  }
  return rematches;
}

TEST(DoubleEliminationTest, CrossingKeepsPossibleRematchesToTheFewestAnXorCrossingAllows) {
  // The fewest, by exhaustive search over every XOR crossing of every drop-in round.
  const std::map<int, int> fewest = {{4, 1}, {8, 2}, {16, 4}, {32, 6}, {64, 6}, {128, 10}};
  for (const auto& [size, count] : fewest) {
    SCOPED_TRACE(size);
    const Bracket bracket = Make(size, Elimination::kDouble);
    const std::vector<const Tie*> rematches = PossibleRematches(bracket);
    EXPECT_EQ(static_cast<int>(rematches.size()), count);
    // Never in the first drop-in round, unless that is already the losers' final.
    for (const Tie* tie : rematches) EXPECT_TRUE(size == 4 || tie->round > 2);
  }
}

TEST(DoubleEliminationTest, FirstDropInsMeetSurvivorsFromTheOtherHalf) {
  const Bracket bracket = Make(16, Elimination::kDouble);
  for (const Tie& tie : bracket.ties) {
    if (tie.part != BracketPart::kLosers || tie.round != 2) continue;
    const std::set<int> survivor = Reach(bracket, tie.slots[0]);
    const std::set<int> drop_in = Reach(bracket, bracket.ties[tie.slots[1].value].slots[0]);
    const std::vector<int> lines = *SeedLines(16);
    auto half = [&](int seed) {
      return (std::find(lines.begin(), lines.end(), seed) - lines.begin()) / 8;
    };
    EXPECT_NE(half(*survivor.begin()), half(*drop_in.begin())) << tie.position;
  }
}

// --- Stored results -------------------------------------------------------------------------

TEST(EvaluateBracketTest, ResultsInAnyOrderGiveTheSameState) {
  std::mt19937 rng(5);
  for (Elimination e : {Elimination::kSingle, Elimination::kDouble}) {
    const Bracket bracket = Make(27, e);
    std::vector<TieResult> results =
        PlayOut(bracket, [&](int a, int b) { return rng() % 3 ? a : b; });
    results.resize(results.size() * 2 / 3);  // midway
    const BracketState in_order = Evaluate(bracket, results);
    std::shuffle(results.begin(), results.end(), rng);
    const BracketState shuffled = Evaluate(bracket, results);
    ASSERT_EQ(in_order.ties.size(), shuffled.ties.size());
    for (size_t i = 0; i < in_order.ties.size(); ++i) {
      EXPECT_EQ(in_order.ties[i].status, shuffled.ties[i].status);
      EXPECT_EQ(in_order.ties[i].entrants, shuffled.ties[i].entrants);
      EXPECT_EQ(in_order.ties[i].winner, shuffled.ties[i].winner);
    }
    EXPECT_EQ(in_order.ready, shuffled.ready);
    EXPECT_EQ(Places(in_order), Places(shuffled));
  }
}

TEST(EvaluateBracketTest, SameSpecSameBracket) {
  const Bracket a = Make(37, Elimination::kDouble), b = Make(37, Elimination::kDouble);
  ASSERT_EQ(a.ties.size(), b.ties.size());
  for (size_t i = 0; i < a.ties.size(); ++i) EXPECT_EQ(a.ties[i].slots, b.ties[i].slots);
}

TEST(EvaluateBracketTest, RefusesResultsThatDoNotFit) {
  const Bracket bracket = Make(8);
  const BracketState start = Evaluate(bracket, {});
  const int r1 = start.ready[0];
  const int final = static_cast<int>(bracket.ties.size()) - 1;
  EXPECT_EQ(EvaluateBracket(bracket, std::vector<TieResult>{{final, 1}}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(EvaluateBracket(bracket, std::vector<TieResult>{{r1, 2}}).status().code(),
            absl::StatusCode::kInvalidArgument);  // 2 is not in 1 v 8
  EXPECT_EQ(EvaluateBracket(bracket, std::vector<TieResult>{{r1, 1}, {r1, 1}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvaluateBracket(bracket, std::vector<TieResult>{{99, 1}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  Bracket broken = bracket;
  broken.ties[0].slots[0] = {Feed::Kind::kWinnerOf, 5};  // a feed pointing forwards
  EXPECT_EQ(EvaluateBracket(broken, {}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MakeBracketTest, RejectsFewerThanTwoOrTooManyEntrants) {
  EXPECT_EQ(MakeBracket({1}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeBracket({kMaxKnockoutEntrants + 1}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(MakeBracket({kMaxKnockoutEntrants, Elimination::kDouble}).ok());
}

// --- Series ---------------------------------------------------------------------------------

constexpr MatchOutcome kH = MatchOutcome::kHigherSeedWon;
constexpr MatchOutcome kL = MatchOutcome::kLowerSeedWon;
constexpr MatchOutcome kD = MatchOutcome::kDrawn;

SeriesState Series(int best_of, std::vector<MatchOutcome> outcomes, int extra = 2) {
  absl::StatusOr<SeriesState> state = EvaluateSeries({best_of, extra}, outcomes);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.value_or(SeriesState{});
}

TEST(SeriesTest, FirstToAMajorityOfTheScheduledMatchesWins) {
  EXPECT_EQ(Series(1, {kL}).winner, SeriesSide::kLowerSeed);
  EXPECT_FALSE(Series(3, {kH}).decided());
  EXPECT_FALSE(Series(3, {kH, kL}).decided());
  EXPECT_EQ(Series(3, {kH, kL, kH}).winner, SeriesSide::kHigherSeed);
  EXPECT_EQ(Series(5, {kL, kL, kH, kL}).winner, SeriesSide::kLowerSeed);
  const SeriesState s = Series(7, {kH, kH, kL, kH, kH});
  EXPECT_EQ(s.winner, SeriesSide::kHigherSeed);
  EXPECT_EQ(s.higher_seed_wins, 4);
  EXPECT_EQ(s.lower_seed_wins, 1);
  EXPECT_FALSE(s.decided_by_limit);
  EXPECT_FALSE(s.next_first.has_value());
}

TEST(SeriesTest, DrawsCountForNeitherSideAndAreReplayed) {
  SeriesState s = Series(3, {kD, kH, kD, kL});
  EXPECT_FALSE(s.decided());
  EXPECT_EQ(s.draws, 2);
  s = Series(3, {kD, kH, kD, kH});
  EXPECT_EQ(s.winner, SeriesSide::kHigherSeed);
}

TEST(SeriesTest, HigherSeedPlaysFirstInMatchOneThenSidesAlternateDrawsIncluded) {
  EXPECT_EQ(Series(5, {}).next_first, SeriesSide::kHigherSeed);
  EXPECT_EQ(Series(5, {kH}).next_first, SeriesSide::kLowerSeed);
  EXPECT_EQ(Series(5, {kH, kD}).next_first, SeriesSide::kHigherSeed);
  EXPECT_EQ(Series(5, {kH, kD, kL}).next_first, SeriesSide::kLowerSeed);
}

TEST(SeriesTest, AtTheMatchLimitMoreWinsGoesThroughElseTheHigherSeed) {
  // Best of 1 with 2 replays: three draws, and the higher seed goes through.
  SeriesState s = Series(1, {kD, kD, kD});
  EXPECT_EQ(s.winner, SeriesSide::kHigherSeed);
  EXPECT_TRUE(s.decided_by_limit);
  EXPECT_FALSE(Series(1, {kD, kD}).decided());
  // Best of 3 with no replays: 0-1 after three matches, the lower seed has more wins.
  s = Series(3, {kL, kD, kD}, 0);
  EXPECT_EQ(s.winner, SeriesSide::kLowerSeed);
  EXPECT_TRUE(s.decided_by_limit);
  // Level at the limit.
  s = Series(3, {kL, kD, kH, kD, kD});
  EXPECT_EQ(s.winner, SeriesSide::kHigherSeed);
  EXPECT_TRUE(s.decided_by_limit);
}

TEST(SeriesTest, RefusesOutcomesAfterTheEndAndBadRules) {
  EXPECT_EQ(EvaluateSeries({3, 2}, std::vector<MatchOutcome>{kH, kH, kL}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvaluateSeries({2, 2}, {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvaluateSeries({0, 2}, {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvaluateSeries({101, 2}, {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvaluateSeries({3, -1}, {}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace boneyard::tournament
