// grpc.health.v1.Health (proto/grpc/health/v1/health.proto), served on gRPC's async API, in
// place of gRPC's default health service. That one is on the callback API, and in gRPC 1.51 any
// callback method gives the server a process-wide callback queue with threads of its own that
// poll the sockets too and then wake the thread a read is for (docs/performance.md). So a
// server whose methods are all async (the execution service) has no such threads only if its
// health service is async too.
//
// It behaves as the default one does:
//  - the overall status ("") is SERVING from the start; a service's name is known once its
//    status has been set;
//  - Check answers the status, or NOT_FOUND for a name it does not know;
//  - Watch sends the status now (SERVICE_UNKNOWN for a name it does not know) and then each
//    change, until the call ends; when the client reads slowly, only the latest is sent;
//  - Shutdown sets everything to NOT_SERVING for good: later changes are ignored.
//
// GrpcServer (server.h) registers it, hands it to gRPC as the server's health service (so
// Server::GetHealthCheckService returns it) and asks for its calls on one of its queues.
#ifndef BONEYARD_SERVICES_COMMON_HEALTH_SERVICE_H_
#define BONEYARD_SERVICES_COMMON_HEALTH_SERVICE_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <map>
#include <set>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/synchronization/mutex.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "services/common/async_unary_call.h"

namespace boneyard {

class HealthService final
    : public grpc::health::v1::Health::WithAsyncMethod_Check<
          grpc::health::v1::Health::WithAsyncMethod_Watch<grpc::health::v1::Health::Service>>,
      public grpc::HealthCheckServiceInterface {
 public:
  using Status = grpc::health::v1::HealthCheckResponse::ServingStatus;

  HealthService();
  HealthService(const HealthService&) = delete;
  HealthService& operator=(const HealthService&) = delete;
  ~HealthService() override;

  // grpc::HealthCheckServiceInterface.
  void SetServingStatus(const std::string& service_name, bool serving) override;
  void SetServingStatus(bool serving) override;
  void Shutdown() override;

  // Awaits the first Check and Watch calls on `queue`, once the server has started.
  void RequestCalls(grpc::ServerCompletionQueue* queue);

  // A Watch call, told of its service's status.
  class Watcher {
   public:
    // The status now, or a change of it.
    virtual void Changed(Status status) = 0;
    // The health service has shut down: no more changes.
    virtual void ShutDown() = 0;

   protected:
    ~Watcher() = default;
  };

  // Tells `watcher` the status of `service_name` now (SERVICE_UNKNOWN if not known), then each
  // change, until RemoveWatcher. Calls the watcher with the service's lock held, so no call
  // comes after RemoveWatcher has returned.
  void AddWatcher(const std::string& service_name, Watcher* watcher);
  void RemoveWatcher(const std::string& service_name, Watcher* watcher);

  // Runs `request` (which asks the queue for the next Watch call) unless the service has shut
  // down, under the service's lock: Shutdown comes before the server's, and the queues are shut
  // down after that, so a request never reaches a queue that is shut down (gRPC aborts the
  // process then). False when it did not run.
  bool RequestUnlessShutDown(absl::FunctionRef<void()> request);

 private:
  void Set(const std::string& service_name, Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::map<std::string, Status> statuses_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::set<Watcher*>> watchers_ ABSL_GUARDED_BY(mu_);
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;

  AsyncUnaryMethod<grpc::health::v1::HealthCheckRequest, grpc::health::v1::HealthCheckResponse>
      check_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_HEALTH_SERVICE_H_
