// End to end: execution delivers finished matches' results to ratings. Both services run as
// real processes on one fresh database (each in its own schema), matches with player ids are
// played to their end by RemotePlayers, and ratings must record every result exactly once:
// one history row per player seat per match and games played to match. Then ratings is killed
// (SIGKILL, a crash), more matches finish, their results wait in execution's outbox, and once
// ratings is back every one of them arrives, again exactly once.
#include <signal.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/e2e/e2e_helpers.h"

#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif
#include "tests/cli/run_cli.h"

namespace boneyard::e2e {
namespace {

constexpr char kResultsToken[] = "results-token-for-the-outage-test-0123456789";
const std::vector<std::string> kPlayers = {"ann", "bob", "cat", "dan"};
// Bounds (guards against a hang, not timing assertions). Delivery after an outage waits for
// the outbox's backoff and gRPC's reconnection backoff, each a few seconds after a short outage.
constexpr absl::Duration kPlayTimeout = absl::Seconds(300);
constexpr absl::Duration kDeliveryTimeout = absl::Seconds(300);

// What ratings should hold: each player's rated matches (a list, so a duplicate shows) and the
// Castle Rock results.
struct Expected {
  std::map<std::string, std::vector<std::string>> rated;  // player -> match names
  std::vector<std::string> castle_rock;                     // match names
  int matches = 0;
};

class RatingsOutageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<testing::TestDatabase>> database =
        testing::TestDatabase::Create();
    ASSERT_TRUE(database.ok()) << database.status();
    database_ = *std::move(database);
    const std::string token_file = testing::MakeTempDir() + "/results_token";
    testing::WriteWholeFile(token_file, kResultsToken);

    absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> ratings =
        testing::ServiceProcess::Start(BONEYARD_RATINGS_BINARY,
                                       {"--database_url=" + database_->url(), "--log_level=info",
                                        "--results_token_file=" + token_file});
    ASSERT_TRUE(ratings.ok()) << ratings.status();
    ratings_ = *std::move(ratings);
    absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> execution =
        testing::ServiceProcess::Start(
            BONEYARD_EXECUTION_BINARY,
            {"--database_url=" + database_->url(), "--log_level=info",
             "--ratings_target=" + ratings_->target(), "--results_token_file=" + token_file});
    ASSERT_TRUE(execution.ok()) << execution.status();
    execution_ = *std::move(execution);
    channels_ = client::MakeChannels(execution_->target(), kChannels);
    for (const std::shared_ptr<grpc::Channel>& channel : channels_) {
      stubs_.push_back(v1::ExecutionService::NewStub(channel));
    }
  }

  void TearDown() override {
    if (HasFailure()) {
      for (const auto* service : {ratings_.get(), execution_.get()}) {
        if (service == nullptr) continue;
        std::string log = service->log();
        if (log.size() > 8000) log = "...\n" + log.substr(log.size() - 8000);
        std::cerr << "---- log of " << service->target() << " ----\n" << log << "---- end\n";
      }
    }
    execution_.reset();
    ratings_.reset();
    database_.reset();
  }

  std::vector<Stub*> stubs() {
    std::vector<Stub*> out;
    for (auto& s : stubs_) out.push_back(s.get());
    return out;
  }

  // Plays `count` matches numbered from `first` to their end, all at once, and adds what they
  // should leave in ratings to `expected`: every fourth a Castle Rock match, every fourth a
  // team Muggins with a built-in bot (rated as an unknown player, not stored), the others
  // two-player Muggins, between players of kPlayers.
  void PlayMatches(int first, int count, Expected& expected) {
    std::vector<MatchRun> runs;
    for (int i = first; i < first + count; ++i) {
      const std::string& a = kPlayers[i % 4];
      const std::string& b = kPlayers[(i + 1 + (i / 4) % 3) % 4];
      v1::CreateMatchRequest request;
      if (i % 4 == 0) {
        request = MatchRequest("castle_rock", {}, {SeatSpec::Player(a)});
      } else if (i % 4 == 1) {
        request = MatchRequest(
            "muggins",
            {{"target", IntRule(100)}, {"players", IntRule(4)}, {"teams", BoolRule(true)}},
            {SeatSpec::Player(a), SeatSpec::Bot("greedy"), SeatSpec::Player(kPlayers[(i + 1) % 4]),
             SeatSpec::Player(kPlayers[(i + 2) % 4])});
      } else {
        request = MatchRequest("muggins", {{"target", IntRule(100)}},
                               {SeatSpec::Player(a), SeatSpec::Player(b)});
      }
      absl::StatusOr<v1::CreateMatchResponse> created =
          CreateMatch(*stubs_[0], execution_->operator_token(), request);
      ASSERT_TRUE(created.ok()) << created.status();
      runs.push_back(MatchRun{*created, {}, {}, {}});
      AddPlayers(runs.back(), i, stubs(), PlayerSetup{});
    }
    StartAll(runs);
    const std::vector<std::vector<absl::Status>> statuses = WaitAll(runs, kPlayTimeout);
    for (size_t m = 0; m < runs.size(); ++m) {
      for (const absl::Status& status : statuses[m]) {
        ASSERT_TRUE(status.ok()) << runs[m].name() << ": " << status;
      }
      absl::StatusOr<v1::Match> match = GetMatch(*stubs_[0], runs[m].name());
      ASSERT_TRUE(match.ok()) << match.status();
      ASSERT_EQ(match->state(), v1::Match::FINISHED) << runs[m].name();
      ++expected.matches;
      for (const v1::Seat& seat : match->seats()) {
        if (!seat.has_player()) continue;
        if (match->game() == "castle_rock") {
          expected.castle_rock.push_back(match->name());
        } else {
          expected.rated[seat.player().player_id()].push_back(match->name());
        }
      }
    }
  }

  // Execution's outbox: rows in all, rows not yet delivered, and the failed attempts so far.
  struct Outbox {
    int64_t rows = 0;
    int64_t undelivered = 0;
    int64_t attempts = 0;
    std::string last_error;
  };
  Outbox ReadOutbox() {
    Outbox out;
    try {
      pqxx::connection connection(database_->url());
      pqxx::read_transaction tx(connection);
      const pqxx::row row = tx.exec1(
          "SELECT count(*), count(*) FILTER (WHERE delivered_time IS NULL), "
          "coalesce(sum(attempts), 0), coalesce(max(last_error), '') FROM exec.outbox");
      out.rows = row[0].as<int64_t>();
      out.undelivered = row[1].as<int64_t>();
      out.attempts = row[2].as<int64_t>();
      out.last_error = row[3].as<std::string>();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot read exec.outbox: " << e.what();
    }
    return out;
  }

  // Waits until execution's outbox holds `rows` rows, all delivered (each acknowledged by
  // ratings once durable); false after kDeliveryTimeout.
  bool WaitUntilDelivered(int64_t rows) {
    const absl::Time until = absl::Now() + kDeliveryTimeout;
    while (absl::Now() < until) {
      const Outbox outbox = ReadOutbox();
      if (outbox.rows == rows && outbox.undelivered == 0) return true;
      absl::SleepFor(absl::Milliseconds(200));
    }
    const Outbox outbox = ReadOutbox();
    ADD_FAILURE() << "after " << absl::FormatDuration(kDeliveryTimeout) << " the outbox has "
                  << outbox.rows << " rows (expected " << rows << "), " << outbox.undelivered
                  << " undelivered; last error: " << outbox.last_error;
    return false;
  }

  // Ratings holds exactly `expected`: per player, one history row per rated match (no
  // duplicate, none missing) and games played to match; every Castle Rock result once.
  void ExpectRatedExactlyOnce(const Expected& expected) {
    // A fresh channel: the service may just have restarted.
    auto stub = v1::RatingsService::NewStub(
        grpc::CreateChannel(ratings_->target(), grpc::InsecureChannelCredentials()));
    for (const std::string& player : kPlayers) {
      SCOPED_TRACE(player);
      std::vector<std::string> want;
      if (auto it = expected.rated.find(player); it != expected.rated.end()) want = it->second;
      grpc::ClientContext context;
      Prepare(context, "");
      v1::ListRatingHistoryRequest request;
      request.set_player_id(player);
      request.set_game("muggins");
      request.set_page_size(1000);
      v1::ListRatingHistoryResponse history;
      grpc::Status status = stub->ListRatingHistory(&context, request, &history);
      ASSERT_TRUE(status.ok()) << status.error_message();
      std::vector<std::string> got;
      for (const v1::RatingChange& change : history.changes()) {
        EXPECT_EQ(change.player_id(), player);
        got.push_back(change.match());
      }
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      EXPECT_EQ(got, want);

      grpc::ClientContext rating_context;
      Prepare(rating_context, "");
      v1::GetRatingRequest get;
      get.set_player_id(player);
      get.set_game("muggins");
      v1::Rating rating;
      status = stub->GetRating(&rating_context, get, &rating);
      ASSERT_TRUE(status.ok()) << status.error_message();
      EXPECT_EQ(rating.games_played(), static_cast<int>(want.size()));
    }
    grpc::ClientContext context;
    Prepare(context, "");
    v1::ListLeaderboardRequest request;
    request.set_game("castle_rock");
    request.set_all_results(true);
    request.set_page_size(1000);
    v1::ListLeaderboardResponse board;
    const grpc::Status status = stub->ListLeaderboard(&context, request, &board);
    ASSERT_TRUE(status.ok()) << status.error_message();
    std::vector<std::string> got;
    for (const v1::LeaderboardEntry& entry : board.entries()) got.push_back(entry.result().match());
    std::vector<std::string> want = expected.castle_rock;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "Castle Rock results";
  }

  std::unique_ptr<testing::TestDatabase> database_;
  std::unique_ptr<testing::ServiceProcess> ratings_;
  std::unique_ptr<testing::ServiceProcess> execution_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
  std::vector<std::unique_ptr<Stub>> stubs_;
};

TEST_F(RatingsOutageTest, EveryResultIsRatedExactlyOnceAcrossAnOutage) {
  constexpr int kMatchesPerPhase = 12;
  Expected expected;

  // Ratings up: results arrive as matches finish.
  ASSERT_NO_FATAL_FAILURE(PlayMatches(0, kMatchesPerPhase, expected));
  ASSERT_TRUE(WaitUntilDelivered(expected.matches));
  ExpectRatedExactlyOnce(expected);
  ASSERT_FALSE(HasFailure());

  // Ratings crashes; matches go on finishing. Their results wait in the outbox, and the
  // dispatcher's attempts fail.
  ASSERT_TRUE(ratings_->Kill(SIGKILL).ok());
  ASSERT_NO_FATAL_FAILURE(PlayMatches(kMatchesPerPhase, kMatchesPerPhase, expected));
  const absl::Time until = absl::Now() + absl::Seconds(30);
  Outbox outbox = ReadOutbox();
  while (outbox.attempts == 0 && absl::Now() < until) {
    absl::SleepFor(absl::Milliseconds(100));
    outbox = ReadOutbox();
  }
  EXPECT_EQ(outbox.rows, expected.matches);
  EXPECT_EQ(outbox.undelivered, kMatchesPerPhase);
  EXPECT_GT(outbox.attempts, 0) << "no delivery was attempted during the outage";
  EXPECT_NE(outbox.last_error.find("UNAVAILABLE"), std::string::npos) << outbox.last_error;

  // Ratings is back (same port): everything waiting arrives, and nothing twice.
  ASSERT_TRUE(ratings_->Restart().ok()) << ratings_->log();
  ASSERT_TRUE(WaitUntilDelivered(expected.matches));
  ExpectRatedExactlyOnce(expected);
}

}  // namespace
}  // namespace boneyard::e2e
