// The matchmaking service's player accounts end to end: a real gRPC server on loopback over
// MatchmakingLogic and PgMatchmakingStore, against the PostgreSQL named by
// BONEYARD_TEST_DATABASE_URL (tests/run.sh starts one). Each test works in a schema of its own,
// dropped at the end. Without the database these tests fail; they never skip.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <set>
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
namespace {

using ::testing::HasSubstr;

constexpr char kUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";
constexpr char kOperatorToken[] = "operator-token-for-tests-0123456789";
const std::string kMegabyte(1 << 20, 'x');

std::unique_ptr<grpc::ClientContext> Context(std::optional<std::string> token = std::nullopt) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  if (token.has_value()) context->AddMetadata("authorization", "Bearer " + *token);
  return context;
}

class PlayersTest : public ::testing::Test {
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
                                    .open_registration = open_registration});
    service_ = std::make_unique<MatchmakingServiceImpl>(*logic_);
    absl::StatusOr<std::unique_ptr<GrpcServer>> server =
        GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {service_.get()}});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::MatchmakingService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", server_->port()), grpc::InsecureChannelCredentials()));
  }

  void Stop() {
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

  grpc::Status Get(const std::string& name, v1::PlayerAccount* player) {
    v1::GetPlayerRequest request;
    request.set_name(name);
    return stub_->GetPlayer(Context().get(), request, player);
  }

  grpc::Status Rotate(const std::string& name, std::optional<std::string> token,
                      v1::RotatePlayerTokenResponse* response) {
    v1::RotatePlayerTokenRequest request;
    request.set_name(name);
    return stub_->RotatePlayerToken(Context(token).get(), request, response);
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

  std::unique_ptr<PgPool> pool_;
  std::string schema_;
  std::unique_ptr<PgMatchmakingStore> store_;
  std::unique_ptr<MatchmakingLogic> logic_;
  std::unique_ptr<MatchmakingServiceImpl> service_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::MatchmakingService::Stub> stub_;
};

TEST_F(PlayersTest, CreateGetAndTheTokenIsStoredOnlyAsAHash) {
  v1::CreatePlayerResponse created;
  ASSERT_TRUE(Create("ann", "Ann Smith", &created).ok());
  EXPECT_EQ(created.player().name(), "players/ann");
  EXPECT_EQ(created.player().kind(), v1::PlayerAccount::HUMAN);
  EXPECT_GE(created.token().size(), 40u);
  v1::PlayerAccount got;
  ASSERT_TRUE(Get("players/ann", &got).ok());
  EXPECT_EQ(got.SerializeAsString(), created.player().SerializeAsString());
  // The database holds the token's SHA-256, never the token.
  const std::string rows = Snapshot();
  EXPECT_THAT(rows, ::testing::Not(HasSubstr(created.token())));
  EXPECT_THAT(rows, HasSubstr(absl::BytesToHexString(TokenHash(created.token()))));
}

TEST_F(PlayersTest, IdsAndDisplayNamesAreUniqueNamesWithoutRegardToCase) {
  v1::CreatePlayerResponse created;
  ASSERT_TRUE(Create("ann", "Ann", &created).ok());
  const std::string before = Snapshot();
  grpc::Status status = Create("ann", "Another Ann", &created);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("player_id"));
  status = Create("ann2", "aNN", &created);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("display_name"));
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(PlayersTest, OnlyTheOperatorCreatesAccountsUnlessRegistrationIsOpen) {
  v1::CreatePlayerResponse ann;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  v1::CreatePlayerResponse response;
  EXPECT_EQ(Create("bob", "Bob", &response, std::nullopt).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create("bob", "Bob", &response, "not-a-token-of-anyone").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create("bob", "Bob", &response, ann.token()).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  Start(/*open_registration=*/true);
  ASSERT_TRUE(Create("bob", "Bob", &response, std::nullopt).ok());
  EXPECT_EQ(response.player().kind(), v1::PlayerAccount::HUMAN);
  // Bots stay the operator's, labelled as bots.
  EXPECT_EQ(Create("botty", "Botty", &response, std::nullopt, v1::PlayerAccount::BOT)
                .error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Create("botty", "Botty", &response, kOperatorToken, v1::PlayerAccount::BOT).ok());
  EXPECT_EQ(response.player().kind(), v1::PlayerAccount::BOT);
}

TEST_F(PlayersTest, ListPagesByIdAndFiltersByKind) {
  v1::CreatePlayerResponse response;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Create(absl::StrCat("p", i), absl::StrCat("Player ", i), &response).ok());
  }
  ASSERT_TRUE(Create("zbot", "Z Bot", &response, kOperatorToken, v1::PlayerAccount::BOT).ok());
  v1::ListPlayersRequest request;
  request.set_page_size(2);
  std::vector<std::string> ids;
  for (int page = 0; page < 10; ++page) {
    v1::ListPlayersResponse listed;
    ASSERT_TRUE(stub_->ListPlayers(Context().get(), request, &listed).ok());
    for (const v1::PlayerAccount& p : listed.players()) ids.push_back(p.player_id());
    if (listed.next_page_token().empty()) break;
    request.set_page_token(listed.next_page_token());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4", "zbot"}));

  v1::ListPlayersRequest bots;
  bots.set_kind(v1::PlayerAccount::BOT);
  v1::ListPlayersResponse listed;
  ASSERT_TRUE(stub_->ListPlayers(Context().get(), bots, &listed).ok());
  ASSERT_EQ(listed.players_size(), 1);
  EXPECT_EQ(listed.players(0).player_id(), "zbot");

  // A token for another filter, an altered one, a negative size, an unknown kind.
  v1::ListPlayersRequest first;
  first.set_page_size(1);
  ASSERT_TRUE(stub_->ListPlayers(Context().get(), first, &listed).ok());
  const std::string token = listed.next_page_token();
  ASSERT_FALSE(token.empty());
  bots.set_page_token(token);
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bots, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  first.set_page_token(token.substr(0, token.size() - 1) + (token.back() == 'A' ? "B" : "A"));
  EXPECT_EQ(stub_->ListPlayers(Context().get(), first, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::ListPlayersRequest bad;
  bad.set_page_size(-1);
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bad, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  bad = v1::ListPlayersRequest();
  bad.set_kind(static_cast<v1::PlayerAccount::Kind>(7));
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bad, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(PlayersTest, RotatingATokenRetiresTheOldOne) {
  v1::CreatePlayerResponse ann;
  v1::CreatePlayerResponse bob;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  ASSERT_TRUE(Create("bob", "Bob", &bob).ok());
  v1::RotatePlayerTokenResponse rotated;
  // Someone else's token, no token, an unknown one.
  EXPECT_EQ(Rotate("players/ann", bob.token(), &rotated).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Rotate("players/ann", std::nullopt, &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Rotate("players/ann", "nobody-has-this-token", &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // Her own token: a new one, and the old one no longer works.
  ASSERT_TRUE(Rotate("players/ann", ann.token(), &rotated).ok());
  EXPECT_NE(rotated.token(), ann.token());
  EXPECT_EQ(Rotate("players/ann", ann.token(), &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // The operator may rotate anyone's; an unknown player is NOT_FOUND.
  EXPECT_TRUE(Rotate("players/bob", kOperatorToken, &rotated).ok());
  EXPECT_EQ(Rotate("players/nobody", kOperatorToken, &rotated).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// ----- Hostile input ------------------------------------------------------------------------

void ExpectRefused(const grpc::Status& status, const std::string& field, const std::string& what) {
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << what << ": " << status.error_message().substr(0, 300);
  EXPECT_LE(status.error_message().size(), 256u) << what;
  EXPECT_THAT(status.error_message(), HasSubstr(field)) << what;
}

TEST_F(PlayersTest, MalformedFieldsAreRefusedAndChangeNothing) {
  v1::CreatePlayerResponse good;
  ASSERT_TRUE(Create("ann", "Ann", &good).ok());
  const std::string before = Snapshot();
  struct Case {
    std::string what;
    std::string id;
    std::string display;
    std::string field;
  };
  const std::vector<Case> cases = {
      {"an empty id", "", "Bob", "player_id"},
      {"a 1 MB id", kMegabyte, "Bob", "player_id"},
      {"a NUL in the id", std::string("b\0b", 3), "Bob", "player_id"},
      {"white space in the id", "b b", "Bob", "player_id"},
      {"an empty display name", "bob", "", "display_name"},
      {"a 41-character display name", "bob", std::string(41, 'b'), "display_name"},
      {"a 1 MB display name", "bob", kMegabyte, "display_name"},
      {"a NUL in the display name", "bob", std::string("B\0b", 3), "display_name"},
      {"a tab in the display name", "bob", "B\tb", "display_name"},
      {"a leading space", "bob", " Bob", "display_name"},
      {"only spaces", "bob", "   ", "display_name"},
  };
  for (const Case& c : cases) {
    v1::CreatePlayerResponse response;
    ExpectRefused(Create(c.id, c.display, &response), c.field, c.what);
  }
  v1::CreatePlayerResponse response;
  ExpectRefused(Create("bob", "Bob", &response, kOperatorToken,
                       static_cast<v1::PlayerAccount::Kind>(9)),
                "kind", "an unknown kind");
  // Forty characters of any script are fine.
  EXPECT_TRUE(Create("zoe", std::string(40, 'z'), &response).ok());
  EXPECT_TRUE(Create("jose", "Jos\xc3\xa9 \xe6\x9d\x8e", &response).ok());

  for (const std::string& name : {std::string(), std::string("ann"), "players/" + kMegabyte,
                                  std::string("players/a\0b", 11), std::string("matches/ann")}) {
    v1::PlayerAccount player;
    ExpectRefused(Get(name, &player), "name", "GetPlayer " + name.substr(0, 20));
    v1::RotatePlayerTokenResponse rotated;
    ExpectRefused(Rotate(name, kOperatorToken, &rotated), "name",
                  "RotatePlayerToken " + name.substr(0, 20));
  }
  v1::PlayerAccount player;
  EXPECT_EQ(Get("players/nobody", &player).error_code(), grpc::StatusCode::NOT_FOUND);
  // The two good creates beside the bad ones.
  const std::string after = Snapshot();
  EXPECT_THAT(after, HasSubstr("zoe|"));
  EXPECT_THAT(after, HasSubstr("jose|"));
  EXPECT_THAT(after, HasSubstr(before));
}

}  // namespace
}  // namespace boneyard::matchmaking
