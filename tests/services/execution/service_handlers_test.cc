// The execution service's gRPC handlers end to end: a real gRPC server on loopback over a real
// MatchHost and PgMatchStore, against the PostgreSQL named by BONEYARD_TEST_DATABASE_URL (which
// tests/run.sh starts and exports). Each test works in a schema of its own (t_<random hex>),
// dropped at the end. Without the database these tests fail; they never skip.
//
// The OutgoingQueue tests at the end need no database.
#include "services/execution/execution_service.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/execution.pb.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/execution/group_commit.h"
#include "services/execution/live_match.h"
#include "services/execution/match_host.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";
constexpr char kOperatorToken[] = "operator-token-for-tests-0123456789";
constexpr uint64_t kSeed = 20240611;

std::string RandomHex() {
  std::random_device device;
  const uint64_t bits = (uint64_t{device()} << 32) | device();
  return absl::StrCat(absl::Hex(bits, absl::kZeroPad16));
}

// A client context with a deadline and, when given, a bearer token.
std::unique_ptr<grpc::ClientContext> Context(std::optional<std::string> token = std::nullopt) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  // The server is known to be up: a connect that fails once under a loaded CI machine is
  // retried until the deadline instead of failing the call (fail-fast is gRPC's default).
  context->set_wait_for_ready(true);
  if (token.has_value()) context->AddMetadata("authorization", "Bearer " + *token);
  return context;
}

v1::CreateMatchRequest CastleRockRequest() {
  v1::CreateMatchRequest request;
  request.set_game("castle_rock");
  request.add_seats()->mutable_player()->set_player_id("solitaire-player");
  request.set_seed(kSeed);
  return request;
}

// The legal actions at the start of the castle_rock match of CastleRockRequest, from the engine
// itself: the service deals from the request's seed.
std::vector<std::string> FirstLegalActions() {
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("castle_rock", std::map<std::string, OptionValue>{});
  EXPECT_TRUE(game.ok()) << game.status();
  if (!game.ok()) return {};
  absl::StatusOr<std::unique_ptr<State>> state = (*game)->NewMatch(kSeed);
  EXPECT_TRUE(state.ok()) << state.status();
  if (!state.ok()) return {};
  return (*state)->LegalActionStrings();
}

// A Play stream with its context, its hello (naming `name`) written.
struct PlayStream {
  std::unique_ptr<grpc::ClientContext> context;
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>> stream;
};

PlayStream OpenPlay(v1::ExecutionService::Stub& stub, const std::string& token,
                    const std::string& name) {
  PlayStream play{Context(token), nullptr};
  play.stream = stub.Play(play.context.get());
  v1::PlayRequest hello;
  hello.set_name(name);
  EXPECT_TRUE(play.stream->Write(hello)) << "the hello to " << name;
  return play;
}

class ServiceHandlersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv(kUrlVariable);
    ASSERT_TRUE(url != nullptr && *url != '\0')
        << kUrlVariable << " is not set: these tests need a real PostgreSQL. tests/run.sh starts "
        << "one; by hand:\n  deploy/local/pg.sh start /tmp/boneyard-pg 55432\n  export "
        << kUrlVariable << "=$(deploy/local/pg.sh url /tmp/boneyard-pg 55432)";
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url, 4);
    ASSERT_TRUE(pool.ok()) << "cannot reach the test database: " << pool.status();
    pool_ = *std::move(pool);
    schema_ = absl::StrCat("t_", RandomHex());

    absl::StatusOr<std::unique_ptr<MatchStore>> store = OpenPgMatchStore(*pool_, schema_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    committer_ = std::make_unique<GroupCommitter>(*store_, GroupCommitter::Options{.writers = 1});
    HostOptions options;
    options.workers = 2;
    options.bot_workers = 1;
    options.operator_token = kOperatorToken;
    Configure(options);
    absl::StatusOr<std::unique_ptr<MatchHost>> host =
        MatchHost::Start(*store_, *committer_, std::move(options));
    ASSERT_TRUE(host.ok()) << host.status();
    host_ = *std::move(host);
    service_ = std::make_unique<ExecutionServiceImpl>(*host_);

    absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start({
        .listen_address = "127.0.0.1:0",
        .services = {service_.get()},
    });
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::ExecutionService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", server_->port()), grpc::InsecureChannelCredentials()));
  }

  void TearDown() override {
    if (host_ != nullptr) host_->Shutdown();
    if (server_ != nullptr) server_->Shutdown(absl::Seconds(5));
    if (committer_ != nullptr) committer_->Stop();
    server_.reset();
    service_.reset();
    host_.reset();
    committer_.reset();
    store_.reset();
    if (pool_ != nullptr && !schema_.empty()) {
      absl::Status status = pool_->Run([&](pqxx::work& tx) {
        tx.exec0("DROP SCHEMA IF EXISTS " + tx.quote_name(schema_) + " CASCADE");
      });
      EXPECT_TRUE(status.ok()) << "dropping schema " << schema_ << ": " << status;
    }
  }

  // Lets a derived fixture change the host's options.
  virtual void Configure(HostOptions& options) {}

  // Creates a castle_rock match as the operator; returns the response.
  v1::CreateMatchResponse CreateCastleRock() {
    v1::CreateMatchResponse response;
    grpc::Status status =
        stub_->CreateMatch(Context(kOperatorToken).get(), CastleRockRequest(), &response);
    EXPECT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();
    EXPECT_EQ(response.seat_tokens_size(), 1);
    return response;
  }

  absl::StatusOr<v1::Match> GetMatch(const std::string& name) {
    v1::GetMatchRequest request;
    request.set_name(name);
    v1::Match match;
    grpc::Status status = stub_->GetMatch(Context().get(), request, &match);
    if (!status.ok()) {
      return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                          status.error_message());
    }
    return match;
  }

  grpc::Status Submit(const std::string& token, const std::string& match, const std::string& text,
                      int64_t seen_sequence, v1::SeatView* view) {
    v1::SubmitActionRequest request;
    request.set_name(match);
    request.mutable_action()->set_text(text);
    request.set_seen_sequence(seen_sequence);
    return stub_->SubmitAction(Context(token).get(), request, view);
  }

  std::unique_ptr<PgPool> pool_;
  std::string schema_;
  std::unique_ptr<MatchStore> store_;
  std::unique_ptr<GroupCommitter> committer_;
  std::unique_ptr<MatchHost> host_;
  std::unique_ptr<ExecutionServiceImpl> service_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::ExecutionService::Stub> stub_;
};

// ----- Tokens -------------------------------------------------------------------------------

TEST_F(ServiceHandlersTest, CreateMatchWithTheOperatorToken) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  EXPECT_THAT(created.match().name(), HasSubstr("matches/"));
  EXPECT_EQ(created.match().game(), "castle_rock");
  EXPECT_EQ(created.match().state(), v1::Match::ACTIVE);
  EXPECT_EQ(created.match().sequence(), 0);
  ASSERT_EQ(created.seat_tokens_size(), 1);
  EXPECT_EQ(created.seat_tokens(0).seat(), 0);
  EXPECT_THAT(created.seat_tokens(0).token(), Not(IsEmpty()));

  absl::StatusOr<v1::Match> got = GetMatch(created.match().name());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->name(), created.match().name());
  EXPECT_EQ(got->state(), v1::Match::ACTIVE);
}

TEST_F(ServiceHandlersTest, AMatchKeepsTheQueueThatFormedItAndWhetherItIsCasual) {
  v1::CreateMatchRequest request = CastleRockRequest();
  request.set_queue("queues/solitaire");
  request.set_casual(true);
  v1::CreateMatchResponse created;
  ASSERT_TRUE(stub_->CreateMatch(Context(kOperatorToken).get(), request, &created).ok());
  EXPECT_EQ(created.match().queue(), "queues/solitaire");
  EXPECT_TRUE(created.match().casual());
  absl::StatusOr<v1::Match> got = GetMatch(created.match().name());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->queue(), "queues/solitaire");
  EXPECT_TRUE(got->casual());
}

TEST_F(ServiceHandlersTest, CreateMatchWithoutATokenIsUnauthenticated) {
  v1::CreateMatchResponse response;
  grpc::Status status = stub_->CreateMatch(Context().get(), CastleRockRequest(), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << status.error_message();

  status = stub_->CreateMatch(Context("not-a-token-anyone-issued").get(), CastleRockRequest(),
                              &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << status.error_message();
}

TEST_F(ServiceHandlersTest, CreateMatchWithASeatTokenIsPermissionDenied) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  v1::CreateMatchResponse response;
  grpc::Status status = stub_->CreateMatch(Context(created.seat_tokens(0).token()).get(),
                                           CastleRockRequest(), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << status.error_message();
}

// ----- GetMatch -----------------------------------------------------------------------------

TEST_F(ServiceHandlersTest, GetMatchErrors) {
  absl::StatusOr<v1::Match> missing = GetMatch("matches/0123456789abcdef0123456789abcdef");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();

  for (const char* name : {"", "games/123", "matches/", "matches/a/b", "matches/UPPER!"}) {
    absl::StatusOr<v1::Match> malformed = GetMatch(name);
    EXPECT_EQ(malformed.status().code(), absl::StatusCode::kInvalidArgument)
        << "'" << name << "': " << malformed.status();
  }
}

// ----- Hostile input ------------------------------------------------------------------------
// Every field is checked at the edge (services/common/validation.h): the answer is
// INVALID_ARGUMENT naming the field, its message is small whatever the input's size, and
// nothing is created or changed.

constexpr std::size_t kMaxErrorBytes = 256;
const std::string kMegabyte(1 << 20, 'x');

void ExpectRefused(const grpc::Status& status, absl::string_view field, absl::string_view what) {
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << what << ": " << status.error_message().substr(0, 300);
  EXPECT_LE(status.error_message().size(), kMaxErrorBytes) << what;
  EXPECT_THAT(status.error_message(), HasSubstr(field)) << what;
}

TEST_F(ServiceHandlersTest, CreateMatchRefusesMalformedFieldsAndCreatesNothing) {
  using Mutation = void (*)(v1::CreateMatchRequest&);
  struct Case {
    const char* what;
    const char* field;
    Mutation mutate;
  };
  const Case cases[] = {
      {"a NUL in a player id", "seats[0].player.player_id",
       [](v1::CreateMatchRequest& r) {
         r.mutable_seats(0)->mutable_player()->set_player_id(std::string("a\0b", 3));
       }},
      {"a 9,000-byte player id", "seats[0].player.player_id",
       [](v1::CreateMatchRequest& r) {
         r.mutable_seats(0)->mutable_player()->set_player_id(std::string(9000, 'p'));
       }},
      {"a 1 MB player id", "seats[0].player.player_id",
       [](v1::CreateMatchRequest& r) {
         r.mutable_seats(0)->mutable_player()->set_player_id(kMegabyte);
       }},
      {"white space in a player id", "seats[0].player.player_id",
       [](v1::CreateMatchRequest& r) {
         r.mutable_seats(0)->mutable_player()->set_player_id("ann bob");
       }},
      {"a 1 MB game", "game", [](v1::CreateMatchRequest& r) { r.set_game(kMegabyte); }},
      {"a 1 MB request_id", "request_id",
       [](v1::CreateMatchRequest& r) { r.set_request_id(kMegabyte); }},
      {"a control character in request_id", "request_id",
       [](v1::CreateMatchRequest& r) { r.set_request_id("id\x7f"); }},
      {"a queue without its collection", "queue",
       [](v1::CreateMatchRequest& r) { r.set_queue("duel"); }},
      {"a 1 MB queue", "queue", [](v1::CreateMatchRequest& r) { r.set_queue(kMegabyte); }},
      {"an empty queue id", "queue", [](v1::CreateMatchRequest& r) { r.set_queue("queues/"); }},
      {"a 1 MB rule option name", "rules",
       [](v1::CreateMatchRequest& r) { (*r.mutable_rules())[kMegabyte].set_int_value(1); }},
      {"a 1 MB rule text value", "rules.preset",
       [](v1::CreateMatchRequest& r) { (*r.mutable_rules())["preset"].set_string_value(kMegabyte); }},
      {"a 1 MB bot kind", "seats[0].bot.kind",
       [](v1::CreateMatchRequest& r) { r.mutable_seats(0)->mutable_bot()->set_kind(kMegabyte); }},
      {"a Duration with mixed signs", "clock.per_move",
       [](v1::CreateMatchRequest& r) {
         r.mutable_clock()->mutable_per_move()->set_seconds(-1);
         r.mutable_clock()->mutable_per_move()->set_nanos(5);
       }},
      {"a Duration past 10,000 years", "clock.per_move",
       [](v1::CreateMatchRequest& r) {
         r.mutable_clock()->mutable_per_move()->set_seconds(400'000'000'000);
       }},
      {"nanos out of range", "clock.per_move",
       [](v1::CreateMatchRequest& r) {
         r.mutable_clock()->mutable_per_move()->set_nanos(1'000'000'000);
       }},
      {"a deal group that is not a round", "deal_group.name",
       [](v1::CreateMatchRequest& r) {
         r.mutable_deal_group()->set_name("tournaments/t1");
         r.mutable_deal_group()->set_size(2);
       }},
      {"a deal group of round 0", "deal_group.name",
       [](v1::CreateMatchRequest& r) {
         r.mutable_deal_group()->set_name("tournaments/t1/rounds/0");
         r.mutable_deal_group()->set_size(2);
       }},
      {"a 1 MB deal group", "deal_group.name",
       [](v1::CreateMatchRequest& r) {
         r.mutable_deal_group()->set_name(kMegabyte);
         r.mutable_deal_group()->set_size(2);
       }},
      {"a deal group of no matches", "deal_group.size",
       [](v1::CreateMatchRequest& r) {
         r.mutable_deal_group()->set_name("tournaments/t1/rounds/1");
       }},
      {"a deal group of a million matches", "deal_group.size",
       [](v1::CreateMatchRequest& r) {
         r.mutable_deal_group()->set_name("tournaments/t1/rounds/1");
         r.mutable_deal_group()->set_size(1'000'000);
       }},
      {"an unknown timeout policy", "clock.timeout_policy",
       [](v1::CreateMatchRequest& r) {
         r.mutable_clock()->mutable_per_move()->set_seconds(5);
         r.mutable_clock()->set_timeout_policy(static_cast<v1::ClockSettings::TimeoutPolicy>(99));
       }},
  };
  for (const Case& c : cases) {
    v1::CreateMatchRequest request = CastleRockRequest();
    c.mutate(request);
    v1::CreateMatchResponse response;
    ExpectRefused(stub_->CreateMatch(Context(kOperatorToken).get(), request, &response), c.field,
                  c.what);
  }
  // Invalid UTF-8 in a string field never reaches a handler: protobuf refuses to parse it, and
  // gRPC answers INTERNAL itself (documented in docs/api.md, "Limits").
  {
    v1::CreateMatchRequest request = CastleRockRequest();
    request.mutable_seats(0)->mutable_player()->set_player_id("caf\xc3");
    v1::CreateMatchResponse response;
    const grpc::Status status =
        stub_->CreateMatch(Context(kOperatorToken).get(), request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL) << status.error_message();
    EXPECT_EQ(status.error_message(), "Unable to parse request");
  }
  // A good request beside them is served, and it is the only match there is.
  const v1::CreateMatchResponse created = CreateCastleRock();
  v1::ListMatchesRequest list;
  v1::ListMatchesResponse listed;
  ASSERT_TRUE(stub_->ListMatches(Context().get(), list, &listed).ok());
  ASSERT_EQ(listed.matches_size(), 1);
  EXPECT_EQ(listed.matches(0).name(), created.match().name());
}

TEST_F(ServiceHandlersTest, ReadsRefuseUnknownEnumsAndOversizedNames) {
  v1::ListMatchesRequest list;
  v1::ListMatchesResponse listed;
  list.set_state(static_cast<v1::Match::State>(99));
  ExpectRefused(stub_->ListMatches(Context().get(), list, &listed), "state", "state 99");
  list = v1::ListMatchesRequest();
  list.set_game(kMegabyte);
  ExpectRefused(stub_->ListMatches(Context().get(), list, &listed), "game", "a 1 MB game");
  list = v1::ListMatchesRequest();
  list.set_page_token(kMegabyte);
  ExpectRefused(stub_->ListMatches(Context().get(), list, &listed), "page_token",
                "a 1 MB page token");

  v1::GetMatchRequest get;
  get.set_name(absl::StrCat("matches/", kMegabyte));
  v1::Match match;
  ExpectRefused(stub_->GetMatch(Context().get(), get, &match), "name", "a 1 MB name");
  v1::GetRecordRequest record_request;
  record_request.set_name(std::string("matches/\0/record", 16));
  v1::Record record;
  ExpectRefused(stub_->GetRecord(Context().get(), record_request, &record), "name",
                "a NUL in a record name");
}

// The streams and the parked-result RPCs refuse the same malformed fields, with short messages:
// a stream's first message names the match, a WatchMatch its request; an oversized action inside
// a stream is a rejection that keeps the stream (and the match) as they were.
TEST_F(ServiceHandlersTest, StreamsAndParkedResultsRefuseMalformedFields) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  const std::string& token = created.seat_tokens(0).token();
  const std::vector<std::pair<std::string, std::string>> bad_names = {
      {"a 1 MB name", absl::StrCat("matches/", kMegabyte)},
      {"a NUL in a name", std::string("matches/a\0b", 11)},
      {"an empty name", ""},
  };
  for (const auto& [what, name] : bad_names) {
    PlayStream play = OpenPlay(*stub_, token, name);
    play.stream->WritesDone();
    v1::PlayResponse response;
    EXPECT_FALSE(play.stream->Read(&response)) << what;
    ExpectRefused(play.stream->Finish(), "name", absl::StrCat("Play: ", what));

    v1::WatchMatchRequest watch;
    watch.set_name(name);
    std::unique_ptr<grpc::ClientContext> context = Context();
    auto reader = stub_->WatchMatch(context.get(), watch);
    v1::WatchMatchResponse view;
    EXPECT_FALSE(reader->Read(&view)) << what;
    ExpectRefused(reader->Finish(), "name", absl::StrCat("WatchMatch: ", what));

    v1::RetryParkedResultRequest retry;
    retry.set_name(name);
    v1::ParkedResult parked;
    ExpectRefused(stub_->RetryParkedResult(Context(kOperatorToken).get(), retry, &parked), "name",
                  absl::StrCat("RetryParkedResult: ", what));
    v1::DropParkedResultRequest drop;
    drop.set_name(name);
    ExpectRefused(stub_->DropParkedResult(Context(kOperatorToken).get(), drop, &parked), "name",
                  absl::StrCat("DropParkedResult: ", what));
  }
  v1::ListParkedResultsRequest list;
  v1::ListParkedResultsResponse listed;
  list.set_page_size(-1);
  ExpectRefused(stub_->ListParkedResults(Context(kOperatorToken).get(), list, &listed),
                "page_size", "a negative page size");
  list = v1::ListParkedResultsRequest();
  list.set_page_token(kMegabyte);
  ExpectRefused(stub_->ListParkedResults(Context(kOperatorToken).get(), list, &listed),
                "page_token", "a 1 MB page token");

  // A 1 MB action on a stream: a short rejection, and the stream goes on.
  PlayStream play = OpenPlay(*stub_, token, created.match().name());
  v1::PlayResponse response;
  ASSERT_TRUE(play.stream->Read(&response));
  ASSERT_TRUE(response.has_view());
  v1::PlayRequest huge;
  huge.mutable_action()->set_text(std::string(1 << 20, 'a'));
  ASSERT_TRUE(play.stream->Write(huge));
  ASSERT_TRUE(play.stream->Read(&response));
  ASSERT_TRUE(response.has_rejected());
  EXPECT_EQ(response.rejected().code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_THAT(response.rejected().message(), HasSubstr("action.text"));
  EXPECT_LE(response.rejected().message().size(), kMaxErrorBytes);
  EXPECT_LE(response.rejected().action().text().size(), 100u);
  v1::PlayRequest hello;
  ASSERT_TRUE(play.stream->Write(hello));
  ASSERT_TRUE(play.stream->Read(&response));
  ASSERT_TRUE(response.has_view());
  EXPECT_EQ(response.view().sequence(), 0);
  play.context->TryCancel();
  while (play.stream->Read(&response)) {
  }
  play.stream->Finish();
}

// A page token is signed: one changed character, or a token for other filters, is refused.
TEST_F(ServiceHandlersTest, AlteredPageTokensAreRefused) {
  CreateCastleRock();
  CreateCastleRock();
  v1::ListMatchesRequest first;
  first.set_page_size(1);
  v1::ListMatchesResponse page;
  ASSERT_TRUE(stub_->ListMatches(Context().get(), first, &page).ok());
  ASSERT_EQ(page.matches_size(), 1);
  const std::string token = page.next_page_token();
  ASSERT_FALSE(token.empty());

  v1::ListMatchesRequest next = first;
  next.set_page_token(token);
  v1::ListMatchesResponse second;
  ASSERT_TRUE(stub_->ListMatches(Context().get(), next, &second).ok());
  ASSERT_EQ(second.matches_size(), 1);
  EXPECT_NE(second.matches(0).name(), page.matches(0).name());

  for (size_t i = 0; i < token.size(); i += 7) {
    std::string altered = token;
    altered[i] = altered[i] == 'x' ? 'y' : 'x';
    next.set_page_token(altered);
    ExpectRefused(stub_->ListMatches(Context().get(), next, &second), "page_token",
                  absl::StrCat("a token altered at ", i));
  }
  next.set_page_token(token);
  next.set_game("muggins");
  ExpectRefused(stub_->ListMatches(Context().get(), next, &second), "page_token",
                "a token for other filters");
}

TEST_F(ServiceHandlersTest, OversizedActionsAndReasonsChangeNothing) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  const std::string& name = created.match().name();
  const std::string& token = created.seat_tokens(0).token();
  v1::SeatView view;
  ExpectRefused(Submit(token, name, std::string(4000, 'a'), 0, &view), "action.text",
                "a 4,000-byte action");
  ExpectRefused(Submit(token, name, "take\x01 1", 0, &view), "action.text",
                "a control character in an action");

  for (const std::string& reason : {kMegabyte, std::string("stop\0now", 8)}) {
    v1::AbortMatchRequest abort;
    abort.set_name(name);
    abort.set_reason(reason);
    v1::Match aborted;
    ExpectRefused(stub_->AbortMatch(Context(kOperatorToken).get(), abort, &aborted), "reason",
                  "a bad abort reason");
  }
  absl::StatusOr<v1::Match> unchanged = GetMatch(name);
  ASSERT_TRUE(unchanged.ok()) << unchanged.status();
  EXPECT_EQ(unchanged->sequence(), 0);
  EXPECT_EQ(unchanged->state(), v1::Match::ACTIVE);
}

// ----- Parked results -------------------------------------------------------------------------

// An operator lists the results ratings refused for good, delivers one again or drops it.
TEST_F(ServiceHandlersTest, ParkedResultsAreListedRetriedAndDroppedByTheOperatorOnly) {
  // A finished match (its result in the outbox; no dispatcher runs here), then parked.
  const v1::CreateMatchResponse created = CreateCastleRock();
  const std::string& token = created.seat_tokens(0).token();
  v1::SeatView view;
  ASSERT_TRUE(Submit(token, created.match().name(), FirstLegalActions()[0], 0, &view).ok());
  while (!view.terminal()) {
    ASSERT_GT(view.legal_actions_size(), 0);
    const int64_t seen = view.sequence();
    const grpc::Status played =
        Submit(token, created.match().name(), view.legal_actions(0).text(), seen, &view);
    ASSERT_TRUE(played.ok()) << played.error_message();
  }
  absl::StatusOr<std::vector<OutboxItem>> pending =
      store_->PendingOutbox(kRatingsReceiver, 10, absl::Now());
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_EQ(pending->size(), 1u);
  const int64_t id = (*pending)[0].id;
  ASSERT_TRUE(store_->MarkParked(id, "INVALID_ARGUMENT: refused", absl::Now()).ok());
  const std::string name = absl::StrCat("parked_results/", id);

  v1::ListParkedResultsResponse listed;
  EXPECT_EQ(stub_->ListParkedResults(Context().get(), {}, &listed).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(stub_->ListParkedResults(Context(token).get(), {}, &listed).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(stub_->ListParkedResults(Context(kOperatorToken).get(), {}, &listed).ok());
  ASSERT_EQ(listed.parked_results_size(), 1);
  EXPECT_EQ(listed.parked_results(0).name(), name);
  EXPECT_EQ(listed.parked_results(0).match(), created.match().name());
  EXPECT_EQ(listed.parked_results(0).last_error(), "INVALID_ARGUMENT: refused");
  EXPECT_EQ(listed.parked_results(0).attempts(), 1);
  EXPECT_TRUE(listed.parked_results(0).has_park_time());
  EXPECT_TRUE(store_->PendingOutbox(kRatingsReceiver, 10, absl::Now())->empty());

  // Retry: back in the queue, no longer parked; a second retry finds nothing.
  v1::RetryParkedResultRequest retry;
  retry.set_name(name);
  v1::ParkedResult result;
  EXPECT_EQ(stub_->RetryParkedResult(Context(token).get(), retry, &result).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(stub_->RetryParkedResult(Context(kOperatorToken).get(), retry, &result).ok());
  EXPECT_EQ(result.name(), name);
  EXPECT_EQ(store_->PendingOutbox(kRatingsReceiver, 10, absl::Now())->size(), 1u);
  EXPECT_EQ(stub_->RetryParkedResult(Context(kOperatorToken).get(), retry, &result).error_code(),
            grpc::StatusCode::NOT_FOUND);

  // Drop: gone from the outbox for good.
  ASSERT_TRUE(store_->MarkParked(id, "INVALID_ARGUMENT: refused again", absl::Now()).ok());
  v1::DropParkedResultRequest drop;
  drop.set_name(name);
  ASSERT_TRUE(stub_->DropParkedResult(Context(kOperatorToken).get(), drop, &result).ok());
  EXPECT_EQ(result.last_error(), "INVALID_ARGUMENT: refused again");
  EXPECT_EQ(result.attempts(), 2);
  EXPECT_TRUE(store_->PendingOutbox(kRatingsReceiver, 10, absl::Now())->empty());
  ASSERT_TRUE(stub_->ListParkedResults(Context(kOperatorToken).get(), {}, &listed).ok());
  EXPECT_EQ(listed.parked_results_size(), 0);
  EXPECT_EQ(stub_->DropParkedResult(Context(kOperatorToken).get(), drop, &result).error_code(),
            grpc::StatusCode::NOT_FOUND);

  for (const std::string& bad : {std::string("parked_results/"), std::string("parked_results/x"),
                                 std::string("parked_results/-1"), std::string("matches/1"),
                                 std::string("parked_results/01"), kMegabyte}) {
    drop.set_name(bad);
    ExpectRefused(stub_->DropParkedResult(Context(kOperatorToken).get(), drop, &result), "name",
                  "a bad parked result name");
  }
  v1::ListParkedResultsRequest tampered;
  tampered.set_page_token("djE~AAAAAAAAAAAAAAAAAAAAAA");
  ExpectRefused(stub_->ListParkedResults(Context(kOperatorToken).get(), tampered, &listed),
                "page_token", "a forged page token");
}

// ----- SubmitAction -------------------------------------------------------------------------

TEST_F(ServiceHandlersTest, SubmitActionRejectionsLeaveTheMatchUnchanged) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& name = created.match().name();
  const std::string& token = created.seat_tokens(0).token();
  const std::vector<std::string> legal = FirstLegalActions();
  ASSERT_THAT(legal, Not(IsEmpty()));

  v1::SeatView view;
  grpc::Status status = Submit(token, name, "flip the table", 0, &view);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();

  status = Submit(token, name, "take 50", 0, &view);  // well formed, outside the row
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << status.error_message();

  status = Submit(token, name, legal[0], 7, &view);  // legal, but seen a sequence not reached
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ABORTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("is ahead of the match"));

  status = Submit(std::string("not-a-token-anyone-issued"), name, legal[0], 0, &view);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << status.error_message();

  absl::StatusOr<v1::Match> unchanged = GetMatch(name);
  ASSERT_TRUE(unchanged.ok()) << unchanged.status();
  EXPECT_EQ(unchanged->sequence(), 0);
  EXPECT_EQ(unchanged->state(), v1::Match::ACTIVE);

  // The legal action at the current sequence is played; repeating it is stale.
  status = Submit(token, name, legal[0], 0, &view);
  ASSERT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();
  EXPECT_EQ(view.match(), name);
  EXPECT_EQ(view.seat(), 0);
  EXPECT_EQ(view.sequence(), 1);
  ASSERT_TRUE(view.has_last_event());
  EXPECT_EQ(view.last_event().action().text(), legal[0]);

  v1::SeatView again;
  status = Submit(token, name, legal[0], 0, &again);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ABORTED) << status.error_message();
  absl::StatusOr<v1::Match> after = GetMatch(name);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->sequence(), 1);
}

TEST_F(ServiceHandlersTest, SubmitActionWithAnotherMatchsTokenIsPermissionDenied) {
  const v1::CreateMatchResponse first = CreateCastleRock();
  const v1::CreateMatchResponse second = CreateCastleRock();
  ASSERT_EQ(first.seat_tokens_size(), 1);
  v1::SeatView view;
  grpc::Status status =
      Submit(first.seat_tokens(0).token(), second.match().name(), "draw", 0, &view);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << status.error_message();
}

// ----- Play and WatchMatch ------------------------------------------------------------------

// Reads a WatchMatch stream on a thread of its own until the server closes it.
class Watcher {
 public:
  Watcher(v1::ExecutionService::Stub& stub, const std::string& name) : context_(Context()) {
    v1::WatchMatchRequest request;
    request.set_name(name);
    reader_ = stub.WatchMatch(context_.get(), request);
    thread_ = std::thread([this] {
      v1::WatchMatchResponse response;
      while (reader_->Read(&response)) {
        views_.push_back(response.view());
        if (!first_view_.HasBeenNotified()) {
          saw_view_ = true;
          first_view_.Notify();
        }
      }
      status_ = reader_->Finish();
      if (!first_view_.HasBeenNotified()) first_view_.Notify();
    });
  }
  ~Watcher() {
    if (thread_.joinable()) {
      context_->TryCancel();
      thread_.join();
    }
  }

  bool WaitForFirstView() {
    return first_view_.WaitForNotificationWithTimeout(absl::Seconds(30)) && saw_view_;
  }
  // Waits for the end of the stream; then the views and the status are final.
  void Join() { thread_.join(); }

  const std::vector<v1::PublicView>& views() const { return views_; }
  const grpc::Status& status() const { return status_; }

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::WatchMatchResponse>> reader_;
  absl::Notification first_view_;
  bool saw_view_ = false;  // written before first_view_ is notified
  std::vector<v1::PublicView> views_;  // written by the thread until it ends
  grpc::Status status_;
  std::thread thread_;
};

// A duplicate round's matches share their deals: until every match of the group has been created
// and none is being played, no match of it shows its record or its spectator view (either would
// tell the others what they hold); then all do. A match of no group is never held back.
TEST_F(ServiceHandlersTest, ADealGroupIsShownOnlyOnceEveryMatchOfItIsOver) {
  auto create = [&](bool grouped) {
    v1::CreateMatchRequest request = CastleRockRequest();
    if (grouped) {
      request.mutable_deal_group()->set_name("tournaments/club/rounds/1");
      request.mutable_deal_group()->set_size(3);
    }
    v1::CreateMatchResponse response;
    grpc::Status status = stub_->CreateMatch(Context(kOperatorToken).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.match().name();
  };
  auto abort = [&](const std::string& name) {
    v1::AbortMatchRequest request;
    request.set_name(name);
    request.set_reason("ended for the test");
    v1::Match aborted;
    grpc::Status status = stub_->AbortMatch(Context(kOperatorToken).get(), request, &aborted);
    ASSERT_TRUE(status.ok()) << status.error_message();
  };
  auto record = [&](const std::string& name) {
    v1::GetRecordRequest request;
    request.set_name(name + "/record");
    v1::Record out;
    return stub_->GetRecord(Context().get(), request, &out);
  };
  auto watch = [&](const std::string& name) {
    Watcher watcher(*stub_, name);
    watcher.Join();
    return watcher.status();
  };
  const std::string first = create(true);
  const std::string second = create(true);
  const std::string alone = create(false);
  absl::StatusOr<v1::Match> stored = GetMatch(first);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->deal_group().name(), "tournaments/club/rounds/1");
  EXPECT_EQ(stored->deal_group().size(), 3);

  abort(first);
  abort(alone);
  EXPECT_TRUE(record(alone).ok()) << record(alone).error_message();
  // The first is over, but the second is being played and the third is still to come.
  grpc::Status held = record(first);
  EXPECT_EQ(held.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << held.error_message();
  EXPECT_THAT(held.error_message(), HasSubstr("tournaments/club/rounds/1"));
  EXPECT_EQ(watch(first).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(watch(second).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  abort(second);
  // Both created are over: the third is still to be created.
  EXPECT_EQ(record(first).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  const std::string third = create(true);
  EXPECT_EQ(record(second).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  abort(third);
  for (const std::string& name : {first, second, third}) {
    EXPECT_TRUE(record(name).ok()) << name << ": " << record(name).error_message();
    EXPECT_TRUE(watch(name).ok()) << name << ": " << watch(name).error_message();
  }
}

TEST_F(ServiceHandlersTest, PlayAStreamToTheEndWhileWatching) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& name = created.match().name();

  Watcher watcher(*stub_, name);
  ASSERT_TRUE(watcher.WaitForFirstView());

  std::unique_ptr<grpc::ClientContext> context = Context(created.seat_tokens(0).token());
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>> stream =
      stub_->Play(context.get());
  v1::PlayRequest hello;
  hello.set_name(name);
  ASSERT_TRUE(stream->Write(hello));

  int64_t acted_at = -1;
  int64_t last_sequence = -1;
  bool terminal = false;
  int views = 0;
  v1::PlayResponse response;
  while (stream->Read(&response)) {
    if (response.has_rejected()) {
      ADD_FAILURE() << "rejected: " << response.rejected().message();
      continue;
    }
    ASSERT_TRUE(response.has_view());
    const v1::SeatView& view = response.view();
    ++views;
    EXPECT_EQ(view.match(), name);
    EXPECT_EQ(view.game(), "castle_rock");
    EXPECT_EQ(view.seat(), 0);
    EXPECT_GE(view.sequence(), last_sequence) << "views come in order";
    last_sequence = view.sequence();
    if (view.terminal()) {
      terminal = true;
      EXPECT_EQ(view.current_seat(), -1);
      EXPECT_TRUE(view.has_result());
      continue;
    }
    if (view.current_seat() != 0 || view.sequence() <= acted_at) continue;
    ASSERT_GT(view.legal_actions_size(), 0);
    v1::PlayRequest play;
    // Later messages may repeat the name or leave it out.
    if (view.sequence() % 2 == 0) play.set_name(name);
    *play.mutable_action() = view.legal_actions(0);
    play.set_seen_sequence(view.sequence());
    acted_at = view.sequence();
    ASSERT_TRUE(stream->Write(play));
  }
  stream->WritesDone();
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();
  EXPECT_TRUE(terminal);
  EXPECT_GT(last_sequence, 0);
  EXPECT_EQ(views, last_sequence + 1) << "one view at the start and one per event";

  // The spectator saw the start and every event, and was closed with OK too.
  watcher.Join();
  EXPECT_TRUE(watcher.status().ok())
      << watcher.status().error_code() << ": " << watcher.status().error_message();
  ASSERT_EQ(static_cast<int64_t>(watcher.views().size()), last_sequence + 1);
  for (size_t i = 0; i < watcher.views().size(); ++i) {
    EXPECT_EQ(watcher.views()[i].sequence(), static_cast<int64_t>(i));
  }
  EXPECT_TRUE(watcher.views().back().terminal());

  absl::StatusOr<v1::Match> match = GetMatch(name);
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->state(), v1::Match::FINISHED);
  EXPECT_EQ(match->sequence(), last_sequence);
  EXPECT_TRUE(match->has_result());

  // The record holds every action played.
  v1::GetRecordRequest record_request;
  record_request.set_name(name + "/record");
  v1::Record record;
  grpc::Status record_status = stub_->GetRecord(Context().get(), record_request, &record);
  ASSERT_TRUE(record_status.ok()) << record_status.error_message();
  int actions = 0;
  for (const v1::Record::Round& round : record.rounds()) actions += round.actions_size();
  EXPECT_EQ(actions, last_sequence);

  // Watching a match that is over gives its last view and closes at once.
  Watcher late(*stub_, name);
  late.Join();
  EXPECT_TRUE(late.status().ok()) << late.status().error_message();
  ASSERT_EQ(late.views().size(), 1u);
  EXPECT_EQ(late.views()[0].sequence(), last_sequence);
  EXPECT_TRUE(late.views()[0].terminal());
}

TEST_F(ServiceHandlersTest, PlayErrorsCloseTheStream) {
  const v1::CreateMatchResponse first = CreateCastleRock();
  const v1::CreateMatchResponse second = CreateCastleRock();
  ASSERT_EQ(first.seat_tokens_size(), 1);
  const std::string& token = first.seat_tokens(0).token();

  struct Case {
    std::optional<std::string> token;
    std::string name;
    grpc::StatusCode code;
  };
  for (const Case& c : std::vector<Case>{
           {std::nullopt, first.match().name(), grpc::StatusCode::UNAUTHENTICATED},
           {token, second.match().name(), grpc::StatusCode::PERMISSION_DENIED},
           {token, "games/1", grpc::StatusCode::INVALID_ARGUMENT},
       }) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<grpc::ClientContext> context = Context(c.token);
    auto stream = stub_->Play(context.get());
    v1::PlayRequest hello;
    hello.set_name(c.name);
    stream->Write(hello);
    stream->WritesDone();
    v1::PlayResponse response;
    EXPECT_FALSE(stream->Read(&response)) << "no view before the error";
    const grpc::Status status = stream->Finish();
    EXPECT_EQ(status.error_code(), c.code) << status.error_message();
  }

  // A later message naming another match ends the stream.
  std::unique_ptr<grpc::ClientContext> context = Context(token);
  auto stream = stub_->Play(context.get());
  v1::PlayRequest hello;
  hello.set_name(first.match().name());
  ASSERT_TRUE(stream->Write(hello));
  v1::PlayResponse response;
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_TRUE(response.has_view());
  v1::PlayRequest other;
  other.set_name(second.match().name());
  stream->Write(other);
  stream->WritesDone();
  while (stream->Read(&response)) {
  }
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
}

TEST_F(ServiceHandlersTest, ASeatKeepsAtMostItsStreamLimitAndClosesTheOldest) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& token = created.seat_tokens(0).token();
  const std::string& name = created.match().name();

  std::vector<PlayStream> streams;
  for (std::size_t i = 0; i <= kMaxStreamsPerSeat; ++i) {
    PlayStream s = OpenPlay(*stub_, token, name);
    v1::PlayResponse response;
    ASSERT_TRUE(s.stream->Read(&response)) << "stream " << i;
    EXPECT_EQ(response.view().sequence(), 0);
    streams.push_back(std::move(s));
  }

  // The one over the limit pushed out the first; the match is as it was.
  streams[0].stream->WritesDone();
  v1::PlayResponse response;
  EXPECT_FALSE(streams[0].stream->Read(&response));
  const grpc::Status oldest = streams[0].stream->Finish();
  EXPECT_EQ(oldest.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << oldest.error_message();
  EXPECT_THAT(oldest.error_message(), HasSubstr("oldest"));
  absl::StatusOr<v1::Match> match = GetMatch(name);
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->sequence(), 0);
  EXPECT_EQ(match->state(), v1::Match::ACTIVE);

  // Every other stream still gets the view after an action.
  v1::SeatView view;
  const grpc::Status played = Submit(token, name, FirstLegalActions().front(), 0, &view);
  ASSERT_TRUE(played.ok()) << played.error_message();
  for (std::size_t i = 1; i < streams.size(); ++i) {
    ASSERT_TRUE(streams[i].stream->Read(&response)) << "stream " << i;
    EXPECT_EQ(response.view().sequence(), 1) << "stream " << i;
    streams[i].context->TryCancel();
  }
}

// grpc_server_handled_total for `method` and `code` in `registry`; 0 when there is none.
double HandledCount(prometheus::Registry& registry, const std::string& method,
                    const std::string& code) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != "grpc_server_handled_total") continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      bool method_matches = false;
      bool code_matches = false;
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        if (label.name == "grpc_method") method_matches = label.value == method;
        if (label.name == "grpc_code") code_matches = label.value == code;
      }
      if (method_matches && code_matches) return metric.counter.value;
    }
  }
  return 0;
}

// The streams record themselves, without the per-message interceptor: each call is counted
// once, with the status it finished with, before the client sees that status.
TEST_F(ServiceHandlersTest, StreamsAreCountedOnceWhenTheyFinish) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  ExecutionServiceImpl service(*host_);
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .metrics = &metrics});
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = v1::ExecutionService::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", (*server)->port()), grpc::InsecureChannelCredentials()));
  const v1::CreateMatchResponse created = CreateCastleRock();
  const std::string& token = created.seat_tokens(0).token();

  {  // a Play stream that fails
    PlayStream play = OpenPlay(*stub, token, "games/1");
    play.stream->WritesDone();
    v1::PlayResponse response;
    EXPECT_FALSE(play.stream->Read(&response));
    EXPECT_EQ(play.stream->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  {  // one that plays the match to its end
    PlayStream play = OpenPlay(*stub, token, created.match().name());
    v1::PlayResponse response;
    ASSERT_TRUE(play.stream->Read(&response));
    v1::AbortMatchRequest abort;
    abort.set_name(created.match().name());
    abort.set_reason("the test is over");
    v1::Match aborted;
    ASSERT_TRUE(stub->AbortMatch(Context(kOperatorToken).get(), abort, &aborted).ok());
    while (play.stream->Read(&response)) {
    }
    EXPECT_TRUE(play.stream->Finish().ok());
  }
  {  // a WatchMatch stream that fails
    std::unique_ptr<grpc::ClientContext> context = Context();
    v1::WatchMatchRequest request;
    request.set_name("matches/nothing-here");
    auto stream = stub->WatchMatch(context.get(), request);
    v1::WatchMatchResponse response;
    EXPECT_FALSE(stream->Read(&response));
    EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::NOT_FOUND);
  }

  const std::string play = "boneyard.v1.ExecutionService/Play";
  EXPECT_EQ(HandledCount(registry, play, "INVALID_ARGUMENT"), 1);
  EXPECT_EQ(HandledCount(registry, play, "OK"), 1);
  EXPECT_EQ(HandledCount(registry, "boneyard.v1.ExecutionService/WatchMatch", "NOT_FOUND"), 1);
  // The unary calls still go through the interceptor.
  EXPECT_EQ(HandledCount(registry, "boneyard.v1.ExecutionService/AbortMatch", "OK"), 1);
  (*server)->Shutdown(absl::Seconds(5));
}

google::protobuf::FieldMask Mask(std::initializer_list<const char*> paths) {
  google::protobuf::FieldMask mask;
  for (const char* path : paths) mask.add_paths(path);
  return mask;
}

TEST_F(ServiceHandlersTest, PlayViewMaskChoosesTheFieldsOfEveryView) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& name = created.match().name();
  const std::string& token = created.seat_tokens(0).token();

  // Without a mask, every field: the layout (sent as wire bytes) arrives as the Struct.
  std::unique_ptr<grpc::ClientContext> full_context = Context(token);
  auto full = stub_->Play(full_context.get());
  v1::PlayRequest hello;
  hello.set_name(name);
  ASSERT_TRUE(full->Write(hello));
  v1::PlayResponse response;
  ASSERT_TRUE(full->Read(&response));
  ASSERT_TRUE(response.has_view());
  EXPECT_EQ(response.view().match(), name);
  EXPECT_GT(response.view().hand_counts_size(), 0);
  EXPECT_GT(response.view().layout().fields_size(), 0) << response.view().DebugString();

  // A second stream of the seat asks for what a bot needs.
  std::unique_ptr<grpc::ClientContext> lean_context = Context(token);
  auto lean = stub_->Play(lean_context.get());
  hello.clear_view_mask();
  *hello.mutable_view_mask() =
      Mask({"seat", "sequence", "current_seat", "terminal", "legal_actions", "last_event"});
  ASSERT_TRUE(lean->Write(hello));
  auto expect_lean = [](const v1::SeatView& view) {
    EXPECT_EQ(view.match(), "");
    EXPECT_EQ(view.game(), "");
    EXPECT_EQ(view.hand_size(), 0);
    EXPECT_EQ(view.hand_counts_size(), 0);
    EXPECT_FALSE(view.has_layout());
    EXPECT_EQ(view.GetReflection()->GetUnknownFields(view).field_count(), 0);
  };
  ASSERT_TRUE(lean->Read(&response));
  ASSERT_TRUE(response.has_view());
  const v1::SeatView first = response.view();
  expect_lean(first);
  ASSERT_GT(first.legal_actions_size(), 0);
  EXPECT_EQ(first.current_seat(), 0);

  // An action played on the lean stream: both streams get the next view, each its own way.
  v1::PlayRequest play;
  *play.mutable_action() = first.legal_actions(0);
  play.set_seen_sequence(first.sequence());
  ASSERT_TRUE(lean->Write(play));
  ASSERT_TRUE(lean->Read(&response));
  ASSERT_TRUE(response.has_view());
  expect_lean(response.view());
  EXPECT_EQ(response.view().sequence(), first.sequence() + 1);
  EXPECT_EQ(response.view().last_event().seat(), 0);
  ASSERT_TRUE(full->Read(&response));
  EXPECT_EQ(response.view().sequence(), first.sequence() + 1);
  EXPECT_GT(response.view().layout().fields_size(), 0);
  EXPECT_GT(response.view().hand_counts_size(), 0);
  full_context->TryCancel();
  lean_context->TryCancel();
  full->Finish();
  lean->Finish();
}

TEST_F(ServiceHandlersTest, ABadViewMaskIsInvalidArgumentOnceTheTokenIsChecked) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& name = created.match().name();
  struct Case {
    std::optional<std::string> token;
    grpc::StatusCode code;
  };
  for (const Case& c : std::vector<Case>{
           {std::nullopt, grpc::StatusCode::UNAUTHENTICATED},
           {created.seat_tokens(0).token(), grpc::StatusCode::INVALID_ARGUMENT},
       }) {
    std::unique_ptr<grpc::ClientContext> context = Context(c.token);
    auto stream = stub_->Play(context.get());
    v1::PlayRequest hello;
    hello.set_name(name);
    *hello.mutable_view_mask() = Mask({"sequence", "hands"});
    stream->Write(hello);
    stream->WritesDone();
    v1::PlayResponse response;
    EXPECT_FALSE(stream->Read(&response)) << "no view before the error";
    const grpc::Status status = stream->Finish();
    EXPECT_EQ(status.error_code(), c.code) << status.error_message();
    if (c.code == grpc::StatusCode::INVALID_ARGUMENT) {
      EXPECT_THAT(status.error_message(),
                  ::testing::HasSubstr("view_mask: SeatView has no field \"hands\""));
    }
  }

  // Spectators: a seat's field is not a field of the public view.
  v1::WatchMatchRequest request;
  request.set_name(name);
  *request.mutable_view_mask() = Mask({"hand"});
  std::unique_ptr<grpc::ClientContext> context = Context();
  auto reader = stub_->WatchMatch(context.get(), request);
  v1::WatchMatchResponse response;
  EXPECT_FALSE(reader->Read(&response));
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();

  // A good mask on a watch.
  *request.mutable_view_mask() = Mask({"sequence", "current_seat"});
  std::unique_ptr<grpc::ClientContext> watch_context = Context();
  auto watch = stub_->WatchMatch(watch_context.get(), request);
  ASSERT_TRUE(watch->Read(&response));
  EXPECT_EQ(response.view().sequence(), 0);
  EXPECT_EQ(response.view().match(), "");
  EXPECT_FALSE(response.view().has_layout());
  EXPECT_EQ(response.view().hand_counts_size(), 0);
  watch_context->TryCancel();
  watch->Finish();
}

TEST_F(ServiceHandlersTest, PlayRejectionsStayInTheStream) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  ASSERT_EQ(created.seat_tokens_size(), 1);
  const std::string& name = created.match().name();
  std::unique_ptr<grpc::ClientContext> context = Context(created.seat_tokens(0).token());
  auto stream = stub_->Play(context.get());

  v1::PlayRequest bad;
  bad.set_name(name);
  bad.mutable_action()->set_text("flip the table");
  ASSERT_TRUE(stream->Write(bad));

  // The current view (the stream opened), then the rejection.
  bool rejected = false;
  v1::PlayResponse response;
  while (!rejected && stream->Read(&response)) {
    if (!response.has_rejected()) continue;
    rejected = true;
    EXPECT_EQ(response.rejected().code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
    EXPECT_EQ(response.rejected().action().text(), "flip the table");
    EXPECT_THAT(response.rejected().message(), Not(IsEmpty()));
  }
  EXPECT_TRUE(rejected);

  // A hello is answered with the current view, unchanged.
  v1::PlayRequest hello;
  ASSERT_TRUE(stream->Write(hello));
  ASSERT_TRUE(stream->Read(&response));
  ASSERT_TRUE(response.has_view());
  EXPECT_EQ(response.view().sequence(), 0);

  context->TryCancel();
  while (stream->Read(&response)) {
  }
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  absl::StatusOr<v1::Match> match = GetMatch(name);
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->sequence(), 0);
}

// ----- Flood limits ---------------------------------------------------------------------------

// A host with small flood limits, so the tests can count exactly: five requests a seat (the
// bucket refills too slowly to matter in a test) and two spectators a match.
class FloodLimitTest : public ServiceHandlersTest {
 protected:
  static constexpr int kBurst = 5;
  void Configure(HostOptions& options) override {
    options.seat_flood = {.per_second = 0.001, .burst = kBurst};
    options.max_watchers_per_match = 2;
  }
};

// A client writes bad actions and reads nothing. The stream ends with RESOURCE_EXHAUSTED once the
// seat's burst is spent (the open took one token, each rejection one more), the match is as it
// was, a new stream of the seat is refused too, yet the seat's legal action is still played and
// another match is not touched.
TEST_F(FloodLimitTest, AFloodOfBadActionsEndsTheStreamWithResourceExhausted) {
  const v1::CreateMatchResponse flooded = CreateCastleRock();
  const v1::CreateMatchResponse other = CreateCastleRock();
  const std::string& name = flooded.match().name();
  const std::string& token = flooded.seat_tokens(0).token();

  std::unique_ptr<grpc::ClientContext> context = Context(token);
  auto stream = stub_->Play(context.get());
  v1::PlayRequest bad;
  bad.set_name(name);
  bad.mutable_action()->set_text("flip the table");
  for (int i = 0; i < 200 && stream->Write(bad); ++i) {
  }
  stream->WritesDone();
  int views = 0;
  int rejections = 0;
  v1::PlayResponse response;
  while (stream->Read(&response)) {
    views += response.has_view();
    rejections += response.has_rejected();
  }
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("slow down"));
  EXPECT_LT(status.error_message().size(), 200u);
  EXPECT_EQ(views, 1);
  EXPECT_EQ(rejections, kBurst - 1);

  PlayStream again = OpenPlay(*stub_, token, name);
  while (again.stream->Read(&response)) {
  }
  EXPECT_EQ(again.stream->Finish().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);

  v1::SeatView view;
  EXPECT_EQ(Submit(token, name, "flip the table", 0, &view).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  absl::StatusOr<v1::Match> unchanged = GetMatch(name);
  ASSERT_TRUE(unchanged.ok()) << unchanged.status();
  EXPECT_EQ(unchanged->sequence(), 0);

  const std::vector<std::string> legal = FirstLegalActions();
  ASSERT_FALSE(legal.empty());
  grpc::Status played = Submit(token, name, legal.front(), 0, &view);
  EXPECT_TRUE(played.ok()) << played.error_message();
  EXPECT_EQ(view.sequence(), 1);
  played = Submit(other.seat_tokens(0).token(), other.match().name(), legal.front(), 0, &view);
  EXPECT_TRUE(played.ok()) << played.error_message();
}

// Hellos cost the host a view each: past the burst the stream is closed.
TEST_F(FloodLimitTest, AFloodOfHellosEndsTheStream) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  PlayStream play = OpenPlay(*stub_, created.seat_tokens(0).token(), created.match().name());
  v1::PlayRequest hello;
  for (int i = 0; i < 50 && play.stream->Write(hello); ++i) {
  }
  play.stream->WritesDone();
  int views = 0;
  v1::PlayResponse response;
  while (play.stream->Read(&response)) views += response.has_view();
  const grpc::Status status = play.stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_EQ(views, kBurst);
}

// A watch that got its first view, with its context.
struct Watch {
  std::unique_ptr<grpc::ClientContext> context;
  std::unique_ptr<grpc::ClientReader<v1::WatchMatchResponse>> reader;
};

Watch StartWatch(v1::ExecutionService::Stub& stub, const std::string& name) {
  Watch watch{Context(), nullptr};
  v1::WatchMatchRequest request;
  request.set_name(name);
  watch.reader = stub.WatchMatch(watch.context.get(), request);
  return watch;
}

TEST_F(FloodLimitTest, AMatchTakesAtMostItsLimitOfSpectators) {
  const v1::CreateMatchResponse created = CreateCastleRock();
  const std::string& name = created.match().name();
  std::vector<Watch> watches;
  v1::WatchMatchResponse response;
  for (int i = 0; i < 2; ++i) {
    watches.push_back(StartWatch(*stub_, name));
    ASSERT_TRUE(watches.back().reader->Read(&response)) << "spectator " << i;
  }
  Watch refused = StartWatch(*stub_, name);
  EXPECT_FALSE(refused.reader->Read(&response));
  const grpc::Status status = refused.reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("spectators"));

  // A spectator leaves; its place is free as soon as the server has seen it go.
  watches.front().context->TryCancel();
  while (watches.front().reader->Read(&response)) {
  }
  watches.front().reader->Finish();
  bool admitted = false;
  for (int attempt = 0; attempt < 100 && !admitted; ++attempt) {
    Watch next = StartWatch(*stub_, name);
    admitted = next.reader->Read(&response);
    next.context->TryCancel();
    while (next.reader->Read(&response)) {
    }
    next.reader->Finish();
    if (!admitted) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(admitted);
}

// ----- The outgoing queue's policy (no database) --------------------------------------------

using execution_internal::OutgoingQueue;

std::shared_ptr<const v1::PlayResponse> View(int64_t sequence) {
  auto message = std::make_shared<v1::PlayResponse>();
  message->mutable_view()->set_sequence(sequence);
  return message;
}

std::shared_ptr<const v1::PlayResponse> Rejection(int64_t seen) {
  auto message = std::make_shared<v1::PlayResponse>();
  message->mutable_rejected()->set_seen_sequence(seen);
  return message;
}

// The queue's content as "v<sequence>" and "r<seen>".
std::vector<std::string> Drain(OutgoingQueue<v1::PlayResponse>& queue) {
  std::vector<std::string> out;
  while (!queue.empty()) {
    std::shared_ptr<const v1::PlayResponse> message = queue.Pop();
    out.push_back(message->has_view() ? absl::StrCat("v", message->view().sequence())
                                      : absl::StrCat("r", message->rejected().seen_sequence()));
  }
  return out;
}

TEST(OutgoingQueue, KeepsEverythingBelowCapacity) {
  OutgoingQueue<v1::PlayResponse> queue(4);
  EXPECT_FALSE(queue.Push(View(1)));
  EXPECT_FALSE(queue.Push(Rejection(1)));
  EXPECT_FALSE(queue.Push(View(2)));
  EXPECT_FALSE(queue.full());
  EXPECT_THAT(Drain(queue), ::testing::ElementsAre("v1", "r1", "v2"));
}

TEST(OutgoingQueue, DropsTheOldestViewWhenFull) {
  OutgoingQueue<v1::PlayResponse> queue(3);
  queue.Push(Rejection(0));
  queue.Push(View(1));
  queue.Push(View(2));
  EXPECT_TRUE(queue.full());
  EXPECT_TRUE(queue.Push(View(3)));
  EXPECT_THAT(Drain(queue), ::testing::ElementsAre("r0", "v2", "v3"));
}

TEST(OutgoingQueue, NeverDropsRejectionsOrTheLatestView) {
  OutgoingQueue<v1::PlayResponse> queue(3);
  queue.Push(Rejection(0));
  queue.Push(View(1));
  queue.Push(Rejection(1));
  // A rejection arrives: the only view is the latest, so nothing is dropped.
  EXPECT_FALSE(queue.Push(Rejection(2)));
  EXPECT_EQ(queue.size(), 4u);
  // A view arrives: the older view goes.
  EXPECT_TRUE(queue.Push(View(2)));
  EXPECT_THAT(Drain(queue), ::testing::ElementsAre("r0", "r1", "r2", "v2"));
}

TEST(OutgoingQueue, ARejectionMayPushOutAViewThatALaterOneSupersedes) {
  OutgoingQueue<v1::PlayResponse> queue(3);
  queue.Push(View(1));
  queue.Push(View(2));
  queue.Push(View(3));
  EXPECT_TRUE(queue.Push(Rejection(3)));
  EXPECT_THAT(Drain(queue), ::testing::ElementsAre("v2", "v3", "r3"));
}

TEST(OutgoingQueue, WatchViewsAreAllSupersedable) {
  OutgoingQueue<v1::WatchMatchResponse> queue(2);
  for (int64_t i = 0; i < 10; ++i) {
    auto message = std::make_shared<v1::WatchMatchResponse>();
    message->mutable_view()->set_sequence(i);
    queue.Push(std::move(message));
  }
  ASSERT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.Pop()->view().sequence(), 8);
  EXPECT_EQ(queue.Pop()->view().sequence(), 9);
}

}  // namespace
}  // namespace boneyard::execution
