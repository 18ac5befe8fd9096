// The boneyard-ratings binary as a child process (tests/services/service_process.h) on a fresh
// database: it serves, records durably, stops on SIGTERM with exit status 0, and rejects bad
// flags with exit status 2.
#include <grpcpp/grpcpp.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "services/common/bearer.h"
#include "tests/services/ratings/ratings_test_util.h"
#include "tests/services/service_process.h"

namespace boneyard::ratings {
namespace {

using ::testing::HasSubstr;

constexpr char kResultsToken[] = "results-token-for-process-tests-0123";

// A file holding the results token, in a temporary folder removed with the object.
class TokenFile {
 public:
  TokenFile() {
    char dir[] = "/tmp/boneyard-ratings-test.XXXXXX";
    dir_ = mkdtemp(dir);
    path_ = dir_ + "/results_token";
    std::ofstream(path_) << kResultsToken << "\n";
  }
  ~TokenFile() { std::system(absl::StrCat("rm -rf '", dir_, "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string dir_;
  std::string path_;
};

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "") {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  AddBearerToken(*context, token);
  return context;
}

TEST(RatingsProcessTest, ServesRecordsDurablyAndStopsOnSigterm) {
  TokenFile token;
  absl::StatusOr<testing::ServiceOnNewDatabase> started = testing::StartOnNewDatabase(
      BONEYARD_RATINGS_BINARY, {"--results_token_file=" + token.path()});
  ASSERT_TRUE(started.ok()) << started.status();
  testing::ServiceProcess& service = *started->service;
  auto stub = v1::RatingsService::NewStub(
      grpc::CreateChannel(service.target(), grpc::InsecureChannelCredentials()));

  v1::RecordResultResponse recorded;
  grpc::Status status = stub->RecordResult(
      Context(kResultsToken).get(),
      test_util::Request(test_util::Duel("p1", "ann", "bob", test_util::Minute(1))), &recorded);
  ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << service.log();
  EXPECT_EQ(recorded.changes_size(), 2);

  // Its metrics count the result and the batch.
  httplib::Client metrics("127.0.0.1", service.metrics_port());
  httplib::Result page = metrics.Get("/metrics");
  ASSERT_TRUE(page) << httplib::to_string(page.error());
  EXPECT_THAT(page->body, HasSubstr("boneyard_ratings_results_total{outcome=\"recorded\"} 1"));
  EXPECT_THAT(page->body, HasSubstr("boneyard_ratings_batch_results_count 1"));
  EXPECT_THAT(page->body, HasSubstr("boneyard_ratings_commit_seconds_count{result=\"ok\"} 1"));
  EXPECT_THAT(page->body, HasSubstr(
      "grpc_server_handled_total{grpc_code=\"OK\",grpc_method=\"boneyard.v1.RatingsService/RecordResult\"} 1"));

  ASSERT_TRUE(service.Stop().ok()) << service.log();
  ASSERT_TRUE(service.last_wait_status().has_value());
  EXPECT_TRUE(WIFEXITED(*service.last_wait_status()));
  EXPECT_EQ(WEXITSTATUS(*service.last_wait_status()), 0);
  EXPECT_THAT(service.log(), HasSubstr("msg=\"stopped\""));

  // The rating survived the restart.
  ASSERT_TRUE(service.Restart().ok()) << service.log();
  stub = v1::RatingsService::NewStub(
      grpc::CreateChannel(service.target(), grpc::InsecureChannelCredentials()));
  v1::GetRatingRequest get;
  get.set_player_id("ann");
  get.set_game("muggins");
  v1::Rating rating;
  status = stub->GetRating(Context().get(), get, &rating);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(rating.games_played(), 1);
  EXPECT_EQ(rating.mu(), recorded.changes(0).mu_after());
  // And a repeat after the restart is still recognised.
  v1::RecordResultResponse again;
  status = stub->RecordResult(
      Context(kResultsToken).get(),
      test_util::Request(test_util::Duel("p1", "ann", "bob", test_util::Minute(1))), &again);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(again.already_recorded());
  EXPECT_TRUE(service.Stop().ok()) << service.log();
  std::cerr << service.log();}

TEST(RatingsProcessTest, BadFlagsExitWithStatusTwo) {
  TokenFile token;
  const std::string base = absl::StrCat(
      BONEYARD_RATINGS_BINARY, " --database_url=postgresql://nobody@127.0.0.1:1/none",
      " --metrics_listen= --operator_token_file=", token.path());
  for (const std::string& flags :
       {absl::StrCat(" --results_token_file=", token.path(), " --model=elo"),
        absl::StrCat(" --results_token_file=", token.path(), " --sigma=-1"),
        absl::StrCat(" --results_token_file=", token.path(), " --batch_max=0"),
        std::string(" --results_token_file=/no/such/file")}) {
    const int status = std::system((base + flags + " >/dev/null 2>&1").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << flags;
    EXPECT_EQ(WEXITSTATUS(status), 2) << flags;
  }
}

}  // namespace
}  // namespace boneyard::ratings
