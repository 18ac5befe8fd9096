// A queue's settings as the matching library's rules (services/matchmaking/queue_settings.h);
// the checks against the engine are exercised through the RPCs (players_and_queues_test.cc).
#include "services/matchmaking/queue_settings.h"

#include <limits>
#include <string>

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

v1::Queue DuelWithBots() {
  v1::Queue queue;
  queue.set_display_name("Muggins against a bot");
  queue.set_game("muggins");
  queue.mutable_format()->mutable_head_to_head();
  queue.mutable_bot_fill()->set_enabled(true);
  return queue;
}

TEST(FillBotKind, SuitsTheBotToThePlayersSkill) {
  v1::Queue queue = DuelWithBots();
  // No levels, no kind: the random bot for players below the initial skill (25) less one beta
  // (25/6), the game's own bot from there up.
  EXPECT_EQ(FillBotKind(queue, 15), "random");
  EXPECT_EQ(FillBotKind(queue, 20.7), "random");
  EXPECT_EQ(FillBotKind(queue, 20.9), "greedy");
  EXPECT_EQ(FillBotKind(queue, 25), "greedy");
  EXPECT_EQ(FillBotKind(queue, 40), "greedy");
  // One kind for everyone.
  queue.mutable_bot_fill()->set_bot_kind("random");
  EXPECT_EQ(FillBotKind(queue, 40), "random");
  // Levels win over the kind: the last one reached, the first below them all.
  v1::BotLevel* weak = queue.mutable_bot_fill()->add_levels();
  weak->set_min_skill(10);
  weak->set_bot_kind("random");
  v1::BotLevel* strong = queue.mutable_bot_fill()->add_levels();
  strong->set_min_skill(30);
  strong->set_bot_kind("greedy");
  ASSERT_TRUE(CheckQueueSettings(queue).ok()) << CheckQueueSettings(queue);
  EXPECT_EQ(FillBotKind(queue, 5), "random");
  EXPECT_EQ(FillBotKind(queue, 29.9), "random");
  EXPECT_EQ(FillBotKind(queue, 30), "greedy");
}

TEST(CheckQueueSettings, RefusesBotLevelsThatAreNotTheGamesOrNotInOrder) {
  auto refusal = [](const v1::Queue& queue) {
    const absl::Status status = CheckQueueSettings(queue);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
    return std::string(status.message());
  };
  v1::Queue queue = DuelWithBots();
  v1::BotLevel* level = queue.mutable_bot_fill()->add_levels();
  level->set_min_skill(0);
  level->set_bot_kind("grandmaster");
  EXPECT_EQ(refusal(queue).rfind("queue.bot_fill.levels[0].bot_kind:", 0), 0u) << refusal(queue);
  level->set_bot_kind("random");
  ASSERT_TRUE(CheckQueueSettings(queue).ok());
  v1::BotLevel* second = queue.mutable_bot_fill()->add_levels();
  second->set_min_skill(0);
  second->set_bot_kind("greedy");
  EXPECT_EQ(refusal(queue).rfind("queue.bot_fill.levels[1].min_skill:", 0), 0u) << refusal(queue);
  second->set_min_skill(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(refusal(queue).rfind("queue.bot_fill.levels[1].min_skill:", 0), 0u) << refusal(queue);
  second->set_min_skill(30);
  ASSERT_TRUE(CheckQueueSettings(queue).ok());
  for (int i = 2; i <= kMaxBotLevels; ++i) {
    v1::BotLevel* more = queue.mutable_bot_fill()->add_levels();
    more->set_min_skill(30 + i);
    more->set_bot_kind("greedy");
  }
  EXPECT_EQ(refusal(queue).rfind("queue.bot_fill.levels:", 0), 0u) << refusal(queue);
}

// Matches are created with the queue's rules as written, so a `players` the format does not
// seat, which execution would refuse match after match, is refused with the queue (issue 43).
TEST(CheckQueueSettings, RefusesAPlayersRuleTheFormatDoesNotSeat) {
  v1::Queue queue = DuelWithBots();
  for (int64_t players : {int64_t{-1}, int64_t{3}, std::numeric_limits<int64_t>::max()}) {
    (*queue.mutable_rules())["players"].set_int_value(players);
    const absl::Status status = CheckQueueSettings(queue);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << players << ": " << status;
    EXPECT_EQ(status.message().rfind("queue.rules.players:", 0), 0u) << status;
  }
  (*queue.mutable_rules())["players"].set_int_value(2);  // what the format seats: harmless
  EXPECT_TRUE(CheckQueueSettings(queue).ok()) << CheckQueueSettings(queue);
}

TEST(CheckQueueSettings, RefusesBlankNamesAndClocksPastAWeekOrNegative) {
  v1::Queue queue = DuelWithBots();
  for (const std::string& name : {std::string("  "), std::string(81, 'q'), std::string(" q")}) {
    queue.set_display_name(name);
    EXPECT_EQ(CheckQueueSettings(queue).message().rfind("queue.display_name:", 0), 0u) << name;
  }
  queue = DuelWithBots();
  for (int64_t seconds : {int64_t{-60}, int64_t{8 * 24 * 3600}}) {
    queue.mutable_clock()->mutable_per_move()->set_seconds(seconds);
    EXPECT_EQ(CheckQueueSettings(queue).message().rfind("queue.clock.per_move:", 0), 0u)
        << seconds << ": " << CheckQueueSettings(queue);
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
