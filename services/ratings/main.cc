// boneyard-ratings: ratings, their history and leaderboards (services/ratings/ratings_logic.h)
// behind the gRPC API of proto/boneyard/v1/ratings.proto. Flags → config → objects → serve →
// drain on SIGTERM/SIGINT.
//
// Exit codes: 0 after a graceful shutdown, 1 when start-up fails (the database, a port), 2 for
// bad flags (the message names the flag).
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "engine/core/registry.h"
#include "prometheus/registry.h"
#include "services/common/flags.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/shutdown.h"
#include "services/ratings/model/weng_lin.h"
#include "services/ratings/pg_rating_store.h"
#include "services/ratings/ratings_logic.h"
#include "services/ratings/ratings_metrics.h"
#include "services/ratings/ratings_service.h"
#include "services/ratings/result_batcher.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(std::string, results_token_file, "",
          "File holding the results token, which RecordResult needs (the execution service "
          "presents it); if empty, the environment variable BONEYARD_RESULTS_TOKEN.");
ABSL_FLAG(std::string, model, "plackett_luce",
          "The rating model of games rated for the first time: plackett_luce, "
          "thurstone_mosteller_full, thurstone_mosteller_part, bradley_terry_full or "
          "bradley_terry_part. A game keeps its model until RerateGame changes it.");
ABSL_FLAG(double, mu, 25.0, "The model's initial mean skill.");
ABSL_FLAG(double, sigma, 0.0, "The model's initial uncertainty; 0 means mu / 3.");
ABSL_FLAG(double, beta, 0.0, "The model's performance variability; 0 means sigma / 2.");
ABSL_FLAG(double, kappa, 0.0001, "The model's floor of a variance update.");
ABSL_FLAG(double, tau, 0.0, "The model's dynamics factor, added to sigma before each match.");
ABSL_FLAG(bool, limit_sigma, false, "With tau: a match never raises a player's sigma.");
ABSL_FLAG(double, provisional_sigma, boneyard::ratings::kDefaultProvisionalSigma,
          "A rating is provisional while its sigma is above this.");
ABSL_FLAG(int, batch_max, 512, "The most results one batch transaction applies.");

// absl::ParseCommandLine reports a malformed or unknown flag through this hook, then exits 1;
// the service's convention is 2 for bad flags. The message is on stderr already.
extern "C" void ABSL_INTERNAL_C_SYMBOL(AbslInternalReportFatalUsageError)(absl::string_view) {
  std::_Exit(2);
}

namespace boneyard::ratings {
namespace {

constexpr int kExitStartupFailed = 1;
constexpr int kExitBadFlags = 2;
constexpr int kMaxBatch = 100000;

struct RatingsConfig {
  RatingsOptions options;
  RatingModelConfig model;
  int batch_max = 512;
};

absl::StatusOr<RatingsConfig> RatingsConfigFromFlags() {
  RatingsConfig config;
  absl::StatusOr<std::string> token = ReadTokenFlag(
      "results_token_file", absl::GetFlag(FLAGS_results_token_file), kResultsTokenEnv);
  if (!token.ok()) return token.status();
  config.options.results_token = *std::move(token);

  absl::StatusOr<ModelKind> kind = ParseModelKind(absl::GetFlag(FLAGS_model));
  if (!kind.ok()) return absl::InvalidArgumentError(absl::StrCat("--model: ", kind.status().message()));
  config.model.kind = *kind;
  config.model.mu = absl::GetFlag(FLAGS_mu);
  const double sigma = absl::GetFlag(FLAGS_sigma);
  config.model.sigma = sigma != 0 ? sigma : config.model.mu / 3.0;
  const double beta = absl::GetFlag(FLAGS_beta);
  config.model.beta = beta != 0 ? beta : config.model.sigma / 2.0;
  config.model.kappa = absl::GetFlag(FLAGS_kappa);
  config.model.tau = absl::GetFlag(FLAGS_tau);
  config.model.limit_sigma = absl::GetFlag(FLAGS_limit_sigma);
  if (absl::Status s = ValidateConfig(config.model); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--mu/--sigma/--beta/--kappa/--tau: ", s.message()));
  }
  config.options.provisional_sigma = absl::GetFlag(FLAGS_provisional_sigma);
  if (!std::isfinite(config.options.provisional_sigma) || config.options.provisional_sigma < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--provisional_sigma: must be finite and not negative, not ",
        config.options.provisional_sigma));
  }
  config.batch_max = absl::GetFlag(FLAGS_batch_max);
  if (config.batch_max < 1 || config.batch_max > kMaxBatch) {
    return absl::InvalidArgumentError(
        absl::StrCat("--batch_max: must be in 1..", kMaxBatch, ", not ", config.batch_max));
  }
  return config;
}

int StartupFailed(absl::string_view what, const absl::Status& status) {
  LogStartupFailure("boneyard-ratings", what, status);
  return kExitStartupFailed;
}

int Run(int argc, char** argv) {
  BlockTerminationSignals();  // first: before anything starts a thread
  // As in boneyard-execution: Abseil's lock-order cycle detection costs CPU on every Mutex
  // acquisition; clang's -Wthread-safety build checks our locking.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  absl::SetProgramUsageMessage(
      "Keeps boneyard's ratings and leaderboards behind the RatingsService gRPC API.\n"
      "Usage: boneyard-ratings --database_url=postgresql://... --operator_token_file=FILE "
      "--results_token_file=FILE [flags]");
  absl::ParseCommandLine(argc, argv);

  absl::StatusOr<ServiceConfig> common = CommonConfigFromFlags();
  if (!common.ok()) {
    std::cerr << "boneyard-ratings: " << common.status().message() << "\n";
    return kExitBadFlags;
  }
  absl::StatusOr<RatingsConfig> config = RatingsConfigFromFlags();
  if (!config.ok()) {
    std::cerr << "boneyard-ratings: " << config.status().message() << "\n";
    return kExitBadFlags;
  }
  config->options.operator_token = common->operator_token;
  if (absl::Status s = InitLogging("ratings", common->log_level); !s.ok()) {
    std::cerr << "boneyard-ratings: --log_level: " << s.message() << "\n";
    return kExitBadFlags;
  }

  // Metrics: served when there is an address; registered anyway, so the code is the same.
  absl::StatusOr<ServiceMetrics> served = StartServiceMetrics(common->metrics_address);
  if (!served.ok()) return StartupFailed("cannot serve metrics", served.status());
  RpcMetrics rpc_metrics(*served->registry);
  RatingsMetrics metrics(*served->registry);

  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect(common->database_url, common->db_pool_size);
  if (!pool.ok()) return StartupFailed("cannot connect to the database", pool.status());
  absl::StatusOr<std::unique_ptr<PgRatingStore>> store =
      PgRatingStore::Open(**pool, "ratings", config->model, DefaultRegistry());
  if (!store.ok()) return StartupFailed("cannot open the ratings store", store.status());

  ResultBatcher batcher(**store, ResultBatcher::Options{
                                     .max_batch = config->batch_max,
                                     .on_commit = [&metrics](const BatchStats& stats) {
                                       metrics.Batch(stats);
                                     },
                                 });
  RatingsLogic logic(**store, batcher, DefaultRegistry(), config->options, &metrics);
  RatingsServiceImpl service(logic);
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start({
      .listen_address = common->listen_address,
      .services = {&service},
      .metrics = &rpc_metrics,
      .max_streams_per_connection = common->max_streams_per_connection,
      .reuse_port = common->reuse_port,
  });
  if (!server.ok()) {
    batcher.Stop();
    return StartupFailed("cannot start the gRPC server", server.status());
  }
  spdlog::info("serving {}", Fields()
                                 .Add("address", common->listen_address)
                                 .Add("port", (*server)->port())
                                 .Add("metrics_port", served->port())
                                 .Add("model", std::string(ModelKindName(config->model.kind))));

  const int signal_number = WaitForTerminationSignal();
  spdlog::info("stopping {}", Fields().Add("signal", signal_number));
  // Health says NOT_SERVING first, so balancers stop sending calls; the server lets calls in
  // flight finish (their results are committed by the batcher, which is still running); then
  // the batcher writes whatever is left and stops.
  (*server)->SetServing(false);
  (*server)->Shutdown(common->shutdown_grace);
  batcher.Stop();
  spdlog::info("stopped");
  return EXIT_SUCCESS;
}

}  // namespace
}  // namespace boneyard::ratings

int main(int argc, char** argv) { return boneyard::ratings::Run(argc, argv); }
