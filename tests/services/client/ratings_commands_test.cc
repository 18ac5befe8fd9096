// `boneyard leaderboard` and `boneyard ratings` end to end: the real build/bin/boneyard
// (BONEYARD_CLI) as a child process against the real boneyard-ratings
// (BONEYARD_RATINGS_BINARY, started by ServiceProcess on a fresh database), which the test fills
// with results through RecordResult, as execution would deliver them.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/client/channel.h"
#include "services/common/engine_proto.h"
#include "tests/services/service_process.h"

#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;
using nlohmann::json;

constexpr char kResultsToken[] = "results-token-for-the-cli-tests-0123456789";

absl::Time Minute(int n) { return absl::FromUnixSeconds(1'800'000'000) + absl::Minutes(n); }

// A finished match as execution delivers it: `players` in seat order, `ranks` by seat.
v1::Match Finished(const std::string& id, const std::string& game,
                   const std::vector<std::string>& players, const std::vector<int>& ranks,
                   absl::Time end, absl::Duration took = absl::Minutes(5)) {
  v1::Match match;
  match.set_name(absl::StrCat("matches/", id));
  match.set_game(game);
  match.set_state(v1::Match::FINISHED);
  for (size_t s = 0; s < players.size(); ++s) {
    match.add_seats()->mutable_player()->set_player_id(players[s]);
    match.mutable_result()->add_player_ids(players[s]);
    match.mutable_result()->add_ranks(ranks[s]);
    match.mutable_result()->add_scores(ranks[s] == 1 ? 100 : 50);
  }
  *match.mutable_create_time() = ToTimestamp(end - took);
  *match.mutable_update_time() = ToTimestamp(end);
  *match.mutable_end_time() = ToTimestamp(end);
  return match;
}

v1::Match CastleRock(const std::string& id, const std::string& player, int tiles, int pips,
                     absl::Duration took, absl::Time end) {
  v1::Match match = Finished(id, "castle_rock", {player}, {1}, end, took);
  auto& fields = *match.mutable_result()->mutable_details()->mutable_fields();
  fields["tiles_left"].set_number_value(tiles);
  fields["pips_left"].set_number_value(pips);
  fields["won"].set_bool_value(tiles <= 2);
  return match;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// One service for the whole suite: the tests only read what SetUpTestSuite recorded.
class RatingsCommandsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string dir = MakeTempDir();
    WriteWholeFile(dir + "/results_token", kResultsToken);
    absl::StatusOr<ServiceOnNewDatabase> started = StartOnNewDatabase(
        BONEYARD_RATINGS_BINARY, {"--results_token_file=" + dir + "/results_token"});
    if (!started.ok()) {
      *setup_error_ = started.status().ToString();
      return;
    }
    database_ = std::move(started->database);
    service_ = std::move(started->service);
    auto stub = v1::RatingsService::NewStub(
        grpc::CreateChannel(service_->target(), grpc::InsecureChannelCredentials()));

    // Muggins: ann beats bob twice, bob beats cat once. Castle Rock: ann twice, bob once.
    for (v1::Match& match : std::vector<v1::Match>{
             Finished("m1", "muggins", {"ann", "bob"}, {1, 2}, Minute(1)),
             Finished("m2", "muggins", {"bob", "cat"}, {1, 2}, Minute(2)),
             Finished("m3", "muggins", {"bob", "ann"}, {2, 1}, Minute(3)),
             CastleRock("c1", "ann", 4, 20, absl::Seconds(90), Minute(4)),
             CastleRock("c2", "ann", 2, 7, absl::Seconds(75), Minute(5)),
             CastleRock("c3", "bob", 2, 9, absl::Seconds(30), Minute(6))}) {
      grpc::ClientContext context;
      client::PrepareUnaryContext(context, kResultsToken);
      // The service has just said SERVING: a connect that fails once on a loaded machine is
      // retried until the deadline (a CI run failed here on exactly that).
      context.set_wait_for_ready(true);
      v1::RecordResultRequest request;
      *request.mutable_match() = std::move(match);
      v1::RecordResultResponse response;
      const grpc::Status status = stub->RecordResult(&context, request, &response);
      if (!status.ok()) {
        *setup_error_ = absl::StrCat("RecordResult: ", status.error_code(), " ",
                                     status.error_message());
        return;
      }
    }
  }

  static void TearDownTestSuite() {
    service_.reset();  // before its database goes
    database_.reset();
  }

  void SetUp() override { ASSERT_TRUE(setup_error_->empty()) << *setup_error_; }

  void TearDown() override {
    if (HasFailure() && service_ != nullptr) {
      std::cerr << "---- ratings log ----\n" << service_->log() << "---- end of ratings log\n";
    }
  }

  // A ratings command pointed at the suite's service.
  CliResult Run(std::vector<std::string> args) {
    args.push_back("--ratings-target=" + service_->target());
    return RunCli(args);
  }

  static inline std::unique_ptr<TestDatabase> database_;
  static inline std::unique_ptr<ServiceProcess> service_;
  static inline std::string* const setup_error_ = new std::string;
};

TEST_F(RatingsCommandsTest, LeaderboardPrintsRatedPlayersBestFirst) {
  const CliResult result = Run({"leaderboard", "muggins"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), 4u) << result.out;
  EXPECT_THAT(lines[0], MatchesRegex("rank +player +rating +mu +sigma +games"));
  EXPECT_THAT(lines[1], MatchesRegex(" +1  ann +-?[0-9]+\\.[0-9]{2} +[0-9.]+ +[0-9.]+ +2  provisional"));
  EXPECT_THAT(lines[2], MatchesRegex(" +2  bob .* 3  provisional"));
  EXPECT_THAT(lines[3], MatchesRegex(" +3  cat .* 1  provisional"));
}

TEST_F(RatingsCommandsTest, LeaderboardPagesAndJson) {
  CliResult result = Run({"leaderboard", "muggins", "--page-size", "2", "--json"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  json page = json::parse(result.out);
  EXPECT_EQ(page["game"], "muggins");
  ASSERT_EQ(page["entries"].size(), 2u);
  EXPECT_EQ(page["entries"][0]["rank"], 1);
  EXPECT_EQ(page["entries"][0]["player_id"], "ann");
  EXPECT_EQ(page["entries"][0]["rating"]["games_played"], 2);
  EXPECT_TRUE(page["entries"][0]["result"].is_null());
  const json& rating = page["entries"][0]["rating"];
  EXPECT_NEAR(rating["ordinal"].get<double>(),
              rating["mu"].get<double>() - 3 * rating["sigma"].get<double>(), 1e-9);
  const std::string token = page["next_page_token"];
  ASSERT_FALSE(token.empty());

  // The text form says how to get the next page; the token continues the listing.
  result = Run({"leaderboard", "muggins", "--page-size", "2"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  EXPECT_THAT(Lines(result.out).back(), StartsWith("next page: --page-token "));
  result = Run({"leaderboard", "muggins", "--page-token", token, "--json"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  page = json::parse(result.out);
  ASSERT_EQ(page["entries"].size(), 1u);
  EXPECT_EQ(page["entries"][0]["player_id"], "cat");
  EXPECT_EQ(page["entries"][0]["rank"], 3);
  EXPECT_EQ(page["next_page_token"], "");
}

TEST_F(RatingsCommandsTest, CastleRockLeaderboardPrintsResults) {
  CliResult result = Run({"leaderboard", "castle_rock"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  // Each player's best: fewest tiles, then fewest pips, then the shortest time.
  EXPECT_THAT(Lines(result.out),
              ElementsAre(MatchesRegex("rank +player +tiles +pips +time +won +match"),
                          MatchesRegex(" +1  ann +2 +7 +1m15s  yes  matches/c2"),
                          MatchesRegex(" +2  bob +2 +9 +30s  yes  matches/c3")));

  result = Run({"leaderboard", "castle_rock", "--all-results", "--json"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  const json page = json::parse(result.out);
  ASSERT_EQ(page["entries"].size(), 3u);
  const json& last = page["entries"][2];
  EXPECT_EQ(last["player_id"], "ann");
  EXPECT_TRUE(last["rating"].is_null());
  EXPECT_EQ(last["result"]["match"], "matches/c1");
  EXPECT_EQ(last["result"]["tiles_left"], 4);
  EXPECT_EQ(last["result"]["pips_left"], 20);
  EXPECT_EQ(last["result"]["duration_millis"], 90000);
  EXPECT_EQ(last["result"]["won"], false);
  EXPECT_EQ(last["result"]["end_time"], "2027-01-15T08:04:00Z");
}

TEST_F(RatingsCommandsTest, RatingsPrintsTheRatingAndItsHistoryNewestFirst) {
  CliResult result = Run({"ratings", "ann", "--game", "muggins"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), 8u) << result.out;
  EXPECT_EQ(lines[0], "player:   ann");
  EXPECT_EQ(lines[1], "game:     muggins");
  EXPECT_THAT(lines[2], MatchesRegex("rating:   -?[0-9.]+ \\(mu [0-9.]+, sigma [0-9.]+\\), provisional"));
  EXPECT_EQ(lines[3], "games:    2");
  EXPECT_THAT(lines[4], StartsWith("updated:  "));
  EXPECT_EQ(lines[5], "history (newest first):");
  EXPECT_THAT(lines[6], MatchesRegex("  2027-01-15T08:03:00Z  matches/m3  rank 1  "
                                     "-?[0-9.]+ -> -?[0-9.]+ \\(\\+[0-9.]+\\)"));
  EXPECT_THAT(lines[7], StartsWith("  2027-01-15T08:01:00Z  matches/m1  rank 1  0.00 -> "));

  result = Run({"ratings", "bob", "--game", "muggins", "--page-size", "1", "--json"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  const json out = json::parse(result.out);
  EXPECT_EQ(out["rating"]["player_id"], "bob");
  EXPECT_EQ(out["rating"]["games_played"], 3);
  ASSERT_EQ(out["history"].size(), 1u);
  EXPECT_EQ(out["history"][0]["match"], "matches/m3");
  EXPECT_EQ(out["history"][0]["rank"], 2);
  EXPECT_LT(out["history"][0]["mu_after"].get<double>(),
            out["history"][0]["mu_before"].get<double>());
  EXPECT_FALSE(out["next_page_token"].get<std::string>().empty());
}

TEST_F(RatingsCommandsTest, APlayerWithoutMatchesHasTheInitialRating) {
  const CliResult result = Run({"ratings", "zed", "--game", "muggins"});
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  EXPECT_THAT(result.out, HasSubstr("rating:   0.00 (mu 25.00, sigma 8.33), provisional\n"));
  EXPECT_THAT(result.out, HasSubstr("games:    0\nhistory:  none\n"));
}

TEST_F(RatingsCommandsTest, BadCommandLinesExitTwoNamingTheProblem) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{"leaderboard"}, "the GAME"},
           {{"leaderboard", "muggins", "--page-size", "0"}, "--page-size"},
           {{"leaderboard", "muggins", "--colour"}, "--colour"},
           {{"leaderboard", "muggins", "castle_rock"}, "castle_rock"},
           {{"ratings", "ann"}, "--game"},
           {{"ratings", "--game", "muggins"}, "the PLAYER"},
           {{"ratings", "ann", "--game", "muggins", "--page-size", "x"}, "--page-size"},
       }) {
    const CliResult result = Run(c.args);
    EXPECT_EQ(result.exit_code, 2) << Describe(result);
    EXPECT_THAT(result.err, StartsWith("boneyard: ")) << Describe(result);
    EXPECT_THAT(result.err, HasSubstr(c.message)) << Describe(result);
    EXPECT_THAT(result.err, HasSubstr("usage: boneyard " + c.args[0])) << Describe(result);
  }
}

TEST_F(RatingsCommandsTest, ServiceErrorsExitFourNamingTheRpcAndCode) {
  CliResult result = Run({"leaderboard", "chess"});
  EXPECT_EQ(result.exit_code, 4) << Describe(result);
  EXPECT_THAT(result.err, StartsWith("boneyard: ListLeaderboard: INVALID_ARGUMENT: "));

  result = Run({"leaderboard", "muggins", "--all-results"});
  EXPECT_EQ(result.exit_code, 4) << Describe(result);
  EXPECT_THAT(result.err, StartsWith("boneyard: ListLeaderboard: INVALID_ARGUMENT: "));

  result = Run({"ratings", "ann", "--game", "castle_rock"});
  EXPECT_EQ(result.exit_code, 4) << Describe(result);
  EXPECT_THAT(result.err, StartsWith("boneyard: GetRating: INVALID_ARGUMENT: "));

  result = RunCli({"leaderboard", "muggins", "--ratings-target", "127.0.0.1:1"});
  EXPECT_EQ(result.exit_code, 4) << Describe(result);
  EXPECT_THAT(result.err, StartsWith("boneyard: ListLeaderboard: UNAVAILABLE: "));
}

TEST_F(RatingsCommandsTest, TheTargetComesFromTheEnvironmentWithoutTheFlag) {
  ASSERT_EQ(setenv("BONEYARD_RATINGS_TARGET", service_->target().c_str(), 1), 0);
  const CliResult result = RunCli({"leaderboard", "castle_rock", "--json"});
  unsetenv("BONEYARD_RATINGS_TARGET");
  ASSERT_EQ(result.exit_code, 0) << Describe(result);
  EXPECT_EQ(json::parse(result.out)["entries"].size(), 2u);
}

}  // namespace
}  // namespace boneyard::testing
