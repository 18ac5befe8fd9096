// GrpcServer with a service that serves a method on the async API (services/common/
// async_queues.h): it is asked for calls on each of the completion queues it asked for once the
// server has started, calls on them are answered on the queues' threads, and every tag left is
// drained when the server shuts down; a server that cannot start asks for nothing.
#include "services/common/async_queues.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "services/common/server.h"
#include "tests/services/common/test_util.h"

namespace boneyard {
namespace {

using AsyncGetMatchBase =
    v1::ExecutionService::WithAsyncMethod_GetMatch<v1::ExecutionService::Service>;

// Answers GetMatch on the async API with the request's name and the index of the queue that
// carried the call.
class AsyncGetMatchService final : public AsyncGetMatchBase, public AsyncService {
 public:
  explicit AsyncGetMatchService(int queues) : queues_(queues) {}

  int completion_queues() const override { return queues_; }

  void RequestCalls(grpc::ServerCompletionQueue* queue) override {
    Call::Request(*this, queue, served_queues_++);
  }

  int served_queues() const { return served_queues_; }
  // Calls still alive (requested and not yet deleted).
  int live_calls() const { return live_calls_; }

 private:
  // One GetMatch: requested, answered, deleted when the answer has gone (or the request fails
  // because the server is shutting down).
  class Call final : public AsyncTag {
   public:
    static void Request(AsyncGetMatchService& service, grpc::ServerCompletionQueue* queue,
                        int index) {
      auto* call = new Call(service, queue, index);
      service.RequestGetMatch(&call->context_, &call->request_, &call->responder_, queue, queue,
                              call);
    }

    void Complete(bool ok) override {
      if (!ok || answered_) {
        delete this;
        return;
      }
      Request(service_, queue_, index_);
      answered_ = true;
      v1::Match match;
      match.set_name(absl::StrCat(request_.name(), " on queue ", index_));
      responder_.Finish(match, grpc::Status::OK, this);
    }

   private:
    Call(AsyncGetMatchService& service, grpc::ServerCompletionQueue* queue, int index)
        : service_(service), queue_(queue), index_(index), responder_(&context_) {
      ++service_.live_calls_;
    }
    ~Call() { --service_.live_calls_; }

    AsyncGetMatchService& service_;
    grpc::ServerCompletionQueue* const queue_;
    const int index_;
    grpc::ServerContext context_;
    v1::GetMatchRequest request_;
    grpc::ServerAsyncResponseWriter<v1::Match> responder_;
    bool answered_ = false;
  };

  const int queues_;
  int served_queues_ = 0;
  std::atomic<int> live_calls_{0};
};

TEST(AsyncServiceTest, GetsItsQueuesAnswersOnThemAndIsDrainedAtShutdown) {
  AsyncGetMatchService service(3);
  absl::StatusOr<std::unique_ptr<GrpcServer>> server =
      GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {&service}});
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_EQ(service.served_queues(), 3);
  EXPECT_EQ(service.live_calls(), 3);  // one call requested on each queue

  auto stub = v1::ExecutionService::NewStub(testutil::LoopbackChannel((*server)->port()));
  for (int i = 0; i < 10; ++i) {
    grpc::ClientContext context;
    context.set_deadline(testutil::CallDeadline());
    v1::GetMatchRequest request;
    request.set_name(absl::StrCat("matches/", i));
    v1::Match match;
    const grpc::Status status = stub->GetMatch(&context, request, &match);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(match.name().rfind(absl::StrCat("matches/", i, " on queue "), 0) == 0)
        << match.name();
  }
  EXPECT_EQ(service.served_queues(), 3);  // asked once per queue, never again

  (*server)->Shutdown(absl::Seconds(5));
  // The requests still waiting failed with the shutdown and were deleted; nothing is left.
  EXPECT_EQ(service.live_calls(), 0);
  (*server)->Shutdown(absl::Seconds(5));  // idempotent
  EXPECT_EQ(service.live_calls(), 0);
}

TEST(AsyncServiceTest, AServerThatCannotStartServesNothing) {
  testutil::TestExecutionService other;
  absl::StatusOr<std::unique_ptr<GrpcServer>> first =
      GrpcServer::Start({.listen_address = "127.0.0.1:0", .services = {&other}});
  ASSERT_TRUE(first.ok()) << first.status();
  AsyncGetMatchService service(2);
  absl::StatusOr<std::unique_ptr<GrpcServer>> second = GrpcServer::Start(
      {.listen_address = absl::StrCat("127.0.0.1:", (*first)->port()), .services = {&service}});
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(service.served_queues(), 0);
  EXPECT_EQ(service.live_calls(), 0);
}

}  // namespace
}  // namespace boneyard
