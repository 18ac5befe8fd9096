// The health service of our own (services/common/health_service.h): its bookkeeping directly,
// then Check and Watch through a real server, as gRPC's default health service behaves, and
// the one place it differs: a Watch ends when the server shuts down instead of holding the
// shutdown up until its grace period is over.
#include "services/common/health_service.h"

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/common/server.h"
#include "tests/services/common/test_util.h"

namespace boneyard {
namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Records what a watcher is told.
class RecordingWatcher : public HealthService::Watcher {
 public:
  void Changed(HealthService::Status status) override { statuses.push_back(status); }
  void ShutDown() override { shut_down = true; }

  std::vector<HealthService::Status> statuses;
  bool shut_down = false;
};

TEST(HealthServiceTest, AWatcherHearsTheStatusNowThenOnlyChanges) {
  HealthService health;
  RecordingWatcher overall;
  RecordingWatcher named;
  health.AddWatcher("", &overall);
  health.AddWatcher("boneyard.v1.ExecutionService", &named);
  EXPECT_THAT(overall.statuses, ElementsAre(HealthCheckResponse::SERVING));
  EXPECT_THAT(named.statuses, ElementsAre(HealthCheckResponse::SERVICE_UNKNOWN));

  health.SetServingStatus("boneyard.v1.ExecutionService", true);
  health.SetServingStatus("boneyard.v1.ExecutionService", true);  // no change: not repeated
  health.SetServingStatus(false);
  EXPECT_THAT(named.statuses, ElementsAre(HealthCheckResponse::SERVICE_UNKNOWN,
                                          HealthCheckResponse::SERVING,
                                          HealthCheckResponse::NOT_SERVING));
  EXPECT_THAT(overall.statuses,
              ElementsAre(HealthCheckResponse::SERVING, HealthCheckResponse::NOT_SERVING));

  health.RemoveWatcher("", &overall);
  health.SetServingStatus(true);
  EXPECT_EQ(overall.statuses.size(), 2u);  // removed: told nothing more
  EXPECT_EQ(named.statuses.back(), HealthCheckResponse::SERVING);
  health.RemoveWatcher("boneyard.v1.ExecutionService", &named);
}

TEST(HealthServiceTest, AfterShutdownEverythingIsNotServingForGood) {
  HealthService health;
  health.SetServingStatus("a.Service", true);
  RecordingWatcher watcher;
  health.AddWatcher("a.Service", &watcher);

  health.Shutdown();
  EXPECT_THAT(watcher.statuses,
              ElementsAre(HealthCheckResponse::SERVING, HealthCheckResponse::NOT_SERVING));
  EXPECT_TRUE(watcher.shut_down);

  health.SetServingStatus(true);
  health.SetServingStatus("a.Service", true);
  EXPECT_EQ(watcher.statuses.back(), HealthCheckResponse::NOT_SERVING);

  // A name first set after the shutdown becomes known, as NOT_SERVING; a watcher added now is
  // told the status and the shutdown at once.
  RecordingWatcher late;
  health.SetServingStatus("b.Service", true);
  health.AddWatcher("b.Service", &late);
  EXPECT_THAT(late.statuses, ElementsAre(HealthCheckResponse::NOT_SERVING));
  EXPECT_TRUE(late.shut_down);
  health.RemoveWatcher("a.Service", &watcher);
  health.RemoveWatcher("b.Service", &late);
}

class HealthOverGrpcTest : public testutil::LoopbackServerTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(LoopbackServerTest::SetUp());
    health_ = Health::NewStub(channel_);
  }

  grpc::Status Check(const std::string& name, HealthCheckResponse* response) {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    HealthCheckRequest request;
    request.set_service(name);
    return health_->Check(&ctx, request, response);
  }

  std::unique_ptr<Health::Stub> health_;
};

TEST_F(HealthOverGrpcTest, CheckAnswersTheStatusOrNotFoundNamingTheService) {
  HealthCheckResponse response;
  ASSERT_TRUE(Check("boneyard.v1.ExecutionService", &response).ok());
  EXPECT_EQ(response.status(), HealthCheckResponse::SERVING);

  grpc::Status unknown = Check("no.such.Service", &response);
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(unknown.error_message(), HasSubstr("no.such.Service"));
}

TEST_F(HealthOverGrpcTest, WatchFollowsANameFromUnknownToServing) {
  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  HealthCheckRequest request;
  request.set_service("later.Service");
  std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> watch = health_->Watch(&ctx, request);
  HealthCheckResponse update;
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVICE_UNKNOWN);

  server_->server().GetHealthCheckService()->SetServingStatus("later.Service", true);
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVING);
  ctx.TryCancel();
  EXPECT_EQ(watch->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

// gRPC's default health service left a Watch open until the server's grace period was over; a
// probe watching the health of a server shutting down no longer holds the shutdown up.
TEST_F(HealthOverGrpcTest, ShutdownEndsAWatchWithNotServingThenUnavailable) {
  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> watch =
      health_->Watch(&ctx, HealthCheckRequest());
  HealthCheckResponse update;
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVING);

  std::future<void> shutdown = std::async(std::launch::async, [this] {
    server_->Shutdown(absl::Hours(1));
  });
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::NOT_SERVING);
  EXPECT_FALSE(watch->Read(&update));
  grpc::Status status = watch->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(status.error_message(), HasSubstr("shutting down"));
  EXPECT_EQ(shutdown.wait_for(testutil::kCallTimeout), std::future_status::ready);
}

}  // namespace
}  // namespace boneyard
