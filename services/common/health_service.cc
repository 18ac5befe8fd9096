#include "services/common/health_service.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "services/common/call_lifetime.h"

namespace boneyard {
namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;
using Status = HealthService::Status;

// One Watch call: it writes the latest status whenever it changes, one write at a time, and
// finishes when the call is cancelled or the health service shuts down. It deletes itself once
// the call is done (CallLifetime).
class WatchCall final : public HealthService::Watcher {
 public:
  static void Await(HealthService& service, grpc::ServerCompletionQueue* queue) {
    auto* call = new WatchCall(service, queue);
    // Not once shutting down: a call that arrived just before would otherwise ask a queue that
    // is being shut down for the next one (seen: gRPC's assertion in grpc_cq_begin_op).
    const bool requested = service.RequestUnlessShutDown([&] {
      call->context_.AsyncNotifyWhenDone(&call->done_tag_);
      service.RequestWatch(&call->context_, &call->request_, &call->writer_, queue, queue,
                           &call->arrived_tag_);
    });
    if (!requested) delete call;
  }

  // HealthService::Watcher: under the service's lock, so never after RemoveWatcher.
  void Changed(Status status) override {
    absl::MutexLock lock(&mu_);
    latest_ = status;
    unsent_ = true;
    StartNext();
  }
  void ShutDown() override {
    absl::MutexLock lock(&mu_);
    ending_ = true;
    StartNext();
  }

 private:
  enum class Event { kArrived, kWritten, kFinished, kDone };
  using Tag = EventTag<WatchCall, Event>;
  friend Tag;

  WatchCall(HealthService& service, grpc::ServerCompletionQueue* queue)
      : service_(service), queue_(queue), writer_(&context_) {}

  void Completed(Event event, bool ok) {
    switch (event) {
      case Event::kArrived: {
        if (!ok) {  // the server is shutting down: no call came, and none will
          delete this;
          return;
        }
        Await(service_, queue_);
        service_.AddWatcher(request_.service(), this);  // the first status goes out at once
        return;
      }
      case Event::kWritten: {
        absl::MutexLock lock(&mu_);
        writing_ = false;
        if (!ok) ending_ = true;  // the stream broke: nothing more can be written
        StartNext();
        break;
      }
      case Event::kFinished:
        break;
      case Event::kDone: {
        service_.RemoveWatcher(request_.service(), this);
        absl::MutexLock lock(&mu_);
        ending_ = true;
        unsent_ = false;  // the call is over: no point writing
        StartNext();
        break;
      }
    }
    const bool last = event == Event::kDone ? lifetime_.Done()
                                            : lifetime_.Completed(event == Event::kFinished);
    if (last) delete this;
  }

  // One operation at a time: the latest status while it is unsent, then Finish once ending.
  void StartNext() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (writing_ || finishing_) return;
    if (unsent_) {
      unsent_ = false;
      writing_ = true;
      response_.set_status(latest_);
      lifetime_.Started();
      writer_.Write(response_, &written_tag_);
      return;
    }
    if (ending_) {
      finishing_ = true;
      lifetime_.Started();
      writer_.Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down"),
                     &finished_tag_);
    }
  }

  HealthService& service_;
  grpc::ServerCompletionQueue* const queue_;
  grpc::ServerContext context_;
  HealthCheckRequest request_;
  grpc::ServerAsyncWriter<HealthCheckResponse> writer_;
  Tag arrived_tag_{this, Event::kArrived};
  Tag written_tag_{this, Event::kWritten};
  Tag finished_tag_{this, Event::kFinished};
  Tag done_tag_{this, Event::kDone};
  CallLifetime lifetime_;

  absl::Mutex mu_;
  Status latest_ ABSL_GUARDED_BY(mu_) = HealthCheckResponse::UNKNOWN;
  HealthCheckResponse response_ ABSL_GUARDED_BY(mu_);  // the one being written
  bool unsent_ ABSL_GUARDED_BY(mu_) = false;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool ending_ ABSL_GUARDED_BY(mu_) = false;
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

HealthService::HealthService()
    : check_([this](auto&&... args) { RequestCheck(args...); },
             [this](grpc::ServerContext&, HealthCheckRequest request, auto done) {
               HealthCheckResponse response;
               {
                 absl::MutexLock lock(&mu_);
                 auto it = statuses_.find(request.service());
                 if (it == statuses_.end()) {
                   done(absl::NotFoundError(
                       absl::StrCat("no service named \"", request.service(), "\"")));
                   return;
                 }
                 response.set_status(it->second);
               }
               done(std::move(response));
             }) {
  absl::MutexLock lock(&mu_);
  statuses_[""] = HealthCheckResponse::SERVING;
}

HealthService::~HealthService() = default;

void HealthService::SetServingStatus(const std::string& service_name, bool serving) {
  absl::MutexLock lock(&mu_);
  // After Shutdown a name may still become known, but only as NOT_SERVING.
  Set(service_name, serving && !shut_down_ ? HealthCheckResponse::SERVING
                                           : HealthCheckResponse::NOT_SERVING);
}

void HealthService::SetServingStatus(bool serving) {
  absl::MutexLock lock(&mu_);
  if (shut_down_) return;
  for (auto& [name, status] : statuses_) {
    Set(name, serving ? HealthCheckResponse::SERVING : HealthCheckResponse::NOT_SERVING);
  }
}

void HealthService::Shutdown() {
  absl::MutexLock lock(&mu_);
  if (shut_down_) return;
  shut_down_ = true;
  for (auto& [name, status] : statuses_) Set(name, HealthCheckResponse::NOT_SERVING);
  for (auto& [name, watchers] : watchers_) {
    for (Watcher* watcher : watchers) watcher->ShutDown();
  }
}

void HealthService::RequestCalls(grpc::ServerCompletionQueue* queue) {
  check_.Await(queue);
  WatchCall::Await(*this, queue);
}

void HealthService::AddWatcher(const std::string& service_name, Watcher* watcher) {
  absl::MutexLock lock(&mu_);
  auto it = statuses_.find(service_name);
  watcher->Changed(it == statuses_.end() ? HealthCheckResponse::SERVICE_UNKNOWN : it->second);
  if (shut_down_) watcher->ShutDown();
  watchers_[service_name].insert(watcher);
}

bool HealthService::RequestUnlessShutDown(absl::FunctionRef<void()> request) {
  absl::MutexLock lock(&mu_);
  if (shut_down_) return false;
  request();
  return true;
}

void HealthService::RemoveWatcher(const std::string& service_name, Watcher* watcher) {
  absl::MutexLock lock(&mu_);
  auto it = watchers_.find(service_name);
  if (it == watchers_.end()) return;
  it->second.erase(watcher);
  if (it->second.empty()) watchers_.erase(it);
}

void HealthService::Set(const std::string& service_name, Status status) {
  Status& current = statuses_[service_name];
  if (current == status) return;
  current = status;
  auto it = watchers_.find(service_name);
  if (it == watchers_.end()) return;
  for (Watcher* watcher : it->second) watcher->Changed(status);
}

}  // namespace boneyard
