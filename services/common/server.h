// Starts a service's gRPC server the same way everywhere: on a loopback or cluster-internal
// address with insecure credentials, with the standard health service (grpc.health.v1.Health)
// and server reflection (so grpcurl and grpc_cli work without the .proto files), and with the
// per-RPC metrics interceptor when metrics are given.
//
//   absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start({
//       .listen_address = config.listen_address,
//       .services = {&execution_service},
//       .metrics = &rpc_metrics,
//   });
//   if (!server.ok()) return server.status();
//   WaitForTerminationSignal();
//   (*server)->Shutdown(config.shutdown_grace);
//
// A service that also derives from AsyncService (async_queues.h) gets the completion queues it
// asks for, each with a thread, from start until the server has shut down. The health service
// (health_service.h) is on the async API too, on the first of those queues, or on a queue of
// its own when no service asks for any.
//
// Health: the overall status ("") and each registered service's name report SERVING from Start
// until SetServing(false) or Shutdown. The services, and the RpcMetrics, must outlive the
// GrpcServer.
#ifndef BONEYARD_SERVICES_COMMON_SERVER_H_
#define BONEYARD_SERVICES_COMMON_SERVER_H_

#include <grpcpp/server.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/common/metrics.h"

namespace boneyard {

class CompletionQueueThreads;
class HealthService;

inline constexpr int kDefaultMaxStreamsPerConnection = 4096;

// How many idle threads a server keeps for its synchronous methods' calls.
inline constexpr int kSyncServerIdleThreads = 64;

struct GrpcServerOptions {
  // "host:port"; port 0 picks a free port (see GrpcServer::port()).
  // (Every member has a default, so designated initializers may leave any out without
  // -Wmissing-field-initializers.)
  std::string listen_address = {};
  std::vector<grpc::Service*> services = {};
  RpcMetrics* metrics = nullptr;
  // The largest message received or sent.
  int max_message_bytes = 4 << 20;
  // The most calls (HTTP/2 streams) one connection has open at once, advertised to clients in
  // SETTINGS_MAX_CONCURRENT_STREAMS: a client's library holds further calls until one ends.
  // It bounds what one connection can pin down; a relay that multiplexes many users (the web
  // app) opens more connections.
  int max_streams_per_connection = kDefaultMaxStreamsPerConnection;
  // Share `listen_address`'s port with other processes on this machine (SO_REUSEPORT): replicas
  // behind one port, the kernel spreading new connections over them. Off, a port already in use
  // is an error, so two servers never share one by accident.
  bool reuse_port = false;
  // A second "host:port" this server listens on: its own when replicas share
  // `listen_address` (own_port() is its port). Empty: none.
  std::string own_address = {};
};

class GrpcServer {
 public:
  // INVALID_ARGUMENT for an empty address or a non-positive message or stream limit; UNAVAILABLE, naming
  // the address, when it cannot listen there (including a port another process already uses,
  // unless `reuse_port`).
  static absl::StatusOr<std::unique_ptr<GrpcServer>> Start(GrpcServerOptions options);

  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;
  // Shuts down with no grace if Shutdown was not called.
  ~GrpcServer();

  // The port it listens on.
  int port() const { return port_; }
  // The port of `own_address`; 0 without one.
  int own_port() const { return own_port_; }

  // Sets the health status of "" and of every registered service's name. Ignored once
  // Shutdown has begun.
  void SetServing(bool serving);

  // Reports NOT_SERVING for everything, stops accepting calls, lets calls in flight finish for
  // up to `grace`, then cancels those still running and waits for their handlers to finish.
  // Idempotent: a second call (also from another thread) returns once the first is done.
  void Shutdown(absl::Duration grace);

  grpc::Server& server() { return *server_; }

 private:
  GrpcServer(HealthService* health, std::unique_ptr<grpc::Server> server,
             std::vector<std::string> service_names, int port, int own_port,
             std::unique_ptr<CompletionQueueThreads> async_queues);

  // The server's health service, which the server owns.
  HealthService* const health_;

  const std::unique_ptr<grpc::Server> server_;
  // Every service the server has registered, including the health and reflection services.
  const std::vector<std::string> service_names_;
  const int port_;
  const int own_port_;
  // The async services' queues and their threads (none without such services).
  const std::unique_ptr<CompletionQueueThreads> async_queues_;

  absl::Mutex shutdown_mu_;
  bool shut_down_ ABSL_GUARDED_BY(shutdown_mu_) = false;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_SERVER_H_
