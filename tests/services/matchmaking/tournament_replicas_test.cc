// A tournament directed by two matchmaking processes at once (docs/scaling.md): both run the
// director's passes against one database, execution delivers each result to either (one
// address list, the first that answers), and one of them is killed with SIGKILL in the middle
// of round 2 and started again in round 3. The Swiss still runs to its end with every round
// paired once, every game created once on execution and every result counted once.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/common/bearer.h"
#include "services/common/pg_pool.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "", int seconds = 30) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  context->set_wait_for_ready(true);
  AddBearerToken(*context, token);
  return context;
}

int64_t Count(PgPool& pool, const std::string& sql) {
  absl::StatusOr<int64_t> n =
      pool.Run([&](pqxx::work& tx) { return tx.exec1(sql)[0].as<int64_t>(); });
  EXPECT_TRUE(n.ok()) << n.status();
  return n.ok() ? *n : -1;
}

// Waits (a minute at most) until `sql` counts more than zero.
void WaitFor(PgPool& pool, const std::string& sql) {
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::Now() < deadline && Count(pool, sql) == 0) absl::SleepFor(absl::Milliseconds(20));
}

TEST(TournamentReplicasTest, TwoMatchmakingProcessesRunASwissOnceAcrossAKill) {
  constexpr int kEntrants = 7;
  constexpr int kRounds = 4;
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<int> port_a = testing::PickFreePort();
  absl::StatusOr<int> port_b = testing::PickFreePort();
  ASSERT_TRUE(port_a.ok() && port_b.ok());
  char dir_template[] = "/tmp/boneyard-mm-replicas.XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  // The replicas share their tokens, as pods share a Secret.
  const std::string results_token_file = dir + "/results_token";
  const std::string operator_token_file = dir + "/operator_token";
  {
    std::ofstream(results_token_file) << "results-token-for-the-replicas-test";
    std::ofstream(operator_token_file) << "operator-token-for-the-replicas-test";
  }
  // Results go to whichever matchmaking answers first (gRPC's pick_first over the list).
  absl::StatusOr<testing::ServiceOnNewDatabase> execution = testing::StartOnNewDatabase(
      BONEYARD_EXECUTION_BINARY,
      {absl::StrCat("--matchmaking_target=ipv4:127.0.0.1:", *port_a, ",127.0.0.1:", *port_b),
       "--results_token_file=" + results_token_file});
  ASSERT_TRUE(execution.ok()) << execution.status();
  auto start_matchmaking = [&](int port) {
    return testing::ServiceProcess::Start(
        BONEYARD_MATCHMAKING_BINARY,
        {"--database_url=" + (*db)->url(), "--log_level=info",
         "--execution_target=" + execution->service->target(),
         "--execution_token_file=" + execution->service->operator_token_file(),
         "--results_token_file=" + results_token_file,
         "--operator_token_file=" + operator_token_file, "--pass_interval=50ms"},
        testing::ServiceProcess::kDefaultReadyTimeout, port);
  };
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> a = start_matchmaking(*port_a);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> b = start_matchmaking(*port_b);
  ASSERT_TRUE(b.ok()) << b.status();
  // Set up through b, watched through b: a is the one that goes.
  auto stub = v1::TournamentService::NewStub(
      grpc::CreateChannel((*b)->target(), grpc::InsecureChannelCredentials()));
  const std::string operator_token = (*b)->operator_token();

  v1::CreateTournamentRequest create;
  create.set_tournament_id("swiss");
  v1::Tournament& settings = *create.mutable_tournament();
  settings.set_display_name("Muggins Swiss");
  settings.set_game("muggins");
  settings.set_format(v1::Tournament::SWISS);
  settings.set_rounds(kRounds);
  v1::Tournament tournament;
  ASSERT_TRUE(stub->CreateTournament(Context(operator_token).get(), create, &tournament).ok());
  for (int i = 0; i < kEntrants; ++i) {
    v1::RegisterPlayerRequest request;
    request.set_tournament("tournaments/swiss");
    request.mutable_bot()->set_kind(i % 2 == 0 ? "random" : "greedy");
    v1::Entrant entrant;
    grpc::Status status = stub->RegisterPlayer(Context(operator_token).get(), request, &entrant);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  v1::StartTournamentRequest start;
  start.set_name("tournaments/swiss");
  ASSERT_TRUE(stub->StartTournament(Context(operator_token).get(), start, &tournament).ok());
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect((*db)->url(), 1);
  ASSERT_TRUE(pool.ok()) << pool.status();

  // a goes in the middle of round 2 (some of its games created) and comes back in round 3.
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 2 AND match_name IS "
          "NOT NULL");
  ASSERT_TRUE((*a)->Kill(SIGKILL).ok());
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 3 AND match_name IS "
          "NOT NULL");
  ASSERT_TRUE((*a)->Restart().ok()) << (*a)->log();

  v1::WatchTournamentRequest watch;
  watch.set_tournament("tournaments/swiss");
  auto watch_context = Context("", 120);
  std::unique_ptr<grpc::ClientReader<v1::TournamentUpdate>> reader =
      stub->WatchTournament(watch_context.get(), watch);
  v1::TournamentUpdate update;
  v1::TournamentUpdate last;
  while (reader->Read(&update)) last = update;
  grpc::Status watched = reader->Finish();
  ASSERT_TRUE(watched.ok()) << watched.error_message() << "\n" << (*b)->log();
  EXPECT_EQ(last.tournament().state(), v1::Tournament::FINISHED);
  EXPECT_EQ(last.tournament().current_round(), kRounds);
  ASSERT_EQ(last.standings().rows_size(), kEntrants);
  double points = 0;
  for (const v1::StandingRow& row : last.standings().rows()) points += row.points();
  EXPECT_DOUBLE_EQ(points, kRounds * 4.0);  // three games and a bye a round, a point each

  // Exactly once, with two directors: a round each, three boards and a bye each, a game per
  // board, each created once on execution and each result in.
  EXPECT_EQ(Count(**pool, "SELECT count(*) FROM matchmaking.tournament_rounds"), kRounds);
  EXPECT_EQ(Count(**pool, "SELECT count(*) FROM matchmaking.tournament_pairings"), kRounds * 4);
  EXPECT_EQ(Count(**pool, "SELECT count(*) FROM matchmaking.tournament_games"), kRounds * 3);
  EXPECT_EQ(Count(**pool,
                  "SELECT count(*) FROM matchmaking.tournament_games WHERE result IS NOT NULL "
                  "AND match_name IS NOT NULL"),
            kRounds * 3);
  auto execution_stub = v1::ExecutionService::NewStub(
      grpc::CreateChannel(execution->service->target(), grpc::InsecureChannelCredentials()));
  v1::ListMatchesRequest list;
  list.set_page_size(100);
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(execution_stub
                  ->ListMatches(Context(execution->service->operator_token()).get(), list, &matches)
                  .ok());
  EXPECT_EQ(matches.matches_size(), kRounds * 3) << "a game created twice";
  std::set<std::string> names;
  for (const v1::Match& m : matches.matches()) names.insert(m.name());
  EXPECT_EQ(names.size(), static_cast<size_t>(kRounds * 3));
  ASSERT_TRUE((*a)->Stop().ok()) << (*a)->log();
  ASSERT_TRUE((*b)->Stop().ok()) << (*b)->log();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace boneyard::matchmaking
