// Helpers for the services/common tests: a small ExecutionService for a real server to host,
// and raw-bytes gRPC calls for the services whose generated code Debian does not ship
// (grpc.health.v1.Health, grpc.reflection.v1alpha.ServerReflection). Their messages are
// written and read with protobuf's UnknownFieldSet, by field number.
#ifndef BONEYARD_TESTS_SERVICES_COMMON_TEST_UTIL_H_
#define BONEYARD_TESTS_SERVICES_COMMON_TEST_UTIL_H_

#include <google/protobuf/unknown_field_set.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/common/auth.h"
#include "services/common/server.h"

namespace boneyard::testutil {

// Generous: only a broken server makes a call wait this long.
inline constexpr std::chrono::seconds kCallTimeout(30);

inline std::chrono::system_clock::time_point CallDeadline() {
  return std::chrono::system_clock::now() + kCallTimeout;
}

inline std::shared_ptr<grpc::Channel> LoopbackChannel(int port) {
  return grpc::CreateChannel(absl::StrCat("127.0.0.1:", port),
                             grpc::InsecureChannelCredentials());
}

// The ExecutionService methods the tests use; the others answer UNIMPLEMENTED.
// - GetMatch answers with `name` = the call's bearer token, UNAUTHENTICATED without one; a
//   request named "hold" is held open until Release().
// - WatchMatch sends one empty message and then stays open until the call is cancelled.
class TestExecutionService : public boneyard::v1::ExecutionService::CallbackService {
 public:
  grpc::ServerUnaryReactor* GetMatch(grpc::CallbackServerContext* ctx,
                                     const boneyard::v1::GetMatchRequest* request,
                                     boneyard::v1::Match* response) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    if (request->name() == "hold") {
      absl::MutexLock lock(&mu_);
      held_ = reactor;
      held_notification_.Notify();
      return reactor;
    }
    std::optional<std::string> token = BearerToken(*ctx);
    if (!token.has_value()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "missing bearer token"));
      return reactor;
    }
    response->set_name(*token);
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerWriteReactor<boneyard::v1::WatchMatchResponse>* WatchMatch(
      grpc::CallbackServerContext*, const boneyard::v1::WatchMatchRequest*) override {
    return new OpenStream();
  }

  // Waits until a "hold" GetMatch has arrived.
  void WaitUntilHeld() { held_notification_.WaitForNotification(); }

  // Finishes the held GetMatch with OK.
  void Release() {
    absl::MutexLock lock(&mu_);
    if (held_ != nullptr) held_->Finish(grpc::Status::OK);
    held_ = nullptr;
  }

 private:
  class OpenStream : public grpc::ServerWriteReactor<boneyard::v1::WatchMatchResponse> {
   public:
    OpenStream() { StartWrite(&first_); }
    void OnCancel() override { Finish(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled")); }
    void OnDone() override { delete this; }

   private:
    boneyard::v1::WatchMatchResponse first_;
  };

  absl::Mutex mu_;
  grpc::ServerUnaryReactor* held_ ABSL_GUARDED_BY(mu_) = nullptr;
  absl::Notification held_notification_;
};

// A real GrpcServer on a free loopback port, serving a TestExecutionService, with a channel to
// it and a stub of the service.
class LoopbackServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<GrpcServer>> server =
        GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {&service_}});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    ASSERT_GT(server_->port(), 0);
    channel_ = LoopbackChannel(server_->port());
    stub_ = boneyard::v1::ExecutionService::NewStub(channel_);
  }

  TestExecutionService service_;
  std::unique_ptr<GrpcServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<boneyard::v1::ExecutionService::Stub> stub_;
};

inline grpc::ByteBuffer ToByteBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

inline std::string FromByteBuffer(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (!buffer.Dump(&slices).ok()) return bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return bytes;
}

// A message of string fields, written by field number.
inline std::string EncodeStrings(const std::vector<std::pair<int, std::string>>& fields) {
  google::protobuf::UnknownFieldSet set;
  for (const auto& [number, value] : fields) set.AddLengthDelimited(number, value);
  std::string bytes;
  set.SerializeToString(&bytes);
  return bytes;
}

// A unary call of raw bytes.
inline grpc::Status RawUnaryCall(const std::shared_ptr<grpc::Channel>& channel,
                                 const std::string& method, const std::string& request,
                                 std::string* response) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(CallDeadline());
  grpc::ByteBuffer request_buffer = ToByteBuffer(request);
  grpc::ByteBuffer response_buffer;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, method, grpc::StubOptions(), &request_buffer, &response_buffer,
                 [&done](grpc::Status status) { done.set_value(std::move(status)); });
  grpc::Status status = done.get_future().get();
  if (status.ok()) *response = FromByteBuffer(response_buffer);
  return status;
}

// grpc.health.v1.HealthCheckResponse.ServingStatus.
enum class Health { kUnknown = 0, kServing = 1, kNotServing = 2, kServiceUnknown = 3 };

inline std::optional<Health> DecodeHealth(const std::string& bytes) {
  google::protobuf::UnknownFieldSet set;
  if (!set.ParseFromString(bytes)) return std::nullopt;
  Health health = Health::kUnknown;  // proto3: a zero status is not on the wire
  for (int i = 0; i < set.field_count(); ++i) {
    const google::protobuf::UnknownField& field = set.field(i);
    if (field.number() == 1 && field.type() == google::protobuf::UnknownField::TYPE_VARINT) {
      health = static_cast<Health>(field.varint());
    }
  }
  return health;
}

// grpc.health.v1.Health/Check for `service`; nullopt (and the status in *status) on error.
inline std::optional<Health> CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                                         const std::string& service,
                                         grpc::Status* status = nullptr) {
  std::string response;
  grpc::Status call = RawUnaryCall(channel, "/grpc.health.v1.Health/Check",
                                   EncodeStrings({{1, service}}), &response);
  if (status != nullptr) *status = call;
  if (!call.ok()) return std::nullopt;
  return DecodeHealth(response);
}

// A streaming call of raw bytes, one operation at a time, each waited for.
class RawStream {
 public:
  RawStream(const std::shared_ptr<grpc::Channel>& channel, const std::string& method)
      : stub_(channel) {
    ctx_.set_deadline(CallDeadline());
    call_ = stub_.PrepareCall(&ctx_, method, &cq_);
    call_->StartCall(this);
    started_ = Await();
  }

  RawStream(const RawStream&) = delete;
  RawStream& operator=(const RawStream&) = delete;

  ~RawStream() {
    if (!finished_) {
      ctx_.TryCancel();
      Finish();
    }
    cq_.Shutdown();
    void* tag;
    bool ok;
    while (cq_.Next(&tag, &ok)) {
    }
  }

  bool started() const { return started_; }

  bool Write(const std::string& bytes) {
    grpc::ByteBuffer buffer = ToByteBuffer(bytes);
    call_->Write(buffer, this);
    return Await();
  }

  bool WritesDone() {
    call_->WritesDone(this);
    return Await();
  }

  // The next message, or nullopt at the end of the stream.
  std::optional<std::string> Read() {
    grpc::ByteBuffer buffer;
    call_->Read(&buffer, this);
    if (!Await()) return std::nullopt;
    return FromByteBuffer(buffer);
  }

  void Cancel() { ctx_.TryCancel(); }

  grpc::Status Finish() {
    grpc::Status status;
    call_->Finish(&status, this);
    Await();
    finished_ = true;
    return status;
  }

 private:
  bool Await() {
    void* tag = nullptr;
    bool ok = false;
    if (!cq_.Next(&tag, &ok)) return false;
    return ok;
  }

  grpc::GenericStub stub_;
  grpc::ClientContext ctx_;
  grpc::CompletionQueue cq_;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call_;
  bool started_ = false;
  bool finished_ = false;
};

}  // namespace boneyard::testutil

#endif  // BONEYARD_TESTS_SERVICES_COMMON_TEST_UTIL_H_
