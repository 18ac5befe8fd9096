// The matchmaking service's tests' fixture: a real gRPC server on loopback over
// MatchmakingLogic and PgMatchmakingStore, against the PostgreSQL named by
// BONEYARD_TEST_DATABASE_URL (tests/run.sh starts one), in a schema of its own dropped at the
// end. Without the database these tests fail; they never skip.
#ifndef BONEYARD_TESTS_SERVICES_MATCHMAKING_MATCHMAKING_TEST_FIXTURE_H_
#define BONEYARD_TESTS_SERVICES_MATCHMAKING_MATCHMAKING_TEST_FIXTURE_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/pg_matchmaking_store.h"

namespace boneyard::matchmaking {


inline constexpr char kUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";
inline constexpr char kOperatorToken[] = "operator-token-for-tests-0123456789";
inline constexpr char kResultsToken[] = "results-token-for-tests-0123456789";
inline const std::string kMegabyte(1 << 20, 'x');

// A Forty-Two queue: 2 teams of 2, rated, bots after a minute.
inline v1::Queue FortyTwoQueue() {
  v1::Queue queue;
  queue.set_display_name("Forty-Two, rated, to 7 marks");
  queue.set_game("forty_two");
  (*queue.mutable_rules())["scoring"].set_string_value("marks");
  queue.set_rated(true);
  queue.mutable_format()->mutable_teams()->set_teams(2);
  queue.mutable_format()->mutable_teams()->set_team_size(2);
  queue.mutable_window()->set_initial(3);
  queue.mutable_window()->set_per_second(0.25);
  queue.mutable_window()->set_max(25);
  queue.mutable_bot_fill()->set_enabled(true);
  queue.mutable_bot_fill()->mutable_after()->set_seconds(60);
  return queue;
}

inline std::unique_ptr<grpc::ClientContext> Context(std::optional<std::string> token = std::nullopt) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  // The server is known to be up: a connect that fails once under a loaded CI machine is
  // retried until the deadline instead of failing the call (fail-fast is gRPC's default).
  context->set_wait_for_ready(true);
  if (token.has_value()) context->AddMetadata("authorization", "Bearer " + *token);
  return context;
}

class MatchmakingTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(/*open_registration=*/false); }

  void Start(bool open_registration) {
    Stop();
    const char* url = std::getenv(kUrlVariable);
    ASSERT_TRUE(url != nullptr && *url != '\0')
        << kUrlVariable << " is not set: these tests need a real PostgreSQL (tests/run.sh)";
    if (pool_ == nullptr) {
      absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url, 4);
      ASSERT_TRUE(pool.ok()) << pool.status();
      pool_ = *std::move(pool);
      std::random_device device;
      schema_ = absl::StrCat("t_", absl::Hex((uint64_t{device()} << 32) | device(),
                                              absl::kZeroPad16));
    }
    absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> store =
        PgMatchmakingStore::Open(*pool_, schema_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    logic_ = std::make_unique<MatchmakingLogic>(
        *store_, MatchmakingOptions{.operator_token = kOperatorToken,
                                    .open_registration = open_registration,
                                    .results_token = kResultsToken,
                                    .on_ticket = on_ticket_});
    service_ = std::make_unique<MatchmakingServiceImpl>(*logic_);
    absl::StatusOr<std::unique_ptr<GrpcServer>> server =
        GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {service_.get()}});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::MatchmakingService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", server_->port()), grpc::InsecureChannelCredentials()));
  }

  void Stop() {
    if (service_ != nullptr) service_->Stop();
    if (server_ != nullptr) server_->Shutdown(absl::Seconds(5));
    server_.reset();
    service_.reset();
    logic_.reset();
    store_.reset();
  }

  void TearDown() override {
    Stop();
    if (pool_ != nullptr) {
      absl::Status status = pool_->Run([&](pqxx::work& tx) {
        tx.exec0("DROP SCHEMA IF EXISTS " + tx.quote_name(schema_) + " CASCADE");
      });
      EXPECT_TRUE(status.ok()) << status;
    }
  }

  grpc::Status Create(const std::string& id, const std::string& display,
                      v1::CreatePlayerResponse* response,
                      std::optional<std::string> token = kOperatorToken,
                      v1::PlayerAccount::Kind kind = v1::PlayerAccount::KIND_UNSPECIFIED) {
    v1::CreatePlayerRequest request;
    request.set_player_id(id);
    request.set_display_name(display);
    request.set_kind(kind);
    return stub_->CreatePlayer(Context(token).get(), request, response);
  }

  grpc::Status Get(const std::string& name, v1::PlayerAccount* player,
                   std::optional<std::string> token = std::nullopt) {
    v1::GetPlayerRequest request;
    request.set_name(name);
    return stub_->GetPlayer(Context(token).get(), request, player);
  }

  grpc::Status Rotate(const std::string& name, std::optional<std::string> token,
                      v1::RotatePlayerTokenResponse* response) {
    v1::RotatePlayerTokenRequest request;
    request.set_name(name);
    return stub_->RotatePlayerToken(Context(token).get(), request, response);
  }

  // Creates players "p0".."p{n-1}" (named "Player i"); returns their tokens.
  std::vector<std::string> Players(int n) {
    std::vector<std::string> tokens;
    for (int i = 0; i < n; ++i) {
      v1::CreatePlayerResponse created;
      grpc::Status status = Create(absl::StrCat("p", i), absl::StrCat("Player ", i), &created);
      EXPECT_TRUE(status.ok()) << status.error_message();
      tokens.push_back(created.token());
    }
    return tokens;
  }

  grpc::Status CreateQueue(const std::string& id, const v1::Queue& queue, v1::Queue* created,
                           std::optional<std::string> token = kOperatorToken) {
    v1::CreateQueueRequest request;
    request.set_queue_id(id);
    *request.mutable_queue() = queue;
    return stub_->CreateQueue(Context(token).get(), request, created);
  }
  grpc::Status GetQueue(const std::string& name, v1::Queue* queue) {
    v1::GetQueueRequest request;
    request.set_name(name);
    return stub_->GetQueue(Context().get(), request, queue);
  }

  grpc::Status CreateParty(const std::string& token, v1::Party* party) {
    return stub_->CreateParty(Context(token).get(), v1::CreatePartyRequest(), party);
  }
  grpc::Status Join(const std::string& token, const std::string& code, v1::Party* party) {
    v1::JoinPartyRequest request;
    request.set_invite_code(code);
    return stub_->JoinParty(Context(token).get(), request, party);
  }
  grpc::Status Leave(const std::string& token, const std::string& name, v1::Party* party,
                     const std::string& player = "") {
    v1::LeavePartyRequest request;
    request.set_name(name);
    request.set_player(player);
    return stub_->LeaveParty(Context(token).get(), request, party);
  }
  grpc::Status GetParty(const std::string& token, const std::string& name, v1::Party* party) {
    v1::GetPartyRequest request;
    request.set_name(name);
    return stub_->GetParty(Context(token).get(), request, party);
  }

  // Every row of the players table, as text, to compare before and after.
  std::string Snapshot() {
    absl::StatusOr<std::string> rows = pool_->Run([&](pqxx::work& tx) {
      std::string out;
      for (const pqxx::row& row :
           tx.exec("SELECT player_id, display_name, kind, encode(token_hash, 'hex') FROM " +
                   tx.quote_name(schema_) + ".players ORDER BY player_id")) {
        for (const pqxx::field& field : row) absl::StrAppend(&out, field.c_str(), "|");
        out += "\n";
      }
      return out;
    });
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : "";
  }

  // Given to the logic at Start (the service wires it to the matchmaker's Wake).
  std::function<void()> on_ticket_ = nullptr;
  std::unique_ptr<PgPool> pool_;
  std::string schema_;
  std::unique_ptr<PgMatchmakingStore> store_;
  std::unique_ptr<MatchmakingLogic> logic_;
  std::unique_ptr<MatchmakingServiceImpl> service_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::MatchmakingService::Stub> stub_;
};

// INVALID_ARGUMENT naming `field`, with a short message.
inline void ExpectRefused(const grpc::Status& status, const std::string& field, const std::string& what) {
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << what << ": " << status.error_message().substr(0, 300);
  EXPECT_LE(status.error_message().size(), 256u) << what;
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr(field)) << what;
}

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_TESTS_SERVICES_MATCHMAKING_MATCHMAKING_TEST_FIXTURE_H_
