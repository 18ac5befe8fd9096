// Prometheus metrics: a /metrics page in the Prometheus text format (prometheus-cpp's registry
// and serializer, served by cpp-httplib), the usual process_* metrics, and per-RPC metrics
// recorded by a server interceptor.
//
//   absl::StatusOr<std::unique_ptr<MetricsServer>> metrics = MetricsServer::Start(address);
//   if (!metrics.ok()) return metrics.status();
//   RpcMetrics rpc_metrics(*(*metrics)->registry());
//   // GrpcServerOptions{..., .metrics = &rpc_metrics}; service metrics go in the same registry.
//
// The RpcMetrics must outlive the gRPC server it is given to (interceptors record into it until
// the last call is gone), and a MetricsServer must outlive everything registered with it.
#ifndef BONEYARD_SERVICES_COMMON_METRICS_H_
#define BONEYARD_SERVICES_COMMON_METRICS_H_

#include <grpcpp/support/server_interceptor.h>
#include <grpcpp/support/status.h>

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "prometheus/collectable.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/metric_family.h"
#include "prometheus/registry.h"

namespace httplib {
class Server;
}

namespace boneyard {

// Serves a registry (and the process metrics) at http://<address>/metrics; any other path is
// 404. Destroying it stops the HTTP server at once: it keeps no connection open between
// requests. (prometheus-cpp's own exposer, civetweb, took one to two seconds to stop, every
// time a service or a test stopped one.) Destroy it last, after the gRPC server has shut down.
class MetricsServer {
 public:
  // `address` is "host:port" with a numeric host, e.g. "127.0.0.1:9464"; port 0 picks a free
  // port (see port()). UNAVAILABLE, naming the address, when it cannot listen there.
  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(const std::string& address);

  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;
  ~MetricsServer();

  // Where a service registers its own metric families.
  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  // The port it listens on.
  int port() const { return port_; }

 private:
  MetricsServer(std::shared_ptr<prometheus::Registry> registry,
                std::shared_ptr<prometheus::Collectable> process,
                std::unique_ptr<httplib::Server> http, int port);

  // The page: every family of the registry and the process collector, as text.
  std::string Page() const;

  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<prometheus::Collectable> process_;
  std::unique_ptr<httplib::Server> http_;
  std::atomic<bool> accept_loop_ended_{false};
  std::thread serving_;  // runs http_'s accept loop until the destructor stops it
  int port_;
};

// What a service's main registers its metrics in: the MetricsServer's registry when there is
// an address to serve them on, otherwise a registry of its own that nobody serves (so the code
// that registers metrics is the same either way).
//
//   absl::StatusOr<ServiceMetrics> metrics = StartServiceMetrics(config.metrics_address);
//   RpcMetrics rpc_metrics(*metrics->registry);
struct ServiceMetrics {
  std::unique_ptr<MetricsServer> server;  // null when the address is empty
  std::shared_ptr<prometheus::Registry> registry;

  // The /metrics port, 0 when not served.
  int port() const { return server != nullptr ? server->port() : 0; }
};

// MetricsServer::Start(address) for a non-empty address (its errors), a bare registry for "".
absl::StatusOr<ServiceMetrics> StartServiceMetrics(const std::string& address);

// Reports, on each scrape, the process's
//   process_resident_memory_bytes  gauge    (/proc/self/statm)
//   process_virtual_memory_bytes   gauge    (/proc/self/statm)
//   process_cpu_seconds_total      counter  (getrusage: user + system)
//   process_threads                gauge    (/proc/self/stat)
//   process_start_time_seconds     gauge    (since the Unix epoch; /proc/self/stat, /proc/stat)
// A value that cannot be read is left out of that scrape. MetricsServer registers one.
class ProcessCollector : public prometheus::Collectable {
 public:
  ProcessCollector();
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  double start_time_seconds_;  // < 0: unknown
};

// Per-RPC metrics, in the names of the usual gRPC exporters:
//   grpc_server_handled_total{grpc_method, grpc_code}   counter: calls finished
//   grpc_server_handling_seconds{grpc_method}           histogram: call durations
// grpc_method is the full method without the leading slash
// ("boneyard.v1.ExecutionService/GetMatch"), or "unknown" for a method of a service not added
// with AddKnownServices: gRPC runs interceptors also for calls to methods the server does not
// have, and their names are the caller's choice, so they must not each make a series.
// grpc_code is the canonical code name ("OK", "NOT_FOUND"). A streaming call is counted once,
// when it ends, and its duration is the whole stream's.
class RpcMetrics {
 public:
  explicit RpcMetrics(prometheus::Registry& registry);

  RpcMetrics(const RpcMetrics&) = delete;
  RpcMetrics& operator=(const RpcMetrics&) = delete;

  // Full service names ("boneyard.v1.ExecutionService") whose methods are labelled by name.
  // GrpcServer adds every service it hosts before it accepts calls.
  void AddKnownServices(const std::vector<std::string>& services);

  // The grpc_method label of a full method name ("/pkg.Service/Method").
  std::string MethodLabel(absl::string_view full_method) const;

  // Counts one call; `method` is used as the label as it is.
  void Record(absl::string_view method, grpc::StatusCode code, absl::Duration duration);

  // Leaves the calls of `full_method` ("/pkg.Service/Method") to the service, which records
  // each with RecordCall. For streams: grpc++ runs a call's interceptors on every batch, so on
  // every message of a stream, which cost the execution service's Play streams a few per cent
  // of its CPU (docs/performance.md). Before the server accepts calls.
  void RecordedByService(std::string full_method);

  // Counts one call of `full_method` under MethodLabel and logs it at debug level, as the
  // interceptor does.
  void RecordCall(absl::string_view full_method, grpc::StatusCode code, absl::Duration duration);

  // Whether RecordedByService named `full_method`.
  bool IsRecordedByService(absl::string_view full_method) const;

  // An interceptor factory for grpc::ServerBuilder::experimental().SetInterceptorCreators
  // (GrpcServer does that when given these metrics). Each call's interceptor records the call
  // under MethodLabel when its status is sent (or, if it never sends one, as CANCELLED when
  // the call is gone) and logs it at debug level. Calls of the methods RecordedByService get
  // none.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> MakeInterceptorFactory();

 private:
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& handling_seconds_;
  mutable absl::Mutex mu_;
  std::set<std::string, std::less<>> known_services_ ABSL_GUARDED_BY(mu_);
  std::set<std::string, std::less<>> recorded_by_service_ ABSL_GUARDED_BY(mu_);
};

// The canonical name of a status code: "OK", "CANCELLED", ..., "UNAUTHENTICATED"; "UNKNOWN"
// for a code outside that range.
absl::string_view StatusCodeName(grpc::StatusCode code);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_METRICS_H_
