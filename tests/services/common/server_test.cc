#include "services/common/server.h"

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/common/test_util.h"

namespace boneyard {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testutil::Health;

constexpr char kExecutionService[] = "boneyard.v1.ExecutionService";

using GrpcServerTest = testutil::LoopbackServerTest;

TEST_F(GrpcServerTest, HealthReportsEveryServiceAndFollowsSetServing) {
  EXPECT_EQ(testutil::CheckHealth(channel_, ""), Health::kServing);
  EXPECT_EQ(testutil::CheckHealth(channel_, kExecutionService), Health::kServing);

  server_->SetServing(false);
  EXPECT_EQ(testutil::CheckHealth(channel_, ""), Health::kNotServing);
  EXPECT_EQ(testutil::CheckHealth(channel_, kExecutionService), Health::kNotServing);

  server_->SetServing(true);
  EXPECT_EQ(testutil::CheckHealth(channel_, ""), Health::kServing);
  EXPECT_EQ(testutil::CheckHealth(channel_, kExecutionService), Health::kServing);

  grpc::Status status;
  EXPECT_EQ(testutil::CheckHealth(channel_, "no.such.Service", &status), std::nullopt);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(GrpcServerTest, ReflectionListsTheServices) {
  // grpc.reflection.v1alpha.ServerReflectionRequest{list_services: ""} (field 7).
  testutil::RawStream stream(channel_,
                             "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo");
  ASSERT_TRUE(stream.started());
  ASSERT_TRUE(stream.Write(testutil::EncodeStrings({{7, ""}})));
  ASSERT_TRUE(stream.WritesDone());
  std::optional<std::string> response = stream.Read();
  ASSERT_TRUE(response.has_value());
  EXPECT_TRUE(stream.Finish().ok());

  // ServerReflectionResponse.list_services_response (6) . service (1) . name (1).
  std::vector<std::string> names;
  google::protobuf::UnknownFieldSet message;
  ASSERT_TRUE(message.ParseFromString(*response));
  for (int i = 0; i < message.field_count(); ++i) {
    if (message.field(i).number() != 6) continue;
    google::protobuf::UnknownFieldSet list;
    ASSERT_TRUE(list.ParseFromString(message.field(i).length_delimited()));
    for (int j = 0; j < list.field_count(); ++j) {
      google::protobuf::UnknownFieldSet service;
      ASSERT_TRUE(service.ParseFromString(list.field(j).length_delimited()));
      ASSERT_EQ(service.field_count(), 1);
      names.push_back(service.field(0).length_delimited());
    }
  }
  EXPECT_THAT(names, Contains(kExecutionService));
  EXPECT_THAT(names, Contains("grpc.health.v1.Health"));
}

TEST_F(GrpcServerTest, BusyPortIsUnavailable) {
  const std::string address = absl::StrCat("127.0.0.1:", server_->port());
  testutil::TestExecutionService other;
  absl::StatusOr<std::unique_ptr<GrpcServer>> second =
      GrpcServer::Start({.listen_address = address, .services = {&other}});
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(second.status().message()), HasSubstr(address));
}

TEST(GrpcServerStartTest, RejectsBadOptions) {
  EXPECT_EQ(GrpcServer::Start({.listen_address = ""}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GrpcServer::Start({.listen_address = "127.0.0.1:0", .max_message_bytes = 0})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GrpcServer::Start({.listen_address = "127.0.0.1:0", .max_streams_per_connection = 0})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

// The limit is advertised to clients (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS): with two streams
// open, a client's library holds its third call on that connection until one ends, while a
// call on another connection goes through at once.
TEST_F(GrpcServerTest, StreamsPerConnectionAreLimited) {
  testutil::TestExecutionService service;
  absl::StatusOr<std::unique_ptr<GrpcServer>> limited = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .max_streams_per_connection = 2});
  ASSERT_TRUE(limited.ok()) << limited.status();
  auto stub =
      boneyard::v1::ExecutionService::NewStub(testutil::LoopbackChannel((*limited)->port()));
  struct Watch {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<boneyard::v1::WatchMatchResponse>> reader;
  };
  std::vector<std::unique_ptr<Watch>> watches;
  boneyard::v1::WatchMatchResponse response;
  for (int i = 0; i < 2; ++i) {
    watches.push_back(std::make_unique<Watch>());
    watches.back()->context.set_deadline(testutil::CallDeadline());
    watches.back()->reader =
        stub->WatchMatch(&watches.back()->context, boneyard::v1::WatchMatchRequest());
    ASSERT_TRUE(watches.back()->reader->Read(&response)) << "stream " << i;
  }
  auto get_match = [](boneyard::v1::ExecutionService::Stub& on) {
    grpc::ClientContext context;
    context.set_deadline(testutil::CallDeadline());
    context.AddMetadata("authorization", "Bearer t");
    boneyard::v1::Match match;
    return on.GetMatch(&context, boneyard::v1::GetMatchRequest(), &match);
  };
  std::future<grpc::Status> held = std::async(std::launch::async, [&] { return get_match(*stub); });
  EXPECT_EQ(held.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);

  grpc::ChannelArguments own_connection;
  own_connection.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  auto other = boneyard::v1::ExecutionService::NewStub(grpc::CreateCustomChannel(
      absl::StrCat("127.0.0.1:", (*limited)->port()), grpc::InsecureChannelCredentials(),
      own_connection));
  EXPECT_TRUE(get_match(*other).ok());

  watches.front()->context.TryCancel();
  while (watches.front()->reader->Read(&response)) {
  }
  watches.front()->reader->Finish();
  ASSERT_EQ(held.wait_for(testutil::kCallTimeout), std::future_status::ready);
  EXPECT_TRUE(held.get().ok());
  for (auto& watch : watches) watch->context.TryCancel();
  for (size_t i = 1; i < watches.size(); ++i) watches[i]->reader->Finish();
  (*limited)->Shutdown(absl::ZeroDuration());
}

TEST_F(GrpcServerTest, MessageLimitApplies) {
  testutil::TestExecutionService service;
  absl::StatusOr<std::unique_ptr<GrpcServer>> small = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .max_message_bytes = 1024});
  ASSERT_TRUE(small.ok()) << small.status();
  auto stub =
      boneyard::v1::ExecutionService::NewStub(testutil::LoopbackChannel((*small)->port()));
  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  ctx.AddMetadata("authorization", "Bearer t");
  boneyard::v1::GetMatchRequest request;
  request.set_name(std::string(2048, 'x'));
  boneyard::v1::Match match;
  EXPECT_EQ(stub->GetMatch(&ctx, request, &match).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

// Shutdown reports NOT_SERVING at once, then waits for the call in flight, then returns, well
// before its grace period is over.
TEST_F(GrpcServerTest, ShutdownDrainsCallsInFlight) {
  // Health watch on "": the first message is the current status.
  testutil::RawStream watch(channel_, "/grpc.health.v1.Health/Watch");
  ASSERT_TRUE(watch.started());
  ASSERT_TRUE(watch.Write(testutil::EncodeStrings({{1, ""}})));
  ASSERT_TRUE(watch.WritesDone());
  std::optional<std::string> update = watch.Read();
  ASSERT_TRUE(update.has_value());
  EXPECT_EQ(testutil::DecodeHealth(*update), Health::kServing);

  // A call the service holds open.
  std::future<grpc::Status> held = std::async(std::launch::async, [this] {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    boneyard::v1::GetMatchRequest request;
    request.set_name("hold");
    boneyard::v1::Match match;
    return stub_->GetMatch(&ctx, request, &match);
  });
  service_.WaitUntilHeld();

  std::future<void> shutdown = std::async(std::launch::async, [this] {
    server_->Shutdown(absl::Seconds(3600));
  });

  // Shutdown has begun: the watch sees NOT_SERVING. The watch is itself a call in flight;
  // end it so only the held call remains.
  update = watch.Read();
  ASSERT_TRUE(update.has_value());
  EXPECT_EQ(testutil::DecodeHealth(*update), Health::kNotServing);
  watch.Cancel();
  watch.Finish();

  // The held call is still being waited for.
  EXPECT_EQ(shutdown.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
  service_.Release();
  EXPECT_TRUE(held.get().ok());
  ASSERT_EQ(shutdown.wait_for(testutil::kCallTimeout), std::future_status::ready);

  server_->Shutdown(absl::Seconds(1));  // idempotent: returns at once
}

// A stream that never ends on its own is cancelled once the grace period is over, and
// Shutdown returns.
TEST_F(GrpcServerTest, ShutdownCancelsCallsLeftAfterGrace) {
  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  boneyard::v1::WatchMatchRequest request;
  std::unique_ptr<grpc::ClientReader<boneyard::v1::WatchMatchResponse>> reader =
      stub_->WatchMatch(&ctx, request);
  boneyard::v1::WatchMatchResponse response;
  ASSERT_TRUE(reader->Read(&response));  // the stream is open on the server

  std::future<void> shutdown = std::async(std::launch::async, [this] {
    server_->Shutdown(absl::Milliseconds(100));
  });
  EXPECT_FALSE(reader->Read(&response));
  grpc::Status status = reader->Finish();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << status.error_message();
  ASSERT_EQ(shutdown.wait_for(testutil::kCallTimeout), std::future_status::ready);
}

TEST_F(GrpcServerTest, NoNewCallsAfterShutdown) {
  server_->Shutdown(absl::ZeroDuration());
  grpc::Status status;
  EXPECT_EQ(testutil::CheckHealth(channel_, "", &status), std::nullopt);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace boneyard
