// boneyard-web: the operators' dashboard and the pages people play on
// (services/web/, docs/web.md) over HTTP, as a gRPC client of execution,
// matchmaking and ratings. Flags → objects → serve → stop on SIGTERM/SIGINT.
//
// Exit codes: 0 after a graceful shutdown, 1 when start-up fails (the database,
// a port, the assets), 2 for bad flags (the message names the flag).
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/common/flags.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/shutdown.h"
#include "services/web/assets.h"
#include "services/web/audit_log.h"
#include "services/web/backends.h"
#include "services/web/http_server.h"
#include "services/web/overview.h"
#include "services/web/relays.h"
#include "services/web/sessions.h"
#include "services/web/web_api.h"
#include "services/web/web_metrics.h"
#include "spdlog/spdlog.h"

#ifndef BONEYARD_WEB_ASSETS_DIR
#define BONEYARD_WEB_ASSETS_DIR ""
#endif

ABSL_FLAG(std::string, execution_target, "127.0.0.1:50051", "The execution service (host:port).");
ABSL_FLAG(std::string, matchmaking_target, "",
          "The matchmaking service (host:port); empty: no lobby, no player sign-in.");
ABSL_FLAG(std::string, ratings_target, "", "The ratings service (host:port); empty: no boards.");
ABSL_FLAG(std::string, execution_metrics_url, "",
          "Execution's /metrics page (http://host:port/metrics), for the "
          "overview's rates.");
ABSL_FLAG(std::string, matchmaking_metrics_url, "",
          "Matchmaking's /metrics page, for the overview's waiting tickets.");
ABSL_FLAG(std::string, assets_dir, BONEYARD_WEB_ASSETS_DIR,
          "The built pages (index.html and assets/); the build's own by default.");
ABSL_FLAG(bool, secure_cookies, false,
          "Mark the session cookie Secure: set it when browsers reach the service over HTTPS "
          "through a proxy that terminates TLS.");
ABSL_FLAG(int, http_threads, 2, "Threads serving HTTP connections (1..64).");
ABSL_FLAG(absl::Duration, overview_interval, absl::Seconds(5),
          "How often the overview samples the services (1s..1m).");

extern "C" void ABSL_INTERNAL_C_SYMBOL(AbslInternalReportFatalUsageError)(absl::string_view) {
  std::_Exit(2);
}

namespace boneyard::web {
namespace {

constexpr int kExitStartupFailed = 1;
constexpr int kExitBadFlags = 2;

int BadFlag(absl::string_view message) {
  std::cerr << "boneyard-web: " << message << "\n";
  return kExitBadFlags;
}

int StartupFailed(absl::string_view what, const absl::Status& status) {
  LogStartupFailure("boneyard-web", what, status);
  return kExitStartupFailed;
}

// Every open event stream is a socket: lift the soft limit on open files to the hard one, so
// thousands of browsers fit (the default soft limit is often 1024).
void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    spdlog::warn("cannot raise the open-file limit to {}", limit.rlim_max);
  }
}

int Run(int argc, char** argv) {
  BlockTerminationSignals();  // first: before anything starts a thread
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  absl::SetProgramUsageMessage(
      "Serves boneyard's web app (dashboard, lobby, play pages) and its JSON "
      "API over HTTP.\n"
      "Usage: boneyard-web --listen=127.0.0.1:8080 "
      "--database_url=postgresql://... "
      "--operator_token_file=FILE --execution_target=HOST:PORT [flags]");
  // The web service's own defaults for the shared flags (the gRPC services'
  // would collide).
  absl::SetFlag(&FLAGS_listen, "127.0.0.1:8080");
  absl::SetFlag(&FLAGS_metrics_listen, "127.0.0.1:9467");
  absl::ParseCommandLine(argc, argv);

  absl::StatusOr<ServiceConfig> common = CommonConfigFromFlags();
  if (!common.ok()) return BadFlag(common.status().message());
  const int http_threads = absl::GetFlag(FLAGS_http_threads);
  if (http_threads < 1 || http_threads > 64) return BadFlag("--http_threads: must be 1..64");
  const absl::Duration interval = absl::GetFlag(FLAGS_overview_interval);
  if (interval < absl::Seconds(1) || interval > absl::Minutes(1)) {
    return BadFlag("--overview_interval: must be from 1s to 1m");
  }
  if (absl::GetFlag(FLAGS_execution_target).empty()) {
    return BadFlag("--execution_target: required");
  }
  if (absl::Status s = InitLogging("web", common->log_level); !s.ok()) {
    return BadFlag(absl::StrCat("--log_level: ", s.message()));
  }

  RaiseOpenFileLimit();
  absl::StatusOr<ServiceMetrics> served = StartServiceMetrics(common->metrics_address);
  if (!served.ok()) return StartupFailed("cannot serve metrics", served.status());
  WebMetrics metrics(*served->registry);
  absl::StatusOr<std::unique_ptr<Assets>> assets = Assets::Load(absl::GetFlag(FLAGS_assets_dir));
  if (!assets.ok()) return StartupFailed("cannot load the pages", assets.status());
  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect(common->database_url, common->db_pool_size);
  if (!pool.ok()) return StartupFailed("cannot connect to the database", pool.status());
  absl::StatusOr<std::unique_ptr<AuditLog>> audit = AuditLog::Open(**pool);
  if (!audit.ok()) return StartupFailed("cannot open the audit log", audit.status());

  Backends backends(BackendTargets{.execution = absl::GetFlag(FLAGS_execution_target),
                                   .matchmaking = absl::GetFlag(FLAGS_matchmaking_target),
                                   .ratings = absl::GetFlag(FLAGS_ratings_target)});
  // Shared with every web replica through the database (the web schema, as the audit log's).
  SessionStore sessions(**pool, "\"web\"", common->operator_token);
  auto watch_hub = std::make_unique<WatchHub>(backends.execution());
  auto overview = std::make_unique<Overview>(
      backends,
      OverviewOptions{.execution_metrics_url = absl::GetFlag(FLAGS_execution_metrics_url),
                      .matchmaking_metrics_url = absl::GetFlag(FLAGS_matchmaking_metrics_url),
                      .interval = interval});
  auto party_feed = std::make_unique<PartyFeed>(backends);
  // A player's session ends with the player's token: matchmaking says whether it still works.
  auto credentials = std::make_unique<CredentialGuard>([&backends](const std::string& token) {
    return backends.GetPlayer(token, "players/me").status();
  });
  auto api = std::make_unique<WebApi>(WebApiParts{.backends = &backends,
                                                  .sessions = &sessions,
                                                  .audit = audit->get(),
                                                  .watch_hub = watch_hub.get(),
                                                  .overview = overview.get(),
                                                  .assets = assets->get(),
                                                  .party_feed = party_feed.get(),
                                                  .credentials = credentials.get(),
                                                  .operator_token = common->operator_token,
                                                  .secure_cookies =
                                                      absl::GetFlag(FLAGS_secure_cookies)});
  absl::StatusOr<std::unique_ptr<HttpServer>> server = HttpServer::Start(
      HttpServerOptions{.listen_address = common->listen_address,
                        .threads = http_threads,
                        .max_body_bytes = 64 * 1024,
                        .on_relayed = [&metrics](double seconds) { metrics.Relayed(seconds); },
                        .on_streams = [&metrics](int delta) { metrics.Streams(delta); },
                        .reuse_port = common->reuse_port},
      [raw = api.get()](HttpRequest request, std::shared_ptr<Exchange> exchange) {
        raw->Handle(std::move(request), std::move(exchange));
      });
  if (!server.ok()) return StartupFailed("cannot serve HTTP", server.status());
  overview->Start();
  spdlog::info("serving {}", Fields()
                                 .Add("address", common->listen_address)
                                 .Add("port", (*server)->port())
                                 .Add("metrics_port", served->port())
                                 .Add("execution", absl::GetFlag(FLAGS_execution_target))
                                 .Add("matchmaking", absl::GetFlag(FLAGS_matchmaking_target))
                                 .Add("ratings", absl::GetFlag(FLAGS_ratings_target)));

  const int signal_number = WaitForTerminationSignal();
  spdlog::info("stopping {}", Fields().Add("signal", signal_number));
  (*server)->Stop();  // event streams end, and cancel their gRPC streams
  api.reset();        // requests in hand finish
  watch_hub.reset();
  party_feed.reset();
  credentials.reset();
  overview.reset();
  spdlog::info("stopped");
  return EXIT_SUCCESS;
}

}  // namespace
}  // namespace boneyard::web

int main(int argc, char** argv) { return boneyard::web::Run(argc, argv); }
