// A queue's settings as the matching library's rules (services/matchmaking/queue_settings.h);
// the checks against the engine are exercised through the RPCs (players_and_queues_test.cc).
#include "services/matchmaking/queue_settings.h"

#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

TEST(MatchingRulesOf, CarriesTheFormatTheWindowAndTheBotFill) {
  v1::Queue queue;
  queue.set_display_name("Eighty-Four");
  queue.set_game("eighty_four");
  queue.mutable_format()->mutable_teams()->set_teams(2);
  queue.mutable_format()->mutable_teams()->set_team_size(4);
  queue.mutable_window()->set_initial(2);
  queue.mutable_window()->set_per_second(0.5);
  queue.mutable_window()->set_max(12);
  queue.mutable_bot_fill()->set_enabled(true);
  queue.mutable_bot_fill()->mutable_after()->set_seconds(45);
  ASSERT_TRUE(CheckQueueSettings(queue).ok()) << CheckQueueSettings(queue);
  const QueueRules rules = MatchingRulesOf(queue);
  EXPECT_EQ(rules.format.kind, FormatKind::kTeams);
  EXPECT_EQ(rules.format.seats(), 8);
  EXPECT_EQ(rules.widening.At(absl::Seconds(4)), 4);
  EXPECT_EQ(rules.widening.At(absl::Hours(1)), 12);
  EXPECT_TRUE(rules.bot_fill.enabled);
  EXPECT_EQ(rules.bot_fill.after, absl::Seconds(45));
  EXPECT_TRUE(ValidateRules(rules).ok());

  queue.set_game("mexican_train");
  queue.mutable_format()->mutable_free_for_all()->set_min_players(4);
  queue.mutable_format()->mutable_free_for_all()->set_max_players(6);
  queue.mutable_format()->mutable_free_for_all()->mutable_short_table_after()->set_seconds(20);
  ASSERT_TRUE(CheckQueueSettings(queue).ok()) << CheckQueueSettings(queue);
  const QueueRules tables = MatchingRulesOf(queue);
  EXPECT_EQ(tables.format.kind, FormatKind::kFreeForAll);
  EXPECT_EQ(tables.format.min_players, 4);
  EXPECT_EQ(tables.format.max_players, 6);
  EXPECT_EQ(tables.format.short_table_after, absl::Seconds(20));
}

}  // namespace
}  // namespace boneyard::matchmaking
