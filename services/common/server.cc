#include "services/common/server.h"

#include <grpc/grpc.h>
#include <grpcpp/ext/health_check_service_server_builder_option.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/impl/server_builder_option.h>
#include <grpcpp/impl/server_builder_plugin.h>
#include <grpcpp/impl/server_initializer.h>
#include <grpcpp/impl/service_type.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/async_queues.h"
#include "services/common/health_service.h"
#include "services/common/logging.h"
#include "spdlog/spdlog.h"

namespace boneyard {
namespace {

// gRPC has no public way to ask a grpc::Service for its name, but builder plugins are shown
// the names of the services the server registered: in InitServer, before the server starts,
// and in Finish, once it has started. This plugin copies them out.
class ServiceNamesPlugin : public grpc::ServerBuilderPlugin {
 public:
  ServiceNamesPlugin(std::vector<std::string>* names, RpcMetrics* metrics)
      : names_(names), metrics_(metrics) {}
  std::string name() override { return "boneyard_service_names"; }
  void InitServer(grpc::ServerInitializer* si) override {
    // Before any call, so that no known method is ever labelled "unknown".
    if (metrics_ == nullptr) return;
    if (const std::vector<std::string>* names = si->GetServiceList()) {
      metrics_->AddKnownServices(*names);
    }
  }
  void Finish(grpc::ServerInitializer* si) override {
    if (const std::vector<std::string>* names = si->GetServiceList()) *names_ = *names;
  }
  void ChangeArguments(const std::string&, void*) override {}

 private:
  std::vector<std::string>* const names_;
  RpcMetrics* const metrics_;
};

// How a plugin instance (rather than a global plugin factory) gets into one builder. Option
// plugins come after the global ones (reflection), so they see reflection's service.
class ServiceNamesOption : public grpc::ServerBuilderOption {
 public:
  ServiceNamesOption(std::vector<std::string>* names, RpcMetrics* metrics)
      : names_(names), metrics_(metrics) {}
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->push_back(std::make_unique<ServiceNamesPlugin>(names_, metrics_));
  }

 private:
  std::vector<std::string>* const names_;
  RpcMetrics* const metrics_;
};

}  // namespace

GrpcServer::GrpcServer(HealthService* health,
                       std::unique_ptr<grpc::Server> server,
                       std::vector<std::string> service_names, int port, int own_port,
                       std::unique_ptr<CompletionQueueThreads> async_queues)
    : health_(health),
      server_(std::move(server)),
      service_names_(std::move(service_names)),
      port_(port),
      own_port_(own_port),
      async_queues_(std::move(async_queues)) {}

GrpcServer::~GrpcServer() { Shutdown(absl::ZeroDuration()); }

absl::StatusOr<std::unique_ptr<GrpcServer>> GrpcServer::Start(GrpcServerOptions options) {
  if (options.listen_address.empty()) {
    return absl::InvalidArgumentError("grpc: empty listen address");
  }
  if (options.max_message_bytes <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("grpc: max_message_bytes must be positive, not ", options.max_message_bytes));
  }

  if (options.max_streams_per_connection <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "grpc: max_streams_per_connection must be positive, not ",
        options.max_streams_per_connection));
  }

  // A process-wide setting read when a builder builds: the reflection plugin is added to every
  // server built afterwards.
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen_address, grpc::InsecureServerCredentials(), &port);
  int own_port = 0;
  if (!options.own_address.empty()) {
    builder.AddListeningPort(options.own_address, grpc::InsecureServerCredentials(), &own_port);
  }
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, options.reuse_port ? 1 : 0);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, options.max_streams_per_connection);
  // The synchronous API's threads: a thread that finishes a call goes back to waiting only if
  // fewer than MAX_POLLERS wait; otherwise it exits, and the next burst creates new ones. At
  // the default (2) nearly every call of a busy synchronous service (matchmaking) cost a
  // thread's creation and exit: 64 kept idle cut its CPU by 14-28 % (docs/performance.md).
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
                              kSyncServerIdleThreads);
  // The completion queues of the services with async methods (async_queues.h), each with the
  // service it carries.
  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues;
  std::vector<AsyncService*> queue_services;
  // Our health service instead of gRPC's default one, which is on the callback API
  // (health_service.h says why that matters); it shares the first queue. The server owns it
  // (and so Server::GetHealthCheckService returns it).
  auto owned_health = std::make_unique<HealthService>();
  HealthService* const health = owned_health.get();
  builder.SetOption(
      std::make_unique<grpc::HealthCheckServiceServerBuilderOption>(std::move(owned_health)));
  builder.RegisterService(health);
  for (grpc::Service* service : options.services) {
    builder.RegisterService(service);
    if (auto* async = dynamic_cast<AsyncService*>(service)) {
      for (int i = 0; i < async->completion_queues(); ++i) {
        queues.push_back(builder.AddCompletionQueue());
        queue_services.push_back(async);
      }
    }
  }
  if (queues.empty()) {  // a queue for the health service alone
    queues.push_back(builder.AddCompletionQueue());
    queue_services.push_back(nullptr);
  }
  if (options.metrics != nullptr) {
    for (grpc::Service* service : options.services) {
      if (auto* async = dynamic_cast<AsyncService*>(service)) {
        async->UseRpcMetrics(*options.metrics);
      }
    }
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
    creators.push_back(options.metrics->MakeInterceptorFactory());
    builder.experimental().SetInterceptorCreators(std::move(creators));
  }
  std::vector<std::string> service_names;
  builder.SetOption(std::make_unique<ServiceNamesOption>(&service_names, options.metrics));

  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  const bool started =
      server != nullptr && port != 0 && (options.own_address.empty() || own_port != 0);
  if (started) {
    health->RequestCalls(queues.front().get());
    for (size_t i = 0; i < queues.size(); ++i) {
      if (queue_services[i] != nullptr) queue_services[i]->RequestCalls(queues[i].get());
    }
  }
  // Shuts the queues down and drains them when it goes, also if the server did not start.
  auto async_queues = std::make_unique<CompletionQueueThreads>(std::move(queues));
  if (!started) {
    if (server != nullptr) server->Shutdown();
    return absl::UnavailableError(
        absl::StrCat("grpc: cannot listen on ", options.listen_address,
                     options.own_address.empty() ? "" : " and ", options.own_address));
  }
  async_queues->Start();
  auto grpc_server = std::unique_ptr<GrpcServer>(new GrpcServer(
      health, std::move(server), std::move(service_names), port, own_port,
      std::move(async_queues)));
  grpc_server->SetServing(true);
  spdlog::info("grpc server listening {}", Fields()
                                               .Add("address", options.listen_address)
                                               .Add("port", port)
                                               .Add("own_port", own_port)
                                               .Add("reuse_port", options.reuse_port));
  return grpc_server;
}

void GrpcServer::SetServing(bool serving) {
  health_->SetServingStatus("", serving);
  for (const std::string& name : service_names_) health_->SetServingStatus(name, serving);
}

void GrpcServer::Shutdown(absl::Duration grace) {
  absl::MutexLock lock(&shutdown_mu_);
  if (shut_down_) return;
  shut_down_ = true;
  spdlog::info("grpc server shutting down {}", Fields().Add("grace", grace));
  // NOT_SERVING everywhere, and later SetServingStatus calls are ignored.
  health_->Shutdown();
  if (grace == absl::InfiniteDuration()) {
    server_->Shutdown();  // no deadline: wait for every call however long it takes
  } else {
    grace = std::clamp(grace, absl::ZeroDuration(), absl::Hours(24 * 365));
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::duration_cast<std::chrono::system_clock::duration>(
                          absl::ToChronoNanoseconds(grace)));
  }
  server_->Wait();
  // Every call has ended: nothing more can come on the async services' queues.
  async_queues_->Stop();
  spdlog::info("grpc server stopped");
}

}  // namespace boneyard
