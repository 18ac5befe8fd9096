// boneyard-execution: hosts matches (services/execution/match_host.h) behind the gRPC API of
// proto/boneyard/v1/execution.proto. Flags → config → objects → serve → drain on SIGTERM/SIGINT.
//
// Exit codes: 0 after a graceful shutdown, 1 when start-up fails (the database, a port, a
// corrupt match log), 2 for bad flags (the message names the flag), 3 when another replica has
// fenced this one (docs/scaling.md).
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "prometheus/counter.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/common/flags.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/shutdown.h"
#include "services/execution/execution_service.h"
#include "services/execution/group_commit.h"
#include "services/execution/match_host.h"
#include "services/execution/match_store.h"
#include "services/execution/outbox.h"
#include "services/execution/replica_lease.h"
#include "services/execution/result_sinks.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(int, workers, 0, "Threads that run the matches' strands; 0 means one per core.");
ABSL_FLAG(int, bot_workers, 0, "Threads on which built-in bots think; 0 means one per core.");
ABSL_FLAG(absl::Duration, bot_think_budget, absl::Milliseconds(500),
          "A built-in bot's time for one move; over it, the game's default bot's move is played instead.");
ABSL_FLAG(absl::Duration, bot_delay, absl::ZeroDuration(),
          "A pause before each built-in bot move, so people can follow a match.");
ABSL_FLAG(int, commit_writers, 1,
          "Threads (each with a database connection) that commit the event log.");
ABSL_FLAG(int, commit_max_batch, 512, "The most events one group commit writes.");
ABSL_FLAG(absl::Duration, commit_interval, absl::Milliseconds(2),
          "The least time between the starts of two group commits: events arriving meanwhile "
          "share the next one (a full batch goes at once). 0 commits whenever a writer is free.");
ABSL_FLAG(int, play_queues, 0,
          "gRPC completion queues (each with a thread) serving every call (named for the Play "
          "streams, which carry nearly all of them); 0 means one per core.");
ABSL_FLAG(double, seat_flood_rate, 10,
          "Rejected actions, hellos and stream opens one seat may send a second (legal actions "
          "are never limited); past it the request is RESOURCE_EXHAUSTED. 0: no limit.");
ABSL_FLAG(int, seat_flood_burst, 30,
          "How many such requests a seat may send at once before --seat_flood_rate applies.");
ABSL_FLAG(int, max_watchers_per_match, 1000,
          "The most spectators (WatchMatch streams) one match takes at once; 0: no limit.");
ABSL_FLAG(std::string, ratings_target, "",
          "The ratings service (host:port) that finished matches' results are delivered to, "
          "retried until it acknowledges them; empty: results wait in the outbox.");
ABSL_FLAG(std::string, matchmaking_target, "",
          "The matchmaking service (host:port) that the results of the matches it formed are "
          "delivered to, retried until it acknowledges them; empty: they wait in the outbox.");
ABSL_FLAG(std::string, results_token_file, "",
          "With --ratings_target or --matchmaking_target: a file holding the token those "
          "services accept results with (their --results_token_file); else "
          "$BONEYARD_RESULTS_TOKEN holds the token.");

ABSL_FLAG(absl::Duration, lease, absl::Seconds(3),
          "How long this replica's lease lasts unrenewed (renewed every third of it): how soon "
          "another replica takes its matches over when it stops without handing them over "
          "(docs/scaling.md).");
ABSL_FLAG(absl::Duration, adopt_interval, absl::Milliseconds(500),
          "How often to look for matches whose replica's lease has lapsed, to take them over.");
ABSL_FLAG(std::string, advertise_address, "",
          "host:port where clients reach this replica (told to clients of matches it plays); "
          "empty: the host of --replica_listen, else of --listen (this machine's name for a "
          "wildcard), and the port it got there.");
ABSL_FLAG(bool, place_matches, true,
          "Send a new match to the replica with the fewest live matches when this one plays "
          "more by a margin (docs/scaling.md); false: create every match where it is asked for.");
ABSL_FLAG(std::string, replica_listen, "",
          "A second host:port this replica alone listens on, when replicas share --listen "
          "(--reuse_port): it is the address advertised to clients of its matches unless "
          "--advertise_address says otherwise. Empty: none.");
ABSL_FLAG(std::string, replica_name, "",
          "This replica's name for operators (a pod name); empty: the host name and process id.");

// absl::ParseCommandLine reports a malformed or unknown flag through this hook, then exits 1;
// the service's convention is 2 for bad flags. The message is on stderr already.
extern "C" void ABSL_INTERNAL_C_SYMBOL(AbslInternalReportFatalUsageError)(absl::string_view) {
  std::_Exit(2);
}

namespace boneyard::execution {
namespace {

constexpr int kExitStartupFailed = 1;
constexpr int kExitBadFlags = 2;
// Another replica found this one's lease lapsed and may be playing its matches now: the process
// stops at once, serving nothing more (a supervisor starts a new replica, under a new epoch).
constexpr int kExitFenced = 3;
constexpr absl::Duration kMinLease = absl::Milliseconds(300);
// Every replica's dispatchers deliver from one outbox: an item one takes is claimed for this
// long, longer than a delivery's deadline; a replica that dies holding it delays it by as much.
constexpr absl::Duration kOutboxClaim = absl::Seconds(30);
constexpr absl::Duration kMaxLease = absl::Minutes(10);

// The largest thread counts the flags accept.
constexpr int kMaxThreads = 1024;
constexpr int kMaxCommitBatch = 100000;
// Every acknowledged action waits for a commit, so the interval bounds its share of latency.
constexpr absl::Duration kMaxCommitInterval = absl::Seconds(1);
constexpr int kMaxPlayQueues = 64;
constexpr double kMaxFloodRate = 1e6;
constexpr int kMaxFloodBurst = 1'000'000;
constexpr int kMaxWatchers = 1'000'000;

struct ExecutionConfig {
  HostOptions host;
  int commit_writers = 1;
  int commit_max_batch = 512;
  absl::Duration commit_interval;
  int play_queues = 0;
  // Empty: no delivery (results wait in the outbox).
  std::string ratings_target;
  std::string matchmaking_target;
  std::string results_token;
  ReplicaLease::Options lease;
  std::string advertise_address;
  std::string replica_listen;
  std::string replica_name;
  bool place_matches = true;
};

absl::Status CheckRange(absl::string_view flag, int value, int min, int max) {
  if (value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": must be in ", min, "..", max, ", not ", value));
  }
  return absl::OkStatus();
}

absl::StatusOr<ExecutionConfig> ExecutionConfigFromFlags() {
  ExecutionConfig config;
  config.host.workers = absl::GetFlag(FLAGS_workers);
  config.host.bot_workers = absl::GetFlag(FLAGS_bot_workers);
  config.host.bot_think_budget = absl::GetFlag(FLAGS_bot_think_budget);
  config.host.bot_delay = absl::GetFlag(FLAGS_bot_delay);
  config.commit_writers = absl::GetFlag(FLAGS_commit_writers);
  config.commit_max_batch = absl::GetFlag(FLAGS_commit_max_batch);
  config.commit_interval = absl::GetFlag(FLAGS_commit_interval);
  config.play_queues = absl::GetFlag(FLAGS_play_queues);
  config.host.seat_flood = {.per_second = absl::GetFlag(FLAGS_seat_flood_rate),
                            .burst = static_cast<double>(absl::GetFlag(FLAGS_seat_flood_burst))};
  config.host.max_watchers_per_match = absl::GetFlag(FLAGS_max_watchers_per_match);

  if (absl::Status s = CheckRange("workers", config.host.workers, 0, kMaxThreads); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckRange("bot_workers", config.host.bot_workers, 0, kMaxThreads);
      !s.ok()) {
    return s;
  }
  if (config.host.bot_think_budget <= absl::ZeroDuration() ||
      config.host.bot_think_budget == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bot_think_budget: must be positive and finite, not ",
                     absl::FormatDuration(config.host.bot_think_budget)));
  }
  if (config.host.bot_delay < absl::ZeroDuration() ||
      config.host.bot_delay == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bot_delay: must be zero or positive and finite, not ",
                     absl::FormatDuration(config.host.bot_delay)));
  }
  if (absl::Status s = CheckRange("commit_writers", config.commit_writers, 1, kMaxThreads);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckRange("commit_max_batch", config.commit_max_batch, 1, kMaxCommitBatch);
      !s.ok()) {
    return s;
  }
  if (config.commit_interval < absl::ZeroDuration() ||
      config.commit_interval > kMaxCommitInterval) {
    return absl::InvalidArgumentError(
        absl::StrCat("--commit_interval: must be in 0..", absl::FormatDuration(kMaxCommitInterval),
                     ", not ", absl::FormatDuration(config.commit_interval)));
  }
  if (absl::Status s = CheckRange("play_queues", config.play_queues, 0, kMaxPlayQueues); !s.ok()) {
    return s;
  }
  if (!(config.host.seat_flood.per_second >= 0 &&
        config.host.seat_flood.per_second <= kMaxFloodRate)) {
    return absl::InvalidArgumentError(absl::StrCat("--seat_flood_rate: must be in 0..",
                                                   kMaxFloodRate, ", not ",
                                                   config.host.seat_flood.per_second));
  }
  if (absl::Status s = CheckRange("seat_flood_burst", absl::GetFlag(FLAGS_seat_flood_burst), 1,
                                  kMaxFloodBurst);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckRange("max_watchers_per_match", config.host.max_watchers_per_match, 0,
                                  kMaxWatchers);
      !s.ok()) {
    return s;
  }
  config.lease.lease = absl::GetFlag(FLAGS_lease);
  config.lease.adopt_interval = absl::GetFlag(FLAGS_adopt_interval);
  if (config.lease.lease < kMinLease || config.lease.lease > kMaxLease) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--lease: must be in ", absl::FormatDuration(kMinLease), "..",
        absl::FormatDuration(kMaxLease), ", not ", absl::FormatDuration(config.lease.lease)));
  }
  if (config.lease.adopt_interval < absl::Milliseconds(10) ||
      config.lease.adopt_interval > kMaxLease) {
    return absl::InvalidArgumentError(
        absl::StrCat("--adopt_interval: must be in 10ms..", absl::FormatDuration(kMaxLease),
                     ", not ", absl::FormatDuration(config.lease.adopt_interval)));
  }
  config.advertise_address = absl::GetFlag(FLAGS_advertise_address);
  config.replica_listen = absl::GetFlag(FLAGS_replica_listen);
  config.replica_name = absl::GetFlag(FLAGS_replica_name);
  config.place_matches = absl::GetFlag(FLAGS_place_matches);
  if (config.replica_name.empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    config.replica_name = absl::StrCat(host, "-", getpid());
  }
  config.ratings_target = absl::GetFlag(FLAGS_ratings_target);
  config.matchmaking_target = absl::GetFlag(FLAGS_matchmaking_target);
  if (!config.ratings_target.empty() || !config.matchmaking_target.empty()) {
    absl::StatusOr<std::string> token = ReadTokenFlag(
        "results_token_file", absl::GetFlag(FLAGS_results_token_file), kResultsTokenEnv);
    if (!token.ok()) return token.status();
    config.results_token = *std::move(token);
  }
  return config;
}

// Where clients reach this replica: --advertise_address, else the host of the address it
// listens on (--replica_listen, else --listen) with the port the server got there (this
// machine's name for a wildcard host).
std::string AdvertisedAddress(const std::string& flag, const std::string& listen, int port) {
  if (!flag.empty()) return flag;
  std::string host(listen.substr(0, listen.rfind(':')));
  if (host.empty() || host == "0.0.0.0" || host == "[::]" || host == "::") {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    host = name;
  }
  return absl::StrCat(host, ":", port);
}

// Logs a start-up failure and gives the exit code. The log is on stderr; when the log level
// hides errors, the message is written there directly.
int StartupFailed(absl::string_view what, const absl::Status& status) {
  LogStartupFailure("boneyard-execution", what, status);
  return kExitStartupFailed;
}

// The group committer's metrics.
class CommitMetrics {
 public:
  explicit CommitMetrics(prometheus::Registry& registry)
      : seconds_(prometheus::BuildHistogram()
                     .Name("boneyard_commit_seconds")
                     .Help("Duration of one group commit's transaction, by outcome.")
                     .Register(registry)),
        events_(prometheus::BuildHistogram()
                    .Name("boneyard_commit_batch_events")
                    .Help("Events written by one group commit.")
                    .Register(registry)
                    .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128,
                                                                     256, 512, 1024})),
        commits_(prometheus::BuildCounter()
                     .Name("boneyard_commits_total")
                     .Help("Group commits, by outcome.")
                     .Register(registry)),
        ok_seconds_(seconds_.Add({{"result", "ok"}}, LatencyBuckets())),
        failed_seconds_(seconds_.Add({{"result", "error"}}, LatencyBuckets())),
        ok_(commits_.Add({{"result", "ok"}})),
        failed_(commits_.Add({{"result", "error"}})) {}

  void Observe(const CommitStats& stats) {
    const double seconds = absl::ToDoubleSeconds(stats.latency);
    if (stats.ok) {
      ok_seconds_.Observe(seconds);
      events_.Observe(stats.events);
      ok_.Increment();
    } else {
      failed_seconds_.Observe(seconds);
      failed_.Increment();
    }
  }

 private:
  static prometheus::Histogram::BucketBoundaries LatencyBuckets() {
    return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  }

  prometheus::Family<prometheus::Histogram>& seconds_;
  prometheus::Histogram& events_;
  prometheus::Family<prometheus::Counter>& commits_;
  prometheus::Histogram& ok_seconds_;
  prometheus::Histogram& failed_seconds_;
  prometheus::Counter& ok_;
  prometheus::Counter& failed_;
};

int Run(int argc, char** argv) {
  BlockTerminationSignals();  // first: before anything starts a thread
  // Debian's Abseil checks every Mutex acquisition for lock-order cycles, which cost several
  // per cent of the service's CPU in profiles; clang's -Wthread-safety build checks our locking.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  absl::SetProgramUsageMessage(
      "Hosts boneyard matches behind the ExecutionService gRPC API.\n"
      "Usage: boneyard-execution --database_url=postgresql://... "
      "--operator_token_file=FILE [flags]");
  absl::ParseCommandLine(argc, argv);

  absl::StatusOr<ServiceConfig> common = CommonConfigFromFlags();
  if (!common.ok()) {
    std::cerr << "boneyard-execution: " << common.status().message() << "\n";
    return kExitBadFlags;
  }
  absl::StatusOr<ExecutionConfig> config = ExecutionConfigFromFlags();
  if (!config.ok()) {
    std::cerr << "boneyard-execution: " << config.status().message() << "\n";
    return kExitBadFlags;
  }
  if (absl::Status s = InitLogging("execution", common->log_level); !s.ok()) {
    std::cerr << "boneyard-execution: --log_level: " << s.message() << "\n";
    return kExitBadFlags;
  }

  // Metrics: served when there is an address; registered anyway, so the code is the same.
  absl::StatusOr<ServiceMetrics> metrics = StartServiceMetrics(common->metrics_address);
  if (!metrics.ok()) return StartupFailed("cannot serve metrics", metrics.status());
  const std::shared_ptr<prometheus::Registry> registry = metrics->registry;
  RpcMetrics rpc_metrics(*registry);
  CommitMetrics commit_metrics(*registry);

  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect(common->database_url, common->db_pool_size);
  if (!pool.ok()) return StartupFailed("cannot connect to the database", pool.status());
  absl::StatusOr<std::unique_ptr<MatchStore>> store = OpenPgMatchStore(**pool);
  if (!store.ok()) return StartupFailed("cannot open the match store", store.status());
  // A replica from the first: it owns what it creates and adopts, and its writes are fenced.
  // Its address is set again once the port is known.
  absl::StatusOr<int64_t> epoch = (*store)->RegisterReplica(
      {.name = config->replica_name,
       .address = config->advertise_address.empty() ? common->listen_address
                                                     : config->advertise_address},
      config->lease.lease);
  if (!epoch.ok()) return StartupFailed("cannot register the replica", epoch.status());

  GroupCommitter committer(
      **store, GroupCommitter::Options{
                   .writers = config->commit_writers,
                   .max_batch = config->commit_max_batch,
                   .min_interval = config->commit_interval,
                   .on_commit = [&commit_metrics](const CommitStats& stats) {
                     commit_metrics.Observe(stats);
                   },
               });

  // Finished matches' results go from the outbox to each receiver by a dispatcher of its own,
  // woken by each match that finishes and polling anyway (a restart, a receiver's outage).
  prometheus::Family<prometheus::Counter>& parked =
      prometheus::BuildCounter()
          .Name("boneyard_outbox_parked_total")
          .Help("Results a receiver refused for good: parked in the outbox with their error for "
                "an operator, not retried")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& pending =
      prometheus::BuildGauge()
          .Name("boneyard_outbox_pending")
          .Help("Results waiting for delivery to a receiver after the last delivery pass (due "
                "or backing off; parked ones not): the delivery backlog")
          .Register(*registry);
  std::vector<std::unique_ptr<ResultSink>> sinks;
  std::vector<std::unique_ptr<OutboxDispatcher>> dispatchers;
  auto deliver_to = [&](const char* receiver, std::unique_ptr<ResultSink> sink) {
    prometheus::Counter& counter = parked.Add({{"receiver", receiver}});
    prometheus::Gauge& backlog = pending.Add({{"receiver", receiver}});
    dispatchers.push_back(std::make_unique<OutboxDispatcher>(
        **store, *sink,
        OutboxDispatcher::Options{
            .receiver = receiver,
            .claim_for = kOutboxClaim,
            .on_parked = [&counter] { counter.Increment(); },
            .on_backlog = [&backlog](int64_t n) { backlog.Set(static_cast<double>(n)); }}));
    sinks.push_back(std::move(sink));
  };
  if (!config->ratings_target.empty()) {
    deliver_to(kRatingsReceiver,
               std::make_unique<RatingsSink>(
                   grpc::CreateChannel(config->ratings_target, grpc::InsecureChannelCredentials()),
                   config->results_token));
  }
  if (!config->matchmaking_target.empty()) {
    deliver_to(kMatchmakingReceiver,
               std::make_unique<MatchmakingSink>(
                   grpc::CreateChannel(config->matchmaking_target,
                                       grpc::InsecureChannelCredentials()),
                   config->results_token));
  }

  HostOptions host_options = config->host;
  host_options.operator_token = common->operator_token;
  host_options.metrics = registry.get();
  if (!dispatchers.empty()) {
    host_options.on_finished = [&dispatchers] {
      for (const std::unique_ptr<OutboxDispatcher>& dispatcher : dispatchers) dispatcher->Wake();
    };
  }
  host_options.recover_all_on_start = false;  // the matches this replica adopts, below
  absl::StatusOr<std::unique_ptr<MatchHost>> host =
      MatchHost::Start(**store, committer, std::move(host_options));
  if (!host.ok()) {
    committer.Stop();
    return StartupFailed("cannot start the match host", host.status());
  }
  ReplicaLease lease(
      **store, config->lease,
      [&host](std::vector<ActiveMatch> matches) {
        return (*host)->AdoptMatches(std::move(matches));
      },
      [](const absl::Status& status) {
        spdlog::critical("fenced: another replica may be playing this one's matches; stopping {}",
                         Fields().Add("error", status.ToString()));
        std::_Exit(kExitFenced);
      });
  // Matches nobody plays (a previous run's, given up or lapsed) are live before serving.
  absl::StatusOr<int> adopted = lease.AdoptAll();
  if (!adopted.ok()) {
    (*host)->Shutdown();
    committer.Stop();
    return StartupFailed("cannot adopt the matches of stopped replicas", adopted.status());
  }

  // New matches go to the least loaded replica; every renewal shares the loads.
  Placement placement(*epoch);
  lease.ShareLoad(
      [&host] { return static_cast<int64_t>((*host)->live_matches()); },
      [&placement](std::vector<ReplicaLoad> loads) { placement.Update(std::move(loads)); });
  ExecutionServiceImpl service(**host, config->play_queues,
                               config->place_matches ? &placement : nullptr);
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start({
      .listen_address = common->listen_address,
      .services = {&service},
      .metrics = &rpc_metrics,
      .max_streams_per_connection = common->max_streams_per_connection,
      .reuse_port = common->reuse_port,
      .own_address = config->replica_listen,
  });
  if (!server.ok()) {
    (*host)->Shutdown();
    committer.Stop();
    return StartupFailed("cannot start the gRPC server", server.status());
  }
  // A replica sharing its port is reached on its own address.
  const std::string advertised =
      config->replica_listen.empty()
          ? AdvertisedAddress(config->advertise_address, common->listen_address,
                              (*server)->port())
          : AdvertisedAddress(config->advertise_address, config->replica_listen,
                              (*server)->own_port());
  if (absl::Status s = (*store)->SetReplicaAddress(advertised); !s.ok()) {
    spdlog::warn("cannot record the replica's address {}", Fields().Add("error", s.ToString()));
  }
  lease.Start();
  for (const std::unique_ptr<OutboxDispatcher>& dispatcher : dispatchers) dispatcher->Start();
  spdlog::info("serving {}", Fields()
                                 .Add("address", common->listen_address)
                                 .Add("advertised", advertised)
                                 .Add("replica_epoch", *epoch)
                                 .Add("port", (*server)->port())
                                 .Add("metrics_port", metrics->port())
                                 .Add("live_matches", (*host)->live_matches())
                                 .Add("ratings", config->ratings_target.empty()
                                                     ? std::string("none (results wait)")
                                                     : config->ratings_target)
                                 .Add("matchmaking", config->matchmaking_target.empty()
                                                         ? std::string("none (results wait)")
                                                         : config->matchmaking_target));

  const int signal_number = WaitForTerminationSignal();
  spdlog::info("stopping {}", Fields().Add("signal", signal_number));
  // Health says NOT_SERVING first, so balancers stop sending calls; the host then closes every
  // stream (UNAVAILABLE: reconnect) and commits what is in flight. The matches are then handed
  // to the other replicas, the least loaded first, fencing this one (docs/scaling.md): clients
  // reconnecting find them there at once instead of after the lease. The server lets unary
  // calls finish; the committer writes the last batches.
  (*server)->SetServing(false);
  lease.Stop();
  (*host)->Shutdown();
  absl::StatusOr<int> handed = (*store)->HandOver();
  if (!handed.ok()) {
    spdlog::warn("cannot hand the matches over {}",
                 Fields().Add("error", handed.status().ToString()));
    // Given up to whichever replica looks next (or this service's next start), without waiting
    // for the lease to lapse.
    if (absl::Status s = (*store)->ReleaseLease(); !s.ok()) {
      spdlog::warn("cannot give up the lease {}", Fields().Add("error", s.ToString()));
    }
  } else {
    spdlog::info("handed over {}", Fields().Add("matches", *handed));
  }
  (*server)->Shutdown(common->shutdown_grace);
  committer.Stop();
  // Results not yet delivered stay in the outbox for the next start.
  for (const std::unique_ptr<OutboxDispatcher>& dispatcher : dispatchers) dispatcher->Stop();
  spdlog::info("stopped");
  return EXIT_SUCCESS;
}

}  // namespace
}  // namespace boneyard::execution

int main(int argc, char** argv) { return boneyard::execution::Run(argc, argv); }
