// The boneyard-matchmaking binary as a child process (tests/services/service_process.h) on a
// fresh database: it serves player accounts, keeps them across a restart, stops on SIGTERM with
// exit status 0, and refuses bad flags with exit status 2; with a real boneyard-execution beside
// it, tickets are matched, and a kill -9 while execution is out of reach loses no ticket and
// creates no match twice.
#include <grpcpp/grpcpp.h>
#include <sys/wait.h>

#include <csignal>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "services/common/bearer.h"
#include "services/common/pg_pool.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "") {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  AddBearerToken(*context, token);
  return context;
}

TEST(MatchmakingProcessTest, ServesPlayersKeepsThemAndStopsOnSigterm) {
  absl::StatusOr<testing::ServiceOnNewDatabase> started =
      testing::StartOnNewDatabase(BONEYARD_MATCHMAKING_BINARY, {"--open_registration"});
  ASSERT_TRUE(started.ok()) << started.status();
  testing::ServiceProcess& service = *started->service;
  auto stub = v1::MatchmakingService::NewStub(
      grpc::CreateChannel(service.target(), grpc::InsecureChannelCredentials()));

  v1::CreatePlayerRequest request;
  request.set_player_id("ann");
  request.set_display_name("Ann");
  v1::CreatePlayerResponse created;
  grpc::Status status = stub->CreatePlayer(Context().get(), request, &created);
  ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << service.log();

  ASSERT_TRUE(service.Stop().ok()) << service.log();
  ASSERT_TRUE(service.last_wait_status().has_value());
  EXPECT_TRUE(WIFEXITED(*service.last_wait_status()));
  EXPECT_EQ(WEXITSTATUS(*service.last_wait_status()), 0);
  EXPECT_THAT(service.log(), HasSubstr("msg=\"stopped\""));

  ASSERT_TRUE(service.Restart().ok()) << service.log();
  stub = v1::MatchmakingService::NewStub(
      grpc::CreateChannel(service.target(), grpc::InsecureChannelCredentials()));
  v1::GetPlayerRequest get;
  get.set_name("players/ann");
  v1::PlayerAccount player;
  status = stub->GetPlayer(Context().get(), get, &player);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(player.SerializeAsString(), created.player().SerializeAsString());
  // Her token still works after the restart: she may rotate it.
  v1::RotatePlayerTokenRequest rotate;
  rotate.set_name("players/ann");
  v1::RotatePlayerTokenResponse rotated;
  status = stub->RotatePlayerToken(Context(created.token()).get(), rotate, &rotated);
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// Waits until `ticket` is MATCHED (WatchTicket) and returns it; an unset one on failure.
v1::Ticket AwaitMatched(v1::MatchmakingService::Stub& stub, const std::string& token,
                        const std::string& ticket) {
  auto context = Context(token);
  v1::WatchTicketRequest request;
  request.set_name(ticket);
  auto reader = stub.WatchTicket(context.get(), request);
  v1::TicketUpdate update;
  while (reader->Read(&update)) {
    if (update.ticket().state() != v1::Ticket::SEARCHING) break;
  }
  EXPECT_EQ(update.ticket().state(), v1::Ticket::MATCHED) << update.ShortDebugString();
  return update.ticket();
}

TEST(MatchmakingProcessTest, AKillDuringAnOutageLosesNoTicketAndCreatesNoMatchTwice) {
  absl::StatusOr<testing::ServiceOnNewDatabase> execution =
      testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
  ASSERT_TRUE(execution.ok()) << execution.status();
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<int> dead_port = testing::PickFreePort();
  ASSERT_TRUE(dead_port.ok());
  auto start = [&](const std::string& execution_target) {
    return testing::ServiceProcess::Start(
        BONEYARD_MATCHMAKING_BINARY,
        {"--database_url=" + (*db)->url(), "--open_registration",
         "--execution_target=" + execution_target,
         "--execution_token_file=" + execution->service->operator_token_file(),
         "--pass_interval=50ms"});
  };
  // First with execution out of reach: passes form the match but cannot create it.
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> first =
      start(absl::StrCat("127.0.0.1:", *dead_port));
  ASSERT_TRUE(first.ok()) << first.status();
  auto stub = v1::MatchmakingService::NewStub(
      grpc::CreateChannel((*first)->target(), grpc::InsecureChannelCredentials()));
  v1::CreateQueueRequest queue;
  queue.set_queue_id("duel");
  queue.mutable_queue()->set_display_name("Muggins duel");
  queue.mutable_queue()->set_game("muggins");
  queue.mutable_queue()->mutable_format()->mutable_head_to_head();
  queue.mutable_queue()->mutable_window()->set_max(25);
  v1::Queue created_queue;
  ASSERT_TRUE(
      stub->CreateQueue(Context((*first)->operator_token()).get(), queue, &created_queue).ok());
  std::vector<std::string> tokens, tickets;
  for (const std::string id : {"ann", "bob"}) {
    v1::CreatePlayerRequest player;
    player.set_player_id(id);
    player.set_display_name(id);
    v1::CreatePlayerResponse created;
    ASSERT_TRUE(stub->CreatePlayer(Context().get(), player, &created).ok());
    tokens.push_back(created.token());
    v1::CreateTicketRequest request;
    request.set_queue("queues/duel");
    v1::Ticket ticket;
    grpc::Status status = stub->CreateTicket(Context(created.token()).get(), request, &ticket);
    ASSERT_TRUE(status.ok()) << status.error_message();
    tickets.push_back(ticket.name());
  }
  // Wait for the formed match to be recorded (claimed, not created), then crash.
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect((*db)->url(), 1);
  ASSERT_TRUE(pool.ok()) << pool.status();
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  int64_t formed = 0;
  while (formed == 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
    absl::StatusOr<int64_t> n = (*pool)->Run([](pqxx::work& tx) {
      return tx.exec1("SELECT count(*) FROM matchmaking.formed_matches")[0].as<int64_t>();
    });
    ASSERT_TRUE(n.ok()) << n.status();
    formed = *n;
  }
  ASSERT_EQ(formed, 1) << (*first)->log();
  ASSERT_TRUE((*first)->Kill(SIGKILL).ok());

  // A new process, execution reachable: the same match is created, once.
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> second =
      start(execution->service->target());
  ASSERT_TRUE(second.ok()) << second.status();
  stub = v1::MatchmakingService::NewStub(
      grpc::CreateChannel((*second)->target(), grpc::InsecureChannelCredentials()));
  const v1::Ticket ann = AwaitMatched(*stub, tokens[0], tickets[0]);
  const v1::Ticket bob = AwaitMatched(*stub, tokens[1], tickets[1]);
  ASSERT_EQ(ann.assignments_size(), 1);
  ASSERT_EQ(bob.assignments_size(), 1);
  EXPECT_EQ(ann.assignments(0).match(), bob.assignments(0).match());
  EXPECT_FALSE(ann.assignments(0).seat_token().empty());

  auto execution_stub = v1::ExecutionService::NewStub(grpc::CreateChannel(
      execution->service->target(), grpc::InsecureChannelCredentials()));
  v1::ListMatchesRequest list;
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(execution_stub
                  ->ListMatches(Context(execution->service->operator_token()).get(), list,
                                &matches)
                  .ok());
  ASSERT_EQ(matches.matches_size(), 1);
  EXPECT_EQ(matches.matches(0).name(), ann.assignments(0).match());
  ASSERT_TRUE((*second)->Stop().ok()) << (*second)->log();
}

TEST(MatchmakingProcessTest, BadFlagsExitWithStatusTwo) {
  // Checked before the database is reached: no server needed.
  const std::string base = absl::StrCat(
      BONEYARD_MATCHMAKING_BINARY, " --database_url=postgresql://nobody@127.0.0.1:1/none",
      " --metrics_listen=");
  for (const std::string& flags :
       {std::string(" --operator_token_file=/no/such/file"),
        std::string(" --max_streams_per_connection=0"), std::string(" --open_registration=maybe"),
        std::string(" --pass_interval=0s"),
        std::string(" --execution_target=127.0.0.1:1 --execution_token_file=/no/such/file"),
        std::string(" --no_such_flag")}) {
    const int status = std::system((base + flags + " >/dev/null 2>&1").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << flags;
    EXPECT_EQ(WEXITSTATUS(status), 2) << flags;
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
