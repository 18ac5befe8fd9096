// The Swiss dispatcher: the Dutch system up to the event's size limit, the fast mode above it,
// counting only the entrants to be paired (absences and withdrawals do not count).
#include "services/matchmaking/tournament/swiss.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/dutch.h"

namespace boneyard::tournament {
namespace {

EventRecord Field(int entrants) {
  EventRecord event;
  event.total_rounds = 5;
  for (int i = 1; i <= entrants; ++i) {
    Entrant e;
    e.tpn = i;
    e.name = absl::StrCat("P", i);
    e.rounds.resize(5);
    event.entrants.push_back(e);
  }
  return event;
}

TEST(SwissTest, FastModeOnlyAboveTheLimitOfEntrantsToPair) {
  EventRecord event = Field(11);
  EXPECT_EQ(ChooseSwissSystem(event, 1, {.fast_above = 10}), SwissSystem::kFast);
  EXPECT_EQ(ChooseSwissSystem(event, 1, {.fast_above = 11}), SwissSystem::kDutch);
  event.entrants[3].rounds[0].code = RoundCode::kHalfBye;  // absent from round 1
  EXPECT_EQ(ChooseSwissSystem(event, 1, {.fast_above = 10}), SwissSystem::kDutch);
  event.entrants[4].withdrawn = true;
  EXPECT_EQ(ChooseSwissSystem(event, 1, {.fast_above = 9}), SwissSystem::kDutch);
}

TEST(SwissTest, PairsByTheChosenSystem) {
  const EventRecord event = Field(8);
  const auto dutch = PairSwissRound(event, 1, {.fast_above = 8});
  ASSERT_TRUE(dutch.ok());
  EXPECT_EQ(*dutch, *PairDutchRound(event, 1));
  const auto fast = PairSwissRound(event, 1, {.fast_above = 4});
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->size(), 4u);
}

}  // namespace
}  // namespace boneyard::tournament
