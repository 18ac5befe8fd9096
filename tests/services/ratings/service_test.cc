// The ratings service's gRPC handlers end to end: a real gRPC server on loopback over the real
// logic, batcher and PgRatingStore, against the PostgreSQL named by BONEYARD_TEST_DATABASE_URL
// (a schema per test). Covers every RPC and every status code ratings.proto documents.
#include "services/ratings/ratings_service.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/bearer.h"
#include "services/common/grpc_status.h"
#include "services/common/server.h"
#include "services/ratings/rating_update.h"
#include "services/ratings/result_batcher.h"
#include "tests/services/ratings/ratings_test_util.h"

namespace boneyard::ratings {
namespace {

using ::testing::HasSubstr;
using test_util::Duel;
using test_util::FinishedMatch;
using test_util::Minute;
using test_util::Request;
using test_util::Solitaire;

constexpr char kOperatorToken[] = "operator-token-for-tests-0123456789";
constexpr char kResultsToken[] = "results-token-for-tests-0123456789";

std::unique_ptr<grpc::ClientContext> Context(std::optional<std::string> token = std::nullopt) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  // The server is known to be up: a connect that fails once under a loaded CI machine is
  // retried until the deadline instead of failing the call (fail-fast is gRPC's default).
  context->set_wait_for_ready(true);
  if (token.has_value()) AddBearerToken(*context, *token);
  return context;
}

class ServiceTest : public test_util::RatingsPgTest {
 protected:
  void SetUp() override {
    RatingsPgTest::SetUp();
    if (HasFatalFailure()) return;
    batcher_ = std::make_unique<ResultBatcher>(*store_, ResultBatcher::Options{});
    logic_ = std::make_unique<RatingsLogic>(
        *store_, *batcher_, DefaultRegistry(),
        RatingsOptions{.operator_token = kOperatorToken, .results_token = kResultsToken},
        nullptr);
    service_ = std::make_unique<RatingsServiceImpl>(*logic_);
    absl::StatusOr<std::unique_ptr<GrpcServer>> server =
        GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {service_.get()}});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = NewStub(0);
  }

  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown(absl::Seconds(5));
    if (batcher_ != nullptr) batcher_->Stop();
    server_.reset();
    service_.reset();
    logic_.reset();
    batcher_.reset();
    RatingsPgTest::TearDown();
  }

  // A stub on a channel of its own (`n` makes the channel distinct: no shared connection).
  std::unique_ptr<v1::RatingsService::Stub> NewStub(int n) {
    grpc::ChannelArguments args;
    args.SetInt("boneyard.test.channel", n);
    return v1::RatingsService::NewStub(grpc::CreateCustomChannel(
        absl::StrCat("127.0.0.1:", server_->port()), grpc::InsecureChannelCredentials(), args));
  }

  absl::StatusOr<v1::RecordResultResponse> Record(
      const v1::Match& match, std::optional<std::string> token = kResultsToken,
      v1::RatingsService::Stub* stub = nullptr) {
    v1::RecordResultResponse response;
    grpc::Status status = (stub ? stub : stub_.get())
                              ->RecordResult(Context(token).get(), Request(match), &response);
    if (!status.ok()) return FromGrpcStatus(status);
    return response;
  }

  absl::StatusOr<v1::Rating> Get(const std::string& player, const std::string& game = "muggins") {
    v1::GetRatingRequest request;
    request.set_player_id(player);
    request.set_game(game);
    v1::Rating rating;
    grpc::Status status = stub_->GetRating(Context().get(), request, &rating);
    if (!status.ok()) return FromGrpcStatus(status);
    return rating;
  }

  absl::StatusOr<v1::ListLeaderboardResponse> Leaderboard(v1::ListLeaderboardRequest request) {
    v1::ListLeaderboardResponse response;
    grpc::Status status = stub_->ListLeaderboard(Context().get(), request, &response);
    if (!status.ok()) return FromGrpcStatus(status);
    return response;
  }

  absl::StatusOr<v1::ListRatingHistoryResponse> History(v1::ListRatingHistoryRequest request) {
    v1::ListRatingHistoryResponse response;
    grpc::Status status = stub_->ListRatingHistory(Context().get(), request, &response);
    if (!status.ok()) return FromGrpcStatus(status);
    return response;
  }

  absl::StatusOr<v1::RerateGameResponse> Rerate(v1::RerateGameRequest request,
                                                std::optional<std::string> token = kOperatorToken) {
    v1::RerateGameResponse response;
    grpc::Status status = stub_->RerateGame(Context(token).get(), request, &response);
    if (!status.ok()) return FromGrpcStatus(status);
    return response;
  }

  std::unique_ptr<ResultBatcher> batcher_;
  std::unique_ptr<RatingsLogic> logic_;
  std::unique_ptr<RatingsServiceImpl> service_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::RatingsService::Stub> stub_;
};

v1::RerateGameRequest RerateRequest(const std::string& game) {
  v1::RerateGameRequest request;
  request.set_game(game);
  return request;
}

// ----- RecordResult, GetRating, ListRatingHistory -------------------------------------------

TEST_F(ServiceTest, RecordsAResultAndServesTheRatings) {
  absl::StatusOr<v1::RecordResultResponse> recorded = Record(Duel("m1", "ann", "bob", Minute(1)));
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_EQ(recorded->match(), "matches/m1");
  EXPECT_FALSE(recorded->already_recorded());
  ASSERT_EQ(recorded->changes_size(), 2);

  absl::StatusOr<v1::Rating> ann = Get("ann");
  ASSERT_TRUE(ann.ok()) << ann.status();
  EXPECT_EQ(ann->mu(), recorded->changes(0).mu_after());
  EXPECT_EQ(ann->games_played(), 1);
  EXPECT_TRUE(ann->provisional());
  EXPECT_TRUE(ann->has_update_time());

  // A player with no rated match: the model's initial rating.
  absl::StatusOr<v1::Rating> newcomer = Get("zed");
  ASSERT_TRUE(newcomer.ok()) << newcomer.status();
  EXPECT_EQ(newcomer->mu(), 25.0);
  EXPECT_EQ(newcomer->sigma(), 25.0 / 3);
  EXPECT_EQ(newcomer->ordinal(), 0.0);
  EXPECT_EQ(newcomer->games_played(), 0);
  EXPECT_TRUE(newcomer->provisional());
  EXPECT_FALSE(newcomer->has_update_time());
  EXPECT_EQ(newcomer->name(), "players/zed/ratings/muggins");

  v1::ListRatingHistoryRequest history;
  history.set_player_id("bob");
  history.set_game("muggins");
  absl::StatusOr<v1::ListRatingHistoryResponse> changes = History(history);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->changes_size(), 1);
  EXPECT_EQ(changes->changes(0).match(), "matches/m1");
  EXPECT_EQ(changes->changes(0).rank(), 2);
  EXPECT_TRUE(changes->next_page_token().empty());
}

TEST_F(ServiceTest, ASecondDeliveryIsAlreadyRecordedWithTheSameChanges) {
  absl::StatusOr<v1::RecordResultResponse> first = Record(Duel("m1", "ann", "bob", Minute(1)));
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string before = Snapshot();
  absl::StatusOr<v1::RecordResultResponse> again = Record(Duel("m1", "ann", "bob", Minute(1)));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->already_recorded());
  v1::RecordResultResponse expected = *first;
  expected.set_already_recorded(true);
  EXPECT_EQ(again->SerializeAsString(), expected.SerializeAsString());
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(ServiceTest, OneResultDeliveredAThousandTimesConcurrentlyIsAppliedOnce) {
  const v1::Match match = FinishedMatch(
      "m1", "muggins", {{"ann", 1}, {"bob", 2}, {"cat", 1}, {"dan", 2}}, Minute(1), {{0, 2}, {1, 3}});
  constexpr int kClients = 8;
  constexpr int kCallsEach = 125;
  std::vector<std::unique_ptr<v1::RatingsService::Stub>> stubs;
  for (int c = 0; c < kClients; ++c) stubs.push_back(NewStub(c + 1));
  std::vector<std::vector<absl::StatusOr<v1::RecordResultResponse>>> answers(kClients);
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      // Several calls in flight per client: the async stub, completion queue drained after.
      grpc::CompletionQueue cq;
      std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
      std::vector<v1::RecordResultResponse> responses(kCallsEach);
      std::vector<grpc::Status> statuses(kCallsEach);
      const v1::RecordResultRequest request = Request(match);
      for (int i = 0; i < kCallsEach; ++i) {
        contexts.push_back(Context(kResultsToken));
        auto call = stubs[c]->AsyncRecordResult(contexts.back().get(), request, &cq);
        call->Finish(&responses[i], &statuses[i], reinterpret_cast<void*>(static_cast<intptr_t>(i)));
      }
      for (int done = 0; done < kCallsEach; ++done) {
        void* tag;
        bool ok;
        ASSERT_TRUE(cq.Next(&tag, &ok));
      }
      for (int i = 0; i < kCallsEach; ++i) {
        answers[c].push_back(statuses[i].ok()
                                 ? absl::StatusOr<v1::RecordResultResponse>(responses[i])
                                 : FromGrpcStatus(statuses[i]));
      }
    });
  }
  for (std::thread& t : clients) t.join();

  int fresh = 0;
  std::optional<std::string> changes;
  for (const auto& client : answers) {
    ASSERT_EQ(client.size(), static_cast<size_t>(kCallsEach));
    for (const auto& answer : client) {
      ASSERT_TRUE(answer.ok()) << answer.status();
      if (!answer->already_recorded()) ++fresh;
      v1::RecordResultResponse plain = *answer;
      plain.set_already_recorded(false);
      if (!changes.has_value()) changes = plain.SerializeAsString();
      EXPECT_EQ(plain.SerializeAsString(), *changes);
    }
  }
  EXPECT_EQ(fresh, 1);
  EXPECT_EQ(Count("results"), 1);
  EXPECT_EQ(Count("history"), 4);  // one row per player
  EXPECT_EQ(Count("history", "player_id = 'ann'"), 1);
  absl::StatusOr<v1::Rating> ann = Get("ann");
  ASSERT_TRUE(ann.ok());
  EXPECT_EQ(ann->games_played(), 1);
}

TEST_F(ServiceTest, AConflictingResultIsAlreadyExistsAndChangesNothing) {
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  const std::string before = Snapshot();
  absl::StatusOr<v1::RecordResultResponse> other = Record(Duel("m1", "bob", "ann", Minute(1)));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(other.status().message(), HasSubstr("recorded: game muggins"));
  EXPECT_THAT(other.status().message(), HasSubstr("seats [ann, bob]"));
  EXPECT_THAT(other.status().message(), HasSubstr("this request: game muggins"));
  EXPECT_THAT(other.status().message(), HasSubstr("seats [bob, ann]"));
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(ServiceTest, BadInputIsInvalidArgumentAndStoresNothing) {
  ASSERT_TRUE(Record(Duel("m0", "ann", "bob", Minute(0))).ok());
  const std::string before = Snapshot();
  std::map<std::string, v1::Match> cases;
  cases["unknown game"] = Duel("m1", "ann", "bob", Minute(1));
  cases["unknown game"].set_game("tiddlywinks");
  cases["empty seats"] = FinishedMatch("m2", "muggins", {}, Minute(2));
  cases["ranks do not match teams"] = FinishedMatch(
      "m3", "muggins", {{"ann", 1}, {"bob", 2}, {"cat", 2}, {"dan", 2}}, Minute(3), {{0, 2}, {1, 3}});
  cases["negative rank"] = Duel("m4", "ann", "bob", Minute(4));
  cases["negative rank"].mutable_result()->set_ranks(1, -1);
  cases["NaN detail"] = Solitaire("m5", "ann", 2, 5, absl::Seconds(30), Minute(5));
  (*cases["NaN detail"].mutable_result()->mutable_details()->mutable_fields())["tiles_left"]
      .set_number_value(std::numeric_limits<double>::quiet_NaN());
  cases["negative detail"] = Solitaire("m6", "ann", 2, 5, absl::Seconds(30), Minute(6));
  (*cases["negative detail"].mutable_result()->mutable_details()->mutable_fields())["pips_left"]
      .set_number_value(-4);
  cases["not finished"] = Duel("m7", "ann", "bob", Minute(7));
  cases["not finished"].set_state(v1::Match::ACTIVE);
  cases["no end time"] = Duel("m8", "ann", "bob", Minute(8));
  cases["no end time"].clear_end_time();
  // Player ids the store could never keep (a NUL) or index (9,000 bytes): refused at the edge,
  // with a message that quotes only a prefix, so no batch ever meets them.
  cases["a NUL in a player id"] = Duel("m9", std::string("a\0b", 3), "bob", Minute(9));
  cases["a 9,000-byte player id"] = Duel("m10", std::string(9000, 'p'), "bob", Minute(10));
  cases["a 1 MB player id"] = Duel("m11", "ann", std::string(1 << 20, 'q'), Minute(11));
  cases["a 1 MB game"] = Duel("m13", "ann", "bob", Minute(13));
  cases["a 1 MB game"].set_game(std::string(1 << 20, 'g'));
  for (const auto& [what, match] : cases) {
    absl::StatusOr<v1::RecordResultResponse> response = Record(match);
    EXPECT_EQ(response.status().code(), absl::StatusCode::kInvalidArgument)
        << what << ": " << response.status().ToString().substr(0, 300);
    EXPECT_THAT(response.status().message(), HasSubstr("match")) << what;
    EXPECT_LE(response.status().message().size(), 256u) << what;
  }
  EXPECT_EQ(Snapshot(), before);
  // A good result beside them is recorded.
  EXPECT_TRUE(Record(Duel("m14", "ann", "bob", Minute(14))).ok());
}

TEST_F(ServiceTest, Auth) {
  const v1::Match match = Duel("m1", "ann", "bob", Minute(1));
  EXPECT_EQ(Record(match, std::nullopt).status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Record(match, "not-a-token-anybody-knows").status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Record(match, kOperatorToken).status().code(), absl::StatusCode::kPermissionDenied);
  // The token is checked before the request: a bad request without a token is UNAUTHENTICATED.
  EXPECT_EQ(Record(v1::Match(), std::nullopt).status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Count("results"), 0);

  EXPECT_EQ(Rerate(RerateRequest("muggins"), std::nullopt).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Rerate(RerateRequest("muggins"), "not-a-token-anybody-knows").status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Rerate(RerateRequest("muggins"), kResultsToken).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(Rerate(RerateRequest("nonsense"), kResultsToken).status().code(),
            absl::StatusCode::kPermissionDenied);

  // Reads need no token.
  EXPECT_TRUE(Get("ann").ok());
  ASSERT_TRUE(Record(match).ok());
  EXPECT_TRUE(Rerate(RerateRequest("muggins")).ok());
}

TEST_F(ServiceTest, GetRatingErrors) {
  EXPECT_EQ(Get("").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Get(std::string("a\0b", 3)).status().code(), absl::StatusCode::kInvalidArgument);
  const absl::Status huge = Get(std::string(1 << 20, 'a')).status();
  EXPECT_EQ(huge.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_LE(huge.message().size(), 256u);
  EXPECT_THAT(huge.message(), HasSubstr("player_id"));
  EXPECT_EQ(Get("ann", "go").status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<v1::Rating> solitaire = Get("ann", "castle_rock");
  EXPECT_EQ(solitaire.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(solitaire.status().message(), HasSubstr("castle_rock"));
}

TEST_F(ServiceTest, BatchGetRatingsAnswersEveryPlayerInOrder) {
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  v1::BatchGetRatingsRequest request;
  request.set_game("muggins");
  for (const char* player : {"bob", "zed", "ann", "bob"}) request.add_player_ids(player);
  v1::BatchGetRatingsResponse response;
  grpc::Status status = stub_->BatchGetRatings(Context().get(), request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.ratings_size(), 4);
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<v1::Rating> one = Get(request.player_ids(i));
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(response.ratings(i).SerializeAsString(), one->SerializeAsString()) << i;
  }
  EXPECT_EQ(response.ratings(1).games_played(), 0);  // zed: the initial rating
  EXPECT_GT(response.ratings(2).mu(), response.ratings(0).mu());

  v1::BatchGetRatingsRequest bad = request;
  bad.set_player_ids(2, std::string(1 << 20, 'a'));
  status = stub_->BatchGetRatings(Context().get(), bad, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("player_ids[2]"));
  EXPECT_LE(status.error_message().size(), 256u);
  bad = request;
  bad.set_game("castle_rock");
  EXPECT_EQ(stub_->BatchGetRatings(Context().get(), bad, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  bad = request;
  for (int i = 0; i < 1000; ++i) bad.add_player_ids(absl::StrCat("p", i));
  status = stub_->BatchGetRatings(Context().get(), bad, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("more than 1000"));
}

TEST_F(ServiceTest, HistoryPagesAndErrors) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Record(Duel(absl::StrCat("m", i), "ann", absl::StrCat("p", i), Minute(i))).ok());
  }
  v1::ListRatingHistoryRequest request;
  request.set_player_id("ann");
  request.set_game("muggins");
  request.set_page_size(2);
  std::vector<std::string> matches;
  for (int page = 0; page < 10; ++page) {
    absl::StatusOr<v1::ListRatingHistoryResponse> response = History(request);
    ASSERT_TRUE(response.ok()) << response.status();
    for (const v1::RatingChange& c : response->changes()) matches.push_back(c.match());
    if (response->next_page_token().empty()) break;
    request.set_page_token(response->next_page_token());
  }
  EXPECT_EQ(matches, (std::vector<std::string>{"matches/m4", "matches/m3", "matches/m2",
                                               "matches/m1", "matches/m0"}));

  v1::ListRatingHistoryRequest first;
  first.set_player_id("ann");
  first.set_game("muggins");
  first.set_page_size(1);
  absl::StatusOr<v1::ListRatingHistoryResponse> page = History(first);
  ASSERT_TRUE(page.ok());
  ASSERT_FALSE(page->next_page_token().empty());

  auto code = [&](std::function<void(v1::ListRatingHistoryRequest&)> change) {
    v1::ListRatingHistoryRequest r = first;
    change(r);
    return History(r).status().code();
  };
  EXPECT_EQ(code([](auto& r) { r.set_player_id(""); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_game("castle_rock"); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_game("chess"); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_page_size(-1); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_page_token("garbage!"); }),
            absl::StatusCode::kInvalidArgument);
  const std::string token = page->next_page_token();
  EXPECT_EQ(code([&](auto& r) {
              r.set_page_token(token);
              r.set_player_id("bob");
            }),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([&](auto& r) { r.set_page_token(token); }), absl::StatusCode::kOk);
}

// ----- ListLeaderboard ----------------------------------------------------------------------

TEST_F(ServiceTest, LeaderboardPaginationTiesAndProvisional) {
  // ann and cat beat newcomers: identical ratings, so they share first place.
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  ASSERT_TRUE(Record(Duel("m2", "cat", "dan", Minute(2))).ok());
  // eve wins 25 matches: her sigma settles below the provisional threshold.
  for (int i = 0; i < 25; ++i) {
    ASSERT_TRUE(Record(Duel(absl::StrCat("e", i), "eve", absl::StrCat("n", i), Minute(3 + i))).ok());
  }
  v1::ListLeaderboardRequest request;
  request.set_game("muggins");
  request.set_page_size(1);
  std::vector<std::pair<std::string, int>> top;
  for (int page = 0; page < 3; ++page) {
    absl::StatusOr<v1::ListLeaderboardResponse> response = Leaderboard(request);
    ASSERT_TRUE(response.ok()) << response.status();
    ASSERT_EQ(response->entries_size(), 1);
    const v1::LeaderboardEntry& entry = response->entries(0);
    ASSERT_TRUE(entry.has_rating());
    EXPECT_EQ(entry.rating().provisional(), entry.rating().sigma() > kDefaultProvisionalSigma);
    top.emplace_back(entry.player_id(), entry.rank());
    request.set_page_token(response->next_page_token());
  }
  EXPECT_EQ(top, (std::vector<std::pair<std::string, int>>{{"eve", 1}, {"ann", 2}, {"cat", 2}}));
  absl::StatusOr<v1::Rating> eve = Get("eve");
  ASSERT_TRUE(eve.ok());
  EXPECT_FALSE(eve->provisional()) << eve->sigma();
  EXPECT_EQ(eve->games_played(), 25);

  v1::ListLeaderboardRequest all;
  all.set_game("muggins");
  absl::StatusOr<v1::ListLeaderboardResponse> everyone = Leaderboard(all);
  ASSERT_TRUE(everyone.ok());
  EXPECT_EQ(everyone->entries_size(), 30);
  EXPECT_TRUE(everyone->next_page_token().empty());
  for (int i = 1; i < everyone->entries_size(); ++i) {
    EXPECT_GE(everyone->entries(i - 1).rating().ordinal(), everyone->entries(i).rating().ordinal());
  }
}

TEST_F(ServiceTest, LeaderboardErrors) {
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  ASSERT_TRUE(Record(Duel("m2", "cat", "dan", Minute(2))).ok());
  v1::ListLeaderboardRequest first;
  first.set_game("muggins");
  first.set_page_size(1);
  absl::StatusOr<v1::ListLeaderboardResponse> page = Leaderboard(first);
  ASSERT_TRUE(page.ok());
  const std::string token = page->next_page_token();
  ASSERT_FALSE(token.empty());

  auto code = [&](std::function<void(v1::ListLeaderboardRequest&)> change) {
    v1::ListLeaderboardRequest r = first;
    change(r);
    return Leaderboard(r).status().code();
  };
  EXPECT_EQ(code([](auto& r) { r.set_game("chess"); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_page_size(-5); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_all_results(true); }), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([](auto& r) { r.set_page_token("not a token"); }),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([&](auto& r) {
              r.set_page_token(token);
              r.set_game("castle_rock");
            }),
            absl::StatusCode::kInvalidArgument);
  // A history token is not a leaderboard token.
  v1::ListRatingHistoryRequest history;
  history.set_player_id("ann");
  history.set_game("muggins");
  history.set_page_size(1);
  ASSERT_TRUE(Record(Duel("m3", "ann", "cat", Minute(3))).ok());
  absl::StatusOr<v1::ListRatingHistoryResponse> h = History(history);
  ASSERT_TRUE(h.ok());
  ASSERT_FALSE(h->next_page_token().empty());
  EXPECT_EQ(code([&](auto& r) { r.set_page_token(h->next_page_token()); }),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code([&](auto& r) { r.set_page_token(token); }), absl::StatusCode::kOk);
  // Page sizes above 1000 are read as 1000; zero as 50.
  EXPECT_EQ(code([](auto& r) { r.set_page_size(5000); }), absl::StatusCode::kOk);
}

TEST_F(ServiceTest, CastleRockLeaderboards) {
  ASSERT_TRUE(Record(Solitaire("s1", "ann", 4, 30, absl::Seconds(40), Minute(1))).ok());
  absl::StatusOr<v1::RecordResultResponse> best =
      Record(Solitaire("s2", "ann", 0, 0, absl::Seconds(90), Minute(2)));
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(best->changes_size(), 0);
  ASSERT_TRUE(Record(Solitaire("s3", "bob", 0, 0, absl::Seconds(60), Minute(3))).ok());
  ASSERT_TRUE(Record(Solitaire("s4", "cat", 2, 3, absl::Seconds(10), Minute(4))).ok());

  v1::ListLeaderboardRequest request;
  request.set_game("castle_rock");
  absl::StatusOr<v1::ListLeaderboardResponse> bests = Leaderboard(request);
  ASSERT_TRUE(bests.ok()) << bests.status();
  ASSERT_EQ(bests->entries_size(), 3);
  EXPECT_EQ(bests->entries(0).player_id(), "bob");
  EXPECT_EQ(bests->entries(1).player_id(), "ann");
  EXPECT_EQ(bests->entries(1).result().match(), "matches/s2");
  EXPECT_EQ(bests->entries(1).result().duration_millis(), 90000);
  EXPECT_TRUE(bests->entries(1).result().won());
  EXPECT_EQ(bests->entries(2).player_id(), "cat");
  EXPECT_EQ(bests->entries(2).rank(), 3);

  request.set_all_results(true);
  request.set_page_size(3);
  absl::StatusOr<v1::ListLeaderboardResponse> all = Leaderboard(request);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->entries_size(), 3);
  ASSERT_FALSE(all->next_page_token().empty());
  // A best-results token does not page all results.
  v1::ListLeaderboardRequest mixed = request;
  mixed.set_all_results(false);
  mixed.set_page_token(all->next_page_token());
  EXPECT_EQ(Leaderboard(mixed).status().code(), absl::StatusCode::kInvalidArgument);
  request.set_page_token(all->next_page_token());
  absl::StatusOr<v1::ListLeaderboardResponse> rest = Leaderboard(request);
  ASSERT_TRUE(rest.ok()) << rest.status();
  ASSERT_EQ(rest->entries_size(), 1);
  EXPECT_EQ(rest->entries(0).result().match(), "matches/s1");
  EXPECT_EQ(rest->entries(0).rank(), 4);
  EXPECT_TRUE(rest->next_page_token().empty());
}

// ----- RerateGame ---------------------------------------------------------------------------

TEST_F(ServiceTest, OutOfOrderDeliveryIsAppliedAsItArrivesAndRerateRestoresFinishOrder) {
  const v1::Match m1 = Duel("m1", "ann", "bob", Minute(1));
  const v1::Match m2 = Duel("m2", "bob", "ann", Minute(2));
  ASSERT_TRUE(Record(m2).ok());  // finished later, arrived first
  ASSERT_TRUE(Record(m1).ok());
  auto valid = [](const v1::Match& m) { return *ValidateResult(Request(m), DefaultRegistry()); };
  RatingTable arrival, finish;
  ASSERT_TRUE(ApplyResult(RatingModelConfig{}, valid(m2), arrival).ok());
  ASSERT_TRUE(ApplyResult(RatingModelConfig{}, valid(m1), arrival).ok());
  ASSERT_TRUE(ApplyResult(RatingModelConfig{}, valid(m1), finish).ok());
  ASSERT_TRUE(ApplyResult(RatingModelConfig{}, valid(m2), finish).ok());
  EXPECT_EQ(Get("ann")->mu(), arrival["ann"].skill.mu);

  absl::StatusOr<v1::RerateGameResponse> rerated = Rerate(RerateRequest("muggins"));
  ASSERT_TRUE(rerated.ok()) << rerated.status();
  EXPECT_EQ(rerated->results(), 2);
  EXPECT_EQ(rerated->players(), 2);
  EXPECT_EQ(rerated->model().kind(), v1::RatingModel::PLACKETT_LUCE);
  EXPECT_EQ(rerated->model().sigma(), 25.0 / 3);
  EXPECT_EQ(Get("ann")->mu(), finish["ann"].skill.mu);
  EXPECT_EQ(Get("bob")->sigma(), finish["bob"].skill.sigma);
  EXPECT_NE(arrival["ann"].skill.mu, finish["ann"].skill.mu);
}

TEST_F(ServiceTest, RerateWithAnotherModel) {
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  const double plackett_luce = Get("ann")->mu();
  v1::RerateGameRequest request = RerateRequest("muggins");
  request.mutable_model()->set_kind(v1::RatingModel::THURSTONE_MOSTELLER_FULL);
  request.mutable_model()->set_mu(30);
  absl::StatusOr<v1::RerateGameResponse> rerated = Rerate(request);
  ASSERT_TRUE(rerated.ok()) << rerated.status();
  EXPECT_EQ(rerated->model().kind(), v1::RatingModel::THURSTONE_MOSTELLER_FULL);
  EXPECT_EQ(rerated->model().mu(), 30);
  EXPECT_EQ(rerated->model().sigma(), 10);  // mu / 3
  EXPECT_EQ(rerated->model().beta(), 5);    // sigma / 2
  EXPECT_EQ(rerated->model().kappa(), 0.0001);
  EXPECT_NE(Get("ann")->mu(), plackett_luce);
  EXPECT_GT(Get("ann")->mu(), 30);
  // Newcomers now start at the new model's initial rating.
  EXPECT_EQ(Get("zed")->mu(), 30);
}

TEST_F(ServiceTest, RerateErrors) {
  EXPECT_EQ(Rerate(RerateRequest("chess")).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Rerate(RerateRequest("castle_rock")).status().code(),
            absl::StatusCode::kInvalidArgument);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto bad : std::vector<std::function<void(v1::RatingModel&)>>{
           [&](v1::RatingModel& m) { m.set_sigma(nan); },
           [](v1::RatingModel& m) { m.set_sigma(-1); },
           [](v1::RatingModel& m) { m.set_beta(-2); },
           [](v1::RatingModel& m) { m.set_beta(std::numeric_limits<double>::infinity()); },
           [](v1::RatingModel& m) { m.set_kappa(-0.5); },
           [](v1::RatingModel& m) { m.set_tau(-0.1); },
           [](v1::RatingModel& m) { m.set_kind(static_cast<v1::RatingModel::Kind>(42)); }}) {
    v1::RerateGameRequest request = RerateRequest("muggins");
    bad(*request.mutable_model());
    absl::StatusOr<v1::RerateGameResponse> response = Rerate(request);
    EXPECT_EQ(response.status().code(), absl::StatusCode::kInvalidArgument)
        << request.ShortDebugString() << ": " << response.status();
  }
}

// The reads and RerateGame refuse oversized and malformed fields with short messages naming the
// field, and change nothing.
TEST_F(ServiceTest, ReadsAndRerateRefuseMalformedFieldsWithShortMessages) {
  ASSERT_TRUE(Record(Duel("m1", "ann", "bob", Minute(1))).ok());
  const std::string before = Snapshot();
  const std::string megabyte(1 << 20, 'x');
  const std::string nul("a\0b", 3);
  auto expect_refused = [](const absl::Status& status, absl::string_view field,
                           absl::string_view what) {
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument)
        << what << ": " << status.ToString().substr(0, 300);
    EXPECT_THAT(status.message(), HasSubstr(field)) << what;
    EXPECT_LE(status.message().size(), 256u) << what;
  };
  for (const auto& [what, value] :
       std::vector<std::pair<std::string, std::string>>{{"1 MB", megabyte}, {"NUL", nul}}) {
    v1::GetRatingRequest get;
    get.set_player_id(value);
    get.set_game("muggins");
    v1::Rating rating;
    grpc::Status status = stub_->GetRating(Context().get(), get, &rating);
    expect_refused(FromGrpcStatus(status), "player_id", "GetRating player_id " + what);
    get.set_player_id("ann");
    get.set_game(value);
    status = stub_->GetRating(Context().get(), get, &rating);
    expect_refused(FromGrpcStatus(status), "game", "GetRating game " + what);

    v1::ListLeaderboardRequest leaderboard;
    leaderboard.set_game(value);
    expect_refused(Leaderboard(leaderboard).status(), "game", "ListLeaderboard game " + what);
    leaderboard.set_game("muggins");
    leaderboard.set_page_token(value);
    expect_refused(Leaderboard(leaderboard).status(), "page_token",
                   "ListLeaderboard page_token " + what);

    v1::ListRatingHistoryRequest history;
    history.set_player_id(value);
    history.set_game("muggins");
    expect_refused(History(history).status(), "player_id", "ListRatingHistory player_id " + what);
    history.set_player_id("ann");
    history.set_page_token(value);
    expect_refused(History(history).status(), "page_token",
                   "ListRatingHistory page_token " + what);

    expect_refused(Rerate(RerateRequest(value)).status(), "game", "RerateGame game " + what);
  }
  EXPECT_EQ(Snapshot(), before);
}

// A request that does not parse (here: invalid UTF-8 in a string field) is refused by gRPC
// before any handler runs, INTERNAL from every method (the callback API answered an empty
// UNIMPLEMENTED): "Unable to parse request" from the writes (async API), no message from the
// reads (synchronous API: libgrpc 1.51 sends none).
TEST_F(ServiceTest, AnUndecodableRequestIsTheSameParseErrorOnEveryMethod) {
  const std::string invalid_utf8 = "caf\xc3";
  const std::string before = Snapshot();
  auto expect_parse_error = [](const grpc::Status& status, absl::string_view method) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL) << method;
    if (method == "RecordResult" || method == "RerateGame") {
      EXPECT_EQ(status.error_message(), "Unable to parse request") << method;
    }
  };
  v1::RecordResultRequest record = Request(Duel("m1", "ann", "bob", Minute(1)));
  record.mutable_match()->set_game(invalid_utf8);
  v1::RecordResultResponse recorded;
  expect_parse_error(stub_->RecordResult(Context(kResultsToken).get(), record, &recorded),
                     "RecordResult");
  v1::RerateGameResponse rerated;
  expect_parse_error(
      stub_->RerateGame(Context(kOperatorToken).get(), RerateRequest(invalid_utf8), &rerated),
      "RerateGame");
  v1::GetRatingRequest get;
  get.set_player_id(invalid_utf8);
  v1::Rating rating;
  expect_parse_error(stub_->GetRating(Context().get(), get, &rating), "GetRating");
  v1::BatchGetRatingsRequest batch;
  batch.add_player_ids(invalid_utf8);
  v1::BatchGetRatingsResponse batch_answer;
  expect_parse_error(stub_->BatchGetRatings(Context().get(), batch, &batch_answer),
                     "BatchGetRatings");
  v1::ListLeaderboardRequest leaderboard;
  leaderboard.set_game(invalid_utf8);
  v1::ListLeaderboardResponse board;
  expect_parse_error(stub_->ListLeaderboard(Context().get(), leaderboard, &board),
                     "ListLeaderboard");
  v1::ListRatingHistoryRequest history;
  history.set_player_id(invalid_utf8);
  v1::ListRatingHistoryResponse changes;
  expect_parse_error(stub_->ListRatingHistory(Context().get(), history, &changes),
                     "ListRatingHistory");
  EXPECT_EQ(Snapshot(), before);
  // The service goes on serving.
  EXPECT_TRUE(Record(Duel("m2", "ann", "bob", Minute(2))).ok());
}

TEST_F(ServiceTest, ShutdownAnswersUnavailable) {
  batcher_->Stop();
  EXPECT_EQ(Record(Duel("m1", "ann", "bob", Minute(1))).status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(Rerate(RerateRequest("muggins")).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(Count("results"), 0);
}

}  // namespace
}  // namespace boneyard::ratings
