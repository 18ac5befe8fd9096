// boneyard-matchmaking: players, queues, parties and tickets (services/matchmaking/) behind the
// gRPC API of proto/boneyard/v1/matchmaking.proto. Flags → config → objects → serve → drain on
// SIGTERM/SIGINT. With --execution_target, a matchmaker thread runs a pass every --pass_interval
// and has execution create the matches it forms; without it tickets wait (a read-only replica,
// or a test of the API alone).
//
// Exit codes: 0 after a graceful shutdown, 1 when start-up fails (the database, a port), 2 for
// bad flags (the message names the flag).
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/time/time.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "services/common/flags.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pass_loop.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/shutdown.h"
#include "services/matchmaking/execution_creator.h"
#include "services/matchmaking/ladder_logic.h"
#include "services/matchmaking/ladder_service.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/pg_ladder_store.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/ratings_fetcher.h"
#include "services/matchmaking/tournament_director.h"
#include "services/matchmaking/tournament_logic.h"
#include "services/matchmaking/tournament_service.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(std::string, execution_target, "",
          "The execution service (host:port) that creates the matches formed; empty: no "
          "matchmaking passes run here.");
ABSL_FLAG(std::string, execution_token_file, "",
          "A file holding the token execution accepts for CreateMatch (its operator token); "
          "else $BONEYARD_EXECUTION_TOKEN holds it. Needed with --execution_target.");
ABSL_FLAG(std::string, ratings_target, "",
          "The ratings service (host:port) whose ratings matches are balanced with (cached; "
          "while it is down, the ratings read before, else initial ones); empty: every player "
          "is matched at the initial rating.");
ABSL_FLAG(absl::Duration, pass_interval, absl::Seconds(1),
          "How often the matchmaker runs a pass over every queue (10ms..1m).");
ABSL_FLAG(std::string, results_token_file, "",
          "A file holding the token execution presents with finished matches' results (its "
          "--results_token_file); else $BONEYARD_RESULTS_TOKEN; neither: no result is accepted "
          "and players' histories show none.");
ABSL_FLAG(absl::Duration, watch_feed_interval, absl::Milliseconds(250),
          "How often the one feed behind all WatchTournament streams reads the watched events' "
          "versions, and the one behind all WatchEvents streams the watched players' changes "
          "(10ms..10s; a ladder change made in this process is read at once).");
ABSL_FLAG(int, max_watchers_per_tournament, 10000,
          "Open WatchTournament streams on one tournament; past it a new one ends with "
          "RESOURCE_EXHAUSTED. 0: no cap.");
ABSL_FLAG(int, max_event_streams_per_player, 64,
          "Open WatchEvents streams of one player; past it a new one ends with "
          "RESOURCE_EXHAUSTED. 0: no cap.");
ABSL_FLAG(int, max_watchers_per_client, 4000,
          "Open streams of one client (its token's player, else its address) on each of "
          "WatchTournament and WatchEvents; past it a new one ends with RESOURCE_EXHAUSTED. "
          "0: no cap.");
ABSL_FLAG(bool, open_registration, false,
          "Anyone may create a HUMAN player account (CreatePlayer without a token); otherwise "
          "only the operator creates accounts.");

// absl::ParseCommandLine reports a malformed or unknown flag through this hook, then exits 1;
// the service's convention is 2 for bad flags. The message is on stderr already.
extern "C" void ABSL_INTERNAL_C_SYMBOL(AbslInternalReportFatalUsageError)(absl::string_view) {
  std::_Exit(2);
}

namespace boneyard::matchmaking {
namespace {

constexpr int kExitStartupFailed = 1;
constexpr int kExitBadFlags = 2;
constexpr char kExecutionTokenEnv[] = "BONEYARD_EXECUTION_TOKEN";
constexpr char kResultsTokenEnv[] = "BONEYARD_RESULTS_TOKEN";

// The matchmaker's flags: nullopt target when passes do not run here.
struct MatchmakerFlags {
  std::string execution_target;
  std::string execution_token;
  absl::Duration pass_interval;
  std::string results_token;  // empty: results are not accepted
};

// The watch streams' flags, checked.
struct WatchFlags {
  TournamentWatchOptions tournaments;
  LadderWatchOptions ladders;
};

absl::StatusOr<WatchFlags> WatchFlagsFromFlags() {
  const absl::Duration interval = absl::GetFlag(FLAGS_watch_feed_interval);
  if (interval < absl::Milliseconds(10) || interval > absl::Seconds(10)) {
    return absl::InvalidArgumentError("--watch_feed_interval: must be from 10ms to 10s");
  }
  const int per_tournament = absl::GetFlag(FLAGS_max_watchers_per_tournament);
  const int per_player = absl::GetFlag(FLAGS_max_event_streams_per_player);
  const int per_client = absl::GetFlag(FLAGS_max_watchers_per_client);
  if (per_tournament < 0) {
    return absl::InvalidArgumentError("--max_watchers_per_tournament: must not be negative");
  }
  if (per_player < 0) {
    return absl::InvalidArgumentError("--max_event_streams_per_player: must not be negative");
  }
  if (per_client < 0) {
    return absl::InvalidArgumentError("--max_watchers_per_client: must not be negative");
  }
  return WatchFlags{.tournaments = {.feed_interval = interval,
                                    .max_per_tournament = per_tournament,
                                    .max_per_client = per_client},
                    .ladders = {.feed_interval = interval,
                                .max_per_player = per_player,
                                .max_per_client = per_client}};
}

absl::StatusOr<MatchmakerFlags> MatchmakerFlagsFromFlags() {
  MatchmakerFlags flags{.execution_target = absl::GetFlag(FLAGS_execution_target),
                        .execution_token = "",
                        .pass_interval = absl::GetFlag(FLAGS_pass_interval),
                        .results_token = ""};
  if (flags.pass_interval < absl::Milliseconds(10) || flags.pass_interval > absl::Minutes(1)) {
    return absl::InvalidArgumentError("--pass_interval: must be from 10ms to 1m");
  }
  if (!absl::GetFlag(FLAGS_results_token_file).empty() || std::getenv(kResultsTokenEnv)) {
    absl::StatusOr<std::string> token = ReadTokenFlag(
        "results_token_file", absl::GetFlag(FLAGS_results_token_file), kResultsTokenEnv);
    if (!token.ok()) return token.status();
    flags.results_token = *std::move(token);
  }
  if (flags.execution_target.empty()) return flags;
  absl::StatusOr<std::string> token = ReadTokenFlag(
      "execution_token_file", absl::GetFlag(FLAGS_execution_token_file), kExecutionTokenEnv);
  if (!token.ok()) return token.status();
  flags.execution_token = *std::move(token);
  return flags;
}

int StartupFailed(absl::string_view what, const absl::Status& status) {
  LogStartupFailure("boneyard-matchmaking", what, status);
  return kExitStartupFailed;
}

int Run(int argc, char** argv) {
  BlockTerminationSignals();  // first: before anything starts a thread
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  absl::SetProgramUsageMessage(
      "Keeps boneyard's players, queues, parties and tickets behind the MatchmakingService gRPC "
      "API, forms matches from the tickets, runs tournaments (TournamentService) and ladders "
      "(LadderService).\n"
      "Usage: boneyard-matchmaking --database_url=postgresql://... --operator_token_file=FILE "
      "[flags]");
  absl::ParseCommandLine(argc, argv);

  absl::StatusOr<ServiceConfig> common = CommonConfigFromFlags();
  if (!common.ok()) {
    std::cerr << "boneyard-matchmaking: " << common.status().message() << "\n";
    return kExitBadFlags;
  }
  absl::StatusOr<MatchmakerFlags> matchmaker_flags = MatchmakerFlagsFromFlags();
  if (!matchmaker_flags.ok()) {
    std::cerr << "boneyard-matchmaking: " << matchmaker_flags.status().message() << "\n";
    return kExitBadFlags;
  }
  absl::StatusOr<WatchFlags> watch_flags = WatchFlagsFromFlags();
  if (!watch_flags.ok()) {
    std::cerr << "boneyard-matchmaking: " << watch_flags.status().message() << "\n";
    return kExitBadFlags;
  }
  if (absl::Status s = InitLogging("matchmaking", common->log_level); !s.ok()) {
    std::cerr << "boneyard-matchmaking: --log_level: " << s.message() << "\n";
    return kExitBadFlags;
  }
  absl::StatusOr<ServiceMetrics> served = StartServiceMetrics(common->metrics_address);
  if (!served.ok()) return StartupFailed("cannot serve metrics", served.status());
  RpcMetrics rpc_metrics(*served->registry);

  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect(common->database_url, common->db_pool_size);
  if (!pool.ok()) return StartupFailed("cannot connect to the database", pool.status());
  absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> store =
      PgMatchmakingStore::Open(**pool, "matchmaking");
  if (!store.ok()) return StartupFailed("cannot open the matchmaking store", store.status());

  MatchmakerMetrics matchmaker_metrics(*served->registry);  // outlives the matchmaker
  // Built before the logic, which wakes it for each new ticket; started once serving.
  std::unique_ptr<ExecutionCreator> creator;
  std::unique_ptr<RatingsFetcher> fetcher;
  std::unique_ptr<RatingCache> rating_cache;
  std::unique_ptr<Matchmaker> matchmaker;
  if (!matchmaker_flags->execution_target.empty()) {
    creator = std::make_unique<ExecutionCreator>(matchmaker_flags->execution_target,
                                                 matchmaker_flags->execution_token);
    const std::string ratings_target = absl::GetFlag(FLAGS_ratings_target);
    if (!ratings_target.empty()) {
      fetcher = std::make_unique<RatingsFetcher>(ratings_target);
      rating_cache = std::make_unique<RatingCache>(*fetcher);
    }
    matchmaker = std::make_unique<Matchmaker>(
        **store, *creator,
        MatchmakerOptions{.ratings = rating_cache.get(),
                          .interval = matchmaker_flags->pass_interval,
                          .metrics = &matchmaker_metrics});
  }
  // Tournaments share the store's pool and schema, and the matchmaker's way to execution.
  PgTournamentStore tournament_store((*store)->pool(), (*store)->quoted_schema());
  std::unique_ptr<TournamentDirector> director;
  if (creator != nullptr) {
    director = std::make_unique<TournamentDirector>(
        tournament_store, *creator, DirectorOptions{.interval = matchmaker_flags->pass_interval});
  }
  TournamentLogic tournaments(**store, tournament_store,
                              TournamentOptions{.operator_token = common->operator_token,
                                                .ratings = rating_cache.get(),
                                                .on_change = [raw = director.get()] {
                                                  if (raw != nullptr) raw->Wake();
                                                }});
  TournamentServiceImpl tournament_service(tournaments, watch_flags->tournaments);
  // Ladders share them too; their standings read ratings fresh, their bots' rules the cache.
  PgLadderStore ladder_store((*store)->pool(), (*store)->quoted_schema());
  LadderLogic ladders(**store, ladder_store,
                      LadderOptions{.operator_token = common->operator_token,
                                    .creator = creator.get(),
                                    .skills = rating_cache.get(),
                                    .ratings = fetcher.get()});
  LadderServiceImpl ladder_service(ladders, watch_flags->ladders);
  // The ladders' pools: house bots take the seats of those who waited long enough.
  std::unique_ptr<PassLoop> pools;
  if (creator != nullptr) {
    pools = std::make_unique<PassLoop>(matchmaker_flags->pass_interval, [&ladders](absl::Time now) {
      if (absl::Status s = ladders.FillPools(now); !s.ok()) {
        spdlog::warn("ladder pools pass failed {}", Fields().Add("error", s.message()));
      }
    });
  }
  MatchmakingLogic logic(**store, MatchmakingOptions{
                                      .operator_token = common->operator_token,
                                      .open_registration = absl::GetFlag(FLAGS_open_registration),
                                      .results_token = matchmaker_flags->results_token,
                                      .on_ticket = [raw = matchmaker.get()] {
                                        if (raw != nullptr) raw->Wake();
                                      },
                                      .elsewhere_results =
                                          [&tournaments, &ladders](
                                              const std::string& match_name,
                                              const std::string& result, absl::Time end_time) {
                                            auto before = tournaments.RecordGameResult(
                                                match_name, result, end_time);
                                            if (!absl::IsNotFound(before.status())) return before;
                                            return ladders.RecordGameResult(match_name, result,
                                                                            end_time);
                                          },
                                  });
  MatchmakingServiceImpl service(logic);
  absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start({
      .listen_address = common->listen_address,
      .services = {&service, &tournament_service, &ladder_service},
      .metrics = &rpc_metrics,
      .max_streams_per_connection = common->max_streams_per_connection,
      .reuse_port = common->reuse_port,
  });
  if (!server.ok()) return StartupFailed("cannot start the gRPC server", server.status());
  if (matchmaker != nullptr) matchmaker->Start();
  if (director != nullptr) director->Start();
  if (pools != nullptr) pools->Start();
  spdlog::info("serving {}", Fields()
                                 .Add("address", common->listen_address)
                                 .Add("port", (*server)->port())
                                 .Add("metrics_port", served->port())
                                 .Add("execution", matchmaker_flags->execution_target)
                                 .Add("ratings", absl::GetFlag(FLAGS_ratings_target)));

  const int signal_number = WaitForTerminationSignal();
  spdlog::info("stopping {}", Fields().Add("signal", signal_number));
  (*server)->SetServing(false);
  if (matchmaker != nullptr) matchmaker->Stop();  // the pass under way ends first
  if (director != nullptr) director->Stop();
  if (pools != nullptr) pools->Stop();
  service.Stop();
  tournament_service.Stop();
  ladder_service.Stop();
  (*server)->Shutdown(common->shutdown_grace);
  spdlog::info("stopped");
  return EXIT_SUCCESS;
}

}  // namespace
}  // namespace boneyard::matchmaking

int main(int argc, char** argv) { return boneyard::matchmaking::Run(argc, argv); }
