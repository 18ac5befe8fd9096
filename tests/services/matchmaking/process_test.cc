// The boneyard-matchmaking binary as a child process (tests/services/service_process.h) on a
// fresh database: it serves player accounts, keeps them across a restart, stops on SIGTERM with
// exit status 0, and refuses bad flags with exit status 2.
#include <grpcpp/grpcpp.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/bearer.h"
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

TEST(MatchmakingProcessTest, BadFlagsExitWithStatusTwo) {
  // Checked before the database is reached: no server needed.
  const std::string base = absl::StrCat(
      BONEYARD_MATCHMAKING_BINARY, " --database_url=postgresql://nobody@127.0.0.1:1/none",
      " --metrics_listen=");
  for (const std::string& flags :
       {std::string(" --operator_token_file=/no/such/file"),
        std::string(" --max_streams_per_connection=0"), std::string(" --open_registration=maybe"),
        std::string(" --no_such_flag")}) {
    const int status = std::system((base + flags + " >/dev/null 2>&1").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << flags;
    EXPECT_EQ(WEXITSTATUS(status), 2) << flags;
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
