#include "services/common/metrics.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "httplib.h"
#include "prometheus/text_serializer.h"
#include "services/common/logging.h"
#include "spdlog/spdlog.h"

namespace boneyard {
namespace {

std::optional<std::string> ReadFile(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return contents.str();
}

// The fields of /proc/self/stat after the command name (which may hold spaces and
// parentheses): element 0 is field 3 (state) of proc(5).
std::vector<std::string> ProcSelfStatFields() {
  std::optional<std::string> stat = ReadFile("/proc/self/stat");
  if (!stat.has_value()) return {};
  size_t close = stat->rfind(')');
  if (close == std::string::npos) return {};
  return absl::StrSplit(absl::string_view(*stat).substr(close + 1), ' ', absl::SkipEmpty());
}

constexpr size_t kStatNumThreads = 20 - 3;
constexpr size_t kStatStartTime = 22 - 3;

std::optional<double> StatField(const std::vector<std::string>& fields, size_t index) {
  double value;
  if (index >= fields.size() || !absl::SimpleAtod(fields[index], &value)) return std::nullopt;
  return value;
}

// Seconds since the epoch at which the process started: boot time plus the start time in
// clock ticks since boot.
std::optional<double> ProcessStartTimeSeconds() {
  std::optional<double> ticks = StatField(ProcSelfStatFields(), kStatStartTime);
  std::optional<std::string> stat = ReadFile("/proc/stat");
  long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!ticks.has_value() || !stat.has_value() || ticks_per_second <= 0) return std::nullopt;
  for (absl::string_view line : absl::StrSplit(*stat, '\n')) {
    if (!absl::ConsumePrefix(&line, "btime ")) continue;
    double boot_time;
    if (!absl::SimpleAtod(line, &boot_time)) return std::nullopt;
    return boot_time + *ticks / static_cast<double>(ticks_per_second);
  }
  return std::nullopt;
}

prometheus::MetricFamily OneValue(std::string name, std::string help, prometheus::MetricType type,
                                  double value) {
  prometheus::MetricFamily family;
  family.name = std::move(name);
  family.help = std::move(help);
  family.type = type;
  prometheus::ClientMetric metric;
  if (type == prometheus::MetricType::Counter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  family.metric.push_back(std::move(metric));
  return family;
}

// Durations from 1 ms to a minute (a stream's duration may be much longer: it lands in +Inf).
const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
  static const auto* const kBuckets = new prometheus::Histogram::BucketBoundaries{
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
  return *kBuckets;
}

void LogCall(absl::string_view method_label, grpc::StatusCode code, absl::Duration duration) {
  spdlog::debug("rpc {}", Fields()
                              .Add("method", method_label)
                              .Add("code", StatusCodeName(code))
                              .Add("seconds", absl::ToDoubleSeconds(duration)));
}

class MetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(RpcMetrics* metrics, std::string method)
      : metrics_(metrics),
        method_(std::move(method)),
        start_(std::chrono::steady_clock::now()) {}

  ~MetricsInterceptor() override {
    // The call ended without sending a status (cancelled before the handler finished).
    Record(grpc::StatusCode::CANCELLED);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
                          grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
      Record(methods->GetSendStatus().error_code());
    }
    methods->Proceed();
  }

 private:
  // Records the call once: at its status, or at its end.
  void Record(grpc::StatusCode code) {
    if (recorded_.exchange(true)) return;
    const absl::Duration duration =
        absl::FromChrono(std::chrono::steady_clock::now() - start_);
    metrics_->Record(method_, code, duration);
    LogCall(method_, code, duration);
  }

  RpcMetrics* const metrics_;
  const std::string method_;
  const std::chrono::steady_clock::time_point start_;
  // A stream's send and receive batches may be intercepted on different threads at once.
  std::atomic<bool> recorded_{false};
};

class MetricsInterceptorFactory
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(RpcMetrics* metrics) : metrics_(metrics) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    const absl::string_view method = info->method() == nullptr ? "" : info->method();
    if (metrics_->IsRecordedByService(method)) return nullptr;
    return new MetricsInterceptor(metrics_, metrics_->MethodLabel(method));
  }

 private:
  RpcMetrics* const metrics_;
};

}  // namespace

absl::string_view StatusCodeName(grpc::StatusCode code) {
  static constexpr absl::string_view kNames[] = {
      "OK",
      "CANCELLED",
      "UNKNOWN",
      "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED",
      "NOT_FOUND",
      "ALREADY_EXISTS",
      "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION",
      "ABORTED",
      "OUT_OF_RANGE",
      "UNIMPLEMENTED",
      "INTERNAL",
      "UNAVAILABLE",
      "DATA_LOSS",
      "UNAUTHENTICATED",
  };
  const int index = static_cast<int>(code);
  if (index < 0 || index >= static_cast<int>(std::size(kNames))) return "UNKNOWN";
  return kNames[index];
}

// --- MetricsServer -------------------------------------------------------------------------

MetricsServer::MetricsServer(std::shared_ptr<prometheus::Registry> registry,
                             std::shared_ptr<prometheus::Collectable> process,
                             std::unique_ptr<httplib::Server> http, int port)
    : registry_(std::move(registry)),
      process_(std::move(process)),
      http_(std::move(http)),
      port_(port) {
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(Page(), "text/plain; version=0.0.4; charset=utf-8");
  });
  serving_ = std::thread([this] {
    http_->listen_after_bind();
    accept_loop_ended_ = true;
  });
}

MetricsServer::~MetricsServer() {
  // httplib's stop() does nothing until the accept loop is running: wait for it to start (or
  // to have ended on its own).
  while (!http_->is_running() && !accept_loop_ended_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  http_->stop();
  serving_.join();
}

std::string MetricsServer::Page() const {
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  for (prometheus::MetricFamily& family : process_->Collect()) {
    families.push_back(std::move(family));
  }
  return prometheus::TextSerializer().Serialize(families);
}

absl::StatusOr<ServiceMetrics> StartServiceMetrics(const std::string& address) {
  ServiceMetrics metrics;
  if (address.empty()) {
    metrics.registry = std::make_shared<prometheus::Registry>();
    return metrics;
  }
  absl::StatusOr<std::unique_ptr<MetricsServer>> server = MetricsServer::Start(address);
  if (!server.ok()) return server.status();
  metrics.server = *std::move(server);
  metrics.registry = metrics.server->registry();
  return metrics;
}

absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& address) {
  if (address.empty()) return absl::InvalidArgumentError("metrics: empty listen address");
  const size_t colon = address.rfind(':');
  int port = 0;
  if (colon == std::string::npos || !absl::SimpleAtoi(address.substr(colon + 1), &port) ||
      port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics: '", address, "' is not host:port"));
  }
  // [::1]:9464 binds ::1.
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  auto http = std::make_unique<httplib::Server>();
  // Not httplib's default SO_REUSEPORT, which would let a second server share a busy port.
  http->set_socket_options([](int socket) {
    int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  // One request per connection, so stopping never waits for an idle keep-alive connection;
  // two workers are plenty for scrapes.
  http->set_keep_alive_max_count(1);
  http->new_task_queue = [] { return new httplib::ThreadPool(2); };
  if (port == 0) {
    port = http->bind_to_any_port(host);
    if (port <= 0) {
      return absl::UnavailableError(absl::StrCat("metrics: cannot listen on ", address));
    }
  } else if (!http->bind_to_port(host, port)) {
    return absl::UnavailableError(absl::StrCat("metrics: cannot listen on ", address));
  }
  return std::unique_ptr<MetricsServer>(
      new MetricsServer(std::make_shared<prometheus::Registry>(),
                        std::make_shared<ProcessCollector>(), std::move(http), port));
}

// --- ProcessCollector ----------------------------------------------------------------------

ProcessCollector::ProcessCollector()
    : start_time_seconds_(ProcessStartTimeSeconds().value_or(-1)) {}

std::vector<prometheus::MetricFamily> ProcessCollector::Collect() const {
  std::vector<prometheus::MetricFamily> families;
  const double page_size = static_cast<double>(sysconf(_SC_PAGESIZE));

  if (std::optional<std::string> statm = ReadFile("/proc/self/statm"); statm.has_value()) {
    std::vector<absl::string_view> pages = absl::StrSplit(*statm, ' ', absl::SkipEmpty());
    double size, resident;
    if (pages.size() >= 2 && absl::SimpleAtod(pages[0], &size) &&
        absl::SimpleAtod(pages[1], &resident)) {
      families.push_back(OneValue("process_resident_memory_bytes",
                                  "Resident memory size in bytes.",
                                  prometheus::MetricType::Gauge, resident * page_size));
      families.push_back(OneValue("process_virtual_memory_bytes",
                                  "Virtual memory size in bytes.",
                                  prometheus::MetricType::Gauge, size * page_size));
    }
  }

  if (rusage usage; getrusage(RUSAGE_SELF, &usage) == 0) {
    auto seconds = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    families.push_back(OneValue("process_cpu_seconds_total",
                                "Total user and system CPU time spent in seconds.",
                                prometheus::MetricType::Counter,
                                seconds(usage.ru_utime) + seconds(usage.ru_stime)));
  }

  if (std::optional<double> threads = StatField(ProcSelfStatFields(), kStatNumThreads)) {
    families.push_back(OneValue("process_threads", "Number of OS threads in the process.",
                                prometheus::MetricType::Gauge, *threads));
  }

  if (start_time_seconds_ >= 0) {
    families.push_back(OneValue("process_start_time_seconds",
                                "Start time of the process since unix epoch in seconds.",
                                prometheus::MetricType::Gauge, start_time_seconds_));
  }
  return families;
}

// --- RpcMetrics ----------------------------------------------------------------------------

RpcMetrics::RpcMetrics(prometheus::Registry& registry)
    : handled_(prometheus::BuildCounter()
                   .Name("grpc_server_handled_total")
                   .Help("Total number of RPCs completed on the server, whatever their status.")
                   .Register(registry)),
      handling_seconds_(prometheus::BuildHistogram()
                            .Name("grpc_server_handling_seconds")
                            .Help("Time from the start of an RPC to its status, in seconds.")
                            .Register(registry)) {}

void RpcMetrics::AddKnownServices(const std::vector<std::string>& services) {
  absl::MutexLock lock(&mu_);
  known_services_.insert(services.begin(), services.end());
}

std::string RpcMetrics::MethodLabel(absl::string_view full_method) const {
  absl::string_view method = absl::StripPrefix(full_method, "/");
  const size_t slash = method.rfind('/');
  if (slash == absl::string_view::npos) return "unknown";
  absl::ReaderMutexLock lock(&mu_);
  if (known_services_.find(method.substr(0, slash)) == known_services_.end()) return "unknown";
  return std::string(method);
}

void RpcMetrics::Record(absl::string_view method, grpc::StatusCode code,
                        absl::Duration duration) {
  std::string method_label(method);
  handled_.Add({{"grpc_method", method_label}, {"grpc_code", std::string(StatusCodeName(code))}})
      .Increment();
  handling_seconds_.Add({{"grpc_method", std::move(method_label)}}, LatencyBuckets())
      .Observe(absl::ToDoubleSeconds(duration));
}

void RpcMetrics::RecordedByService(std::string full_method) {
  absl::MutexLock lock(&mu_);
  recorded_by_service_.insert(std::move(full_method));
}

bool RpcMetrics::IsRecordedByService(absl::string_view full_method) const {
  absl::ReaderMutexLock lock(&mu_);
  return recorded_by_service_.find(full_method) != recorded_by_service_.end();
}

void RpcMetrics::RecordCall(absl::string_view full_method, grpc::StatusCode code,
                            absl::Duration duration) {
  const std::string label = MethodLabel(full_method);
  Record(label, code, duration);
  LogCall(label, code, duration);
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
RpcMetrics::MakeInterceptorFactory() {
  return std::make_unique<MetricsInterceptorFactory>(this);
}

}  // namespace boneyard
