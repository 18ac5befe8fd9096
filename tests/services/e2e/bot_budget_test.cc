// A searching bot keeps to its think budget in the service, however long it queues: at the due
// time the strand plays the stand-in's move for it. With --bot_think_budget far below what a
// level-5 search wants, every bot move of a Forty-Two hand is the stand-in's, the hand is
// played to its end, and each move's think time is observed under its level.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <string>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/client/prometheus_text.h"
#include "tests/services/service_process.h"

namespace boneyard::testing {
namespace {

TEST(BotBudgetTest, ASearchBotPastItsBudgetIsPlayedForByTheStandInAtTheDueTime) {
  absl::StatusOr<ServiceOnNewDatabase> execution =
      StartOnNewDatabase(BONEYARD_EXECUTION_BINARY, {"--bot_think_budget=2ms"});
  ASSERT_TRUE(execution.ok()) << execution.status();
  auto stub = v1::ExecutionService::NewStub(
      grpc::CreateChannel(execution->service->target(), grpc::InsecureChannelCredentials()));
  v1::CreateMatchRequest request;
  request.set_game("forty_two");
  (*request.mutable_rules())["scoring"].set_string_value("marks");
  (*request.mutable_rules())["marks_target"].set_int_value(1);
  for (int seat = 0; seat < 4; ++seat) {
    v1::Bot& bot = *request.add_seats()->mutable_bot();
    bot.set_kind("search");
    bot.set_level(5);
  }
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + execution->service->operator_token());
    grpc::Status status = stub->CreateMatch(&context, request, &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  v1::Match match;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  do {
    absl::SleepFor(absl::Milliseconds(50));
    grpc::ClientContext context;
    v1::GetMatchRequest get;
    get.set_name(created.match().name());
    ASSERT_TRUE(stub->GetMatch(&context, get, &match).ok());
  } while (match.state() == v1::Match::ACTIVE && absl::Now() < deadline);
  ASSERT_EQ(match.state(), v1::Match::FINISHED) << execution->service->log();

  absl::StatusOr<std::vector<client::MetricSample>> metrics =
      client::ScrapeMetrics(execution->service->metrics_url());
  ASSERT_TRUE(metrics.ok()) << metrics.status();
  const double moves = client::SumOf(*metrics, "boneyard_bot_moves_total");
  EXPECT_GT(moves, 28);  // a whole hand: four bids at least, 28 dominoes
  // A budget of 2 ms leaves a level-5 search nothing: the stand-in played every move.
  EXPECT_EQ(client::SumOf(*metrics, "boneyard_bot_over_budget_total"), moves);
  EXPECT_EQ(client::SumOf(*metrics, "boneyard_bot_think_seconds_count", {{"level", "5"}}), moves);
  EXPECT_EQ(client::SumOf(*metrics, "boneyard_bot_think_seconds_count", {{"level", "0"}}), 0);
}

}  // namespace
}  // namespace boneyard::testing
