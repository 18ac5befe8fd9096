#include "services/common/metrics.h"

#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "prometheus/registry.h"
#include "services/common/server.h"
#include "tests/services/common/test_util.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;

const prometheus::MetricFamily* FindFamily(const std::vector<prometheus::MetricFamily>& families,
                                           const std::string& name) {
  for (const prometheus::MetricFamily& family : families) {
    if (family.name == name) return &family;
  }
  return nullptr;
}

// The metric of `family` with exactly these labels.
const prometheus::ClientMetric* FindMetric(const prometheus::MetricFamily* family,
                                           const std::map<std::string, std::string>& labels) {
  if (family == nullptr) return nullptr;
  for (const prometheus::ClientMetric& metric : family->metric) {
    std::map<std::string, std::string> actual;
    for (const auto& label : metric.label) actual[label.name] = label.value;
    if (actual == labels) return &metric;
  }
  return nullptr;
}

TEST(StatusCodeNameTest, CanonicalNames) {
  EXPECT_EQ(StatusCodeName(grpc::StatusCode::OK), "OK");
  EXPECT_EQ(StatusCodeName(grpc::StatusCode::NOT_FOUND), "NOT_FOUND");
  EXPECT_EQ(StatusCodeName(grpc::StatusCode::UNAUTHENTICATED), "UNAUTHENTICATED");
  EXPECT_EQ(StatusCodeName(static_cast<grpc::StatusCode>(20)), "UNKNOWN");
}

TEST(ProcessCollectorTest, ReportsTheProcess) {
  std::vector<prometheus::MetricFamily> families = ProcessCollector().Collect();

  const prometheus::MetricFamily* resident = FindFamily(families, "process_resident_memory_bytes");
  ASSERT_NE(resident, nullptr);
  ASSERT_EQ(resident->metric.size(), 1u);
  EXPECT_GT(resident->metric[0].gauge.value, 1 << 20);

  const prometheus::MetricFamily* virtual_memory =
      FindFamily(families, "process_virtual_memory_bytes");
  ASSERT_NE(virtual_memory, nullptr);
  EXPECT_GE(virtual_memory->metric[0].gauge.value, resident->metric[0].gauge.value);

  const prometheus::MetricFamily* cpu = FindFamily(families, "process_cpu_seconds_total");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->type, prometheus::MetricType::Counter);
  EXPECT_GE(cpu->metric[0].counter.value, 0);

  const prometheus::MetricFamily* threads = FindFamily(families, "process_threads");
  ASSERT_NE(threads, nullptr);
  EXPECT_GE(threads->metric[0].gauge.value, 1);

  const prometheus::MetricFamily* start = FindFamily(families, "process_start_time_seconds");
  ASSERT_NE(start, nullptr);
  const double now = static_cast<double>(std::time(nullptr));
  EXPECT_LE(start->metric[0].gauge.value, now + 1);
  EXPECT_GT(start->metric[0].gauge.value, now - 24 * 3600);
}

TEST(RpcMetricsTest, RecordCountsByMethodAndCode) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  metrics.Record("pkg.S/A", grpc::StatusCode::OK, absl::Milliseconds(3));
  metrics.Record("pkg.S/A", grpc::StatusCode::OK, absl::Milliseconds(5));
  metrics.Record("pkg.S/A", grpc::StatusCode::NOT_FOUND, absl::Seconds(2));

  std::vector<prometheus::MetricFamily> families = registry.Collect();
  const prometheus::MetricFamily* handled = FindFamily(families, "grpc_server_handled_total");
  const prometheus::ClientMetric* ok =
      FindMetric(handled, {{"grpc_method", "pkg.S/A"}, {"grpc_code", "OK"}});
  const prometheus::ClientMetric* not_found =
      FindMetric(handled, {{"grpc_method", "pkg.S/A"}, {"grpc_code", "NOT_FOUND"}});
  ASSERT_NE(ok, nullptr);
  ASSERT_NE(not_found, nullptr);
  EXPECT_EQ(ok->counter.value, 2);
  EXPECT_EQ(not_found->counter.value, 1);

  const prometheus::ClientMetric* seconds = FindMetric(
      FindFamily(families, "grpc_server_handling_seconds"), {{"grpc_method", "pkg.S/A"}});
  ASSERT_NE(seconds, nullptr);
  EXPECT_EQ(seconds->histogram.sample_count, 3u);
  EXPECT_NEAR(seconds->histogram.sample_sum, 2.008, 1e-9);
}

TEST(RpcMetricsTest, MethodLabelNamesOnlyKnownServices) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  EXPECT_EQ(metrics.MethodLabel("/pkg.S/A"), "unknown");
  metrics.AddKnownServices({"pkg.S"});
  EXPECT_EQ(metrics.MethodLabel("/pkg.S/A"), "pkg.S/A");
  EXPECT_EQ(metrics.MethodLabel("/pkg.T/A"), "unknown");
  EXPECT_EQ(metrics.MethodLabel("/pkg.S"), "unknown");
  EXPECT_EQ(metrics.MethodLabel(""), "unknown");
}

// The interceptor on a real server: every finished call is counted with its code.
TEST(RpcMetricsTest, InterceptorCountsCallsWithTheirCodes) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  testutil::TestExecutionService service;
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .metrics = &metrics});
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = boneyard::v1::ExecutionService::NewStub(testutil::LoopbackChannel((*server)->port()));

  for (int i = 0; i < 2; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    boneyard::v1::ListMatchesResponse response;
    EXPECT_EQ(stub->ListMatches(&ctx, {}, &response).error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    boneyard::v1::Match match;
    EXPECT_EQ(stub->GetMatch(&ctx, {}, &match).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    ctx.AddMetadata("authorization", "Bearer t");
    boneyard::v1::Match match;
    EXPECT_TRUE(stub->GetMatch(&ctx, {}, &match).ok());
  }

  std::shared_ptr<grpc::Channel> channel = testutil::LoopbackChannel((*server)->port());
  EXPECT_EQ(testutil::CheckHealth(channel, ""), testutil::Health::kServing);
  {
    testutil::RawStream reflection(
        channel, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo");
    ASSERT_TRUE(reflection.WritesDone());
    EXPECT_EQ(reflection.Read(), std::nullopt);
    EXPECT_TRUE(reflection.Finish().ok());
  }

  // Each call was recorded before its status went out, so before the client saw it.
  std::vector<prometheus::MetricFamily> families = registry.Collect();
  const prometheus::MetricFamily* handled = FindFamily(families, "grpc_server_handled_total");
  const prometheus::ClientMetric* list = FindMetric(
      handled, {{"grpc_method", "boneyard.v1.ExecutionService/ListMatches"},
                {"grpc_code", "UNIMPLEMENTED"}});
  const prometheus::ClientMetric* get_unauthenticated = FindMetric(
      handled, {{"grpc_method", "boneyard.v1.ExecutionService/GetMatch"},
                {"grpc_code", "UNAUTHENTICATED"}});
  const prometheus::ClientMetric* get_ok = FindMetric(
      handled, {{"grpc_method", "boneyard.v1.ExecutionService/GetMatch"}, {"grpc_code", "OK"}});
  const prometheus::ClientMetric* health =
      FindMetric(handled, {{"grpc_method", "grpc.health.v1.Health/Check"}, {"grpc_code", "OK"}});
  ASSERT_NE(health, nullptr);
  EXPECT_EQ(health->counter.value, 1);
  const prometheus::ClientMetric* reflection = FindMetric(
      handled, {{"grpc_method", "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"},
                {"grpc_code", "OK"}});
  ASSERT_NE(reflection, nullptr);
  EXPECT_EQ(reflection->counter.value, 1);
  ASSERT_NE(list, nullptr);
  ASSERT_NE(get_unauthenticated, nullptr);
  ASSERT_NE(get_ok, nullptr);
  EXPECT_EQ(list->counter.value, 2);
  EXPECT_EQ(get_unauthenticated->counter.value, 1);
  EXPECT_EQ(get_ok->counter.value, 1);

  const prometheus::ClientMetric* get_seconds =
      FindMetric(FindFamily(families, "grpc_server_handling_seconds"),
                 {{"grpc_method", "boneyard.v1.ExecutionService/GetMatch"}});
  ASSERT_NE(get_seconds, nullptr);
  EXPECT_EQ(get_seconds->histogram.sample_count, 2u);
}

// A stream cancelled at shutdown is counted as CANCELLED once the server has stopped; a call
// to a method the server does not have is counted as "unknown" (its name is the caller's
// choice).
TEST(RpcMetricsTest, InterceptorCountsCancelledStreamsAndUnknownMethods) {
  prometheus::Registry registry;
  RpcMetrics metrics(registry);
  testutil::TestExecutionService service;
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .metrics = &metrics});
  ASSERT_TRUE(server.ok()) << server.status();
  std::shared_ptr<grpc::Channel> channel = testutil::LoopbackChannel((*server)->port());
  auto stub = boneyard::v1::ExecutionService::NewStub(channel);

  std::string ignored;
  EXPECT_EQ(testutil::RawUnaryCall(channel, "/no.such.Service/Method", "", &ignored).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);

  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  auto reader = stub->WatchMatch(&ctx, boneyard::v1::WatchMatchRequest());
  boneyard::v1::WatchMatchResponse response;
  ASSERT_TRUE(reader->Read(&response));
  (*server)->Shutdown(absl::ZeroDuration());  // returns when every call is over
  EXPECT_FALSE(reader->Read(&response));
  EXPECT_FALSE(reader->Finish().ok());

  std::vector<prometheus::MetricFamily> families = registry.Collect();
  const prometheus::MetricFamily* handled = FindFamily(families, "grpc_server_handled_total");
  const prometheus::ClientMetric* watch = FindMetric(
      handled, {{"grpc_method", "boneyard.v1.ExecutionService/WatchMatch"},
                {"grpc_code", "CANCELLED"}});
  ASSERT_NE(watch, nullptr);
  EXPECT_EQ(watch->counter.value, 1);
  const prometheus::ClientMetric* unknown =
      FindMetric(handled, {{"grpc_method", "unknown"}, {"grpc_code", "UNIMPLEMENTED"}});
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->counter.value, 1);
  for (const prometheus::ClientMetric& metric : handled->metric) {
    for (const auto& label : metric.label) EXPECT_NE(label.value, "no.such.Service/Method");
  }
}

TEST(MetricsServerTest, ServesTheRegistryAndProcessMetrics) {
  absl::StatusOr<std::unique_ptr<MetricsServer>> metrics_server =
      MetricsServer::Start("127.0.0.1:0");
  ASSERT_TRUE(metrics_server.ok()) << metrics_server.status();
  ASSERT_GT((*metrics_server)->port(), 0);
  RpcMetrics rpc_metrics(*(*metrics_server)->registry());

  testutil::TestExecutionService service;
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start(
      {.listen_address = "127.0.0.1:0", .services = {&service}, .metrics = &rpc_metrics});
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = boneyard::v1::ExecutionService::NewStub(testutil::LoopbackChannel((*server)->port()));
  grpc::ClientContext ctx;
  ctx.set_deadline(testutil::CallDeadline());
  boneyard::v1::ListMatchesResponse response;
  EXPECT_EQ(stub->ListMatches(&ctx, {}, &response).error_code(), grpc::StatusCode::UNIMPLEMENTED);

  httplib::Client client("127.0.0.1", (*metrics_server)->port());
  client.set_connection_timeout(30);
  client.set_read_timeout(30);
  httplib::Result result = client.Get("/metrics");
  ASSERT_TRUE(result) << httplib::to_string(result.error());
  EXPECT_EQ(result->status, 200);
  const std::string& page = result->body;
  EXPECT_THAT(page, HasSubstr("# TYPE grpc_server_handled_total counter"));
  EXPECT_THAT(page, HasSubstr("grpc_server_handled_total{grpc_code=\"UNIMPLEMENTED\","
                              "grpc_method=\"boneyard.v1.ExecutionService/ListMatches\"} 1"));
  EXPECT_THAT(page, HasSubstr("# TYPE grpc_server_handling_seconds histogram"));
  EXPECT_THAT(page, HasSubstr("grpc_server_handling_seconds_count{grpc_method=\"boneyard.v1."
                              "ExecutionService/ListMatches\"} 1"));
  EXPECT_THAT(page, HasSubstr("\nprocess_resident_memory_bytes "));
  EXPECT_THAT(page, HasSubstr("\nprocess_cpu_seconds_total "));
  EXPECT_THAT(page, HasSubstr("\nprocess_start_time_seconds "));
  EXPECT_THAT(page, HasSubstr("\nprocess_threads "));
  EXPECT_THAT(page, HasSubstr("\nprocess_virtual_memory_bytes "));
}

TEST(MetricsServerTest, OnlyMetricsIsServedAndEachConnectionServesOneRequest) {
  absl::StatusOr<std::unique_ptr<MetricsServer>> metrics_server =
      MetricsServer::Start("127.0.0.1:0");
  ASSERT_TRUE(metrics_server.ok()) << metrics_server.status();
  httplib::Client client("127.0.0.1", (*metrics_server)->port());
  client.set_connection_timeout(30);
  client.set_read_timeout(30);
  client.set_keep_alive(true);  // asks to keep the connection; the server declines
  httplib::Result other = client.Get("/");
  ASSERT_TRUE(other) << httplib::to_string(other.error());
  EXPECT_EQ(other->status, 404);
  httplib::Result page = client.Get("/metrics");
  ASSERT_TRUE(page) << httplib::to_string(page.error());
  EXPECT_EQ(page->status, 200);
  EXPECT_THAT(page->get_header_value("Content-Type"), HasSubstr("text/plain; version=0.0.4"));
  // No idle keep-alive connection is left for the server's stop to wait on.
  EXPECT_EQ(page->get_header_value("Connection"), "close");
}

TEST(MetricsServerTest, AnAddressWithoutAPortIsInvalid) {
  for (const std::string address : {"127.0.0.1", "127.0.0.1:http", "127.0.0.1:70000"}) {
    absl::StatusOr<std::unique_ptr<MetricsServer>> server = MetricsServer::Start(address);
    EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument) << address;
    EXPECT_THAT(std::string(server.status().message()), HasSubstr(address));
  }
}

TEST(MetricsServerTest, BusyPortIsUnavailable) {
  absl::StatusOr<std::unique_ptr<MetricsServer>> first = MetricsServer::Start("127.0.0.1:0");
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string address = absl::StrCat("127.0.0.1:", (*first)->port());
  absl::StatusOr<std::unique_ptr<MetricsServer>> second = MetricsServer::Start(address);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(second.status().message()), HasSubstr(address));
}

}  // namespace
}  // namespace boneyard
