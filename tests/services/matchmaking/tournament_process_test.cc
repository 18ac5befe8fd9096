// Tournaments with real processes: boneyard-matchmaking directing, boneyard-execution playing
// the matches (built-in bots) and delivering each result back through its outbox. A Swiss of
// Muggins runs to the end across two kills -9 of matchmaking — one with round 1's games stored
// while execution was out of reach, one in the middle of round 2 — and one of execution in
// round 3: every round paired once, every game created once on execution and its result counted
// once, the stored pairings the Dutch system's own for the stored results (re-paired from the
// exported TRF), and a watcher started after the restarts sees the rounds and the final
// standings. Then the same with two matchmaking processes directing at once (docs/scaling.md),
// execution delivering each result to either, one killed -9 mid-round 2 and restarted in round 3.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/bearer.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/trf.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "", int seconds = 30) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  context->set_wait_for_ready(true);
  AddBearerToken(*context, token);
  return context;
}

int64_t Count(PgPool& pool, const std::string& sql) {
  absl::StatusOr<int64_t> n =
      pool.Run([&](pqxx::work& tx) { return tx.exec1(sql)[0].as<int64_t>(); });
  EXPECT_TRUE(n.ok()) << n.status();
  return n.ok() ? *n : -1;
}

// Waits (a minute at most) until `sql` counts more than zero.
void WaitFor(PgPool& pool, const std::string& sql) {
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::Now() < deadline && Count(pool, sql) == 0) absl::SleepFor(absl::Milliseconds(20));
}

// Creates tournaments/swiss (Muggins, `rounds` rounds, `entrants` built-in bots) and starts it.
void StartSwiss(v1::TournamentService::Stub& stub, const std::string& operator_token, int entrants,
                int rounds) {
  v1::CreateTournamentRequest create;
  create.set_tournament_id("swiss");
  v1::Tournament& settings = *create.mutable_tournament();
  settings.set_display_name("Muggins Swiss");
  settings.set_game("muggins");
  settings.set_format(v1::Tournament::SWISS);
  settings.set_rounds(rounds);
  settings.add_tiebreaks("BH");
  settings.add_tiebreaks("SB");
  v1::Tournament tournament;
  ASSERT_TRUE(stub.CreateTournament(Context(operator_token).get(), create, &tournament).ok());
  for (int i = 0; i < entrants; ++i) {
    v1::RegisterPlayerRequest request;
    request.set_tournament("tournaments/swiss");
    request.mutable_bot()->set_kind(i % 2 == 0 ? "random" : "greedy");
    v1::Entrant entrant;
    grpc::Status status = stub.RegisterPlayer(Context(operator_token).get(), request, &entrant);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  v1::StartTournamentRequest start;
  start.set_name("tournaments/swiss");
  ASSERT_TRUE(stub.StartTournament(Context(operator_token).get(), start, &tournament).ok());
}

// Every update a watcher of tournaments/swiss sees until the event finishes.
void WatchToTheEnd(v1::TournamentService::Stub& stub, const std::string& log,
                   std::vector<v1::TournamentUpdate>& updates) {
  v1::WatchTournamentRequest watch;
  watch.set_tournament("tournaments/swiss");
  auto watch_context = Context("", 120);
  std::unique_ptr<grpc::ClientReader<v1::TournamentUpdate>> reader =
      stub.WatchTournament(watch_context.get(), watch);
  v1::TournamentUpdate update;
  while (reader->Read(&update)) updates.push_back(update);
  grpc::Status watched = reader->Finish();
  ASSERT_TRUE(watched.ok()) << watched.error_message() << "\n" << log;
  ASSERT_FALSE(updates.empty());
}

// The finished Swiss: `entrants` rows of standings worth a point a board (three games and a
// bye a round); a round each, three boards and a bye each, a game per board, each created once
// on `execution` (for the tournament) and each result in.
void ExpectEverythingOnce(const v1::TournamentUpdate& last, PgPool& pool,
                          testing::ServiceProcess& execution, int entrants, int rounds) {
  EXPECT_EQ(last.tournament().state(), v1::Tournament::FINISHED);
  EXPECT_EQ(last.tournament().current_round(), rounds);
  ASSERT_EQ(last.standings().rows_size(), entrants);
  double points = 0;
  for (const v1::StandingRow& row : last.standings().rows()) points += row.points();
  EXPECT_DOUBLE_EQ(points, rounds * 4.0);

  EXPECT_EQ(Count(pool, "SELECT count(*) FROM matchmaking.tournament_rounds"), rounds);
  EXPECT_EQ(Count(pool, "SELECT count(*) FROM matchmaking.tournament_pairings"), rounds * 4);
  EXPECT_EQ(Count(pool, "SELECT count(*) FROM matchmaking.tournament_games"), rounds * 3);
  EXPECT_EQ(Count(pool,
                  "SELECT count(*) FROM matchmaking.tournament_games WHERE result IS "
                  "NOT NULL AND match_name IS NOT NULL"),
            rounds * 3);
  auto execution_stub = v1::ExecutionService::NewStub(
      grpc::CreateChannel(execution.target(), grpc::InsecureChannelCredentials()));
  v1::ListMatchesRequest list;
  list.set_page_size(100);
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(
      execution_stub->ListMatches(Context(execution.operator_token()).get(), list, &matches).ok());
  EXPECT_EQ(matches.matches_size(), rounds * 3) << "a game created twice";
  std::set<std::string> names;
  for (const v1::Match& m : matches.matches()) {
    names.insert(m.name());
    EXPECT_EQ(m.queue(), "tournaments/swiss");
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(rounds * 3));
}

TEST(TournamentProcessTest, ASwissRunsToTheEndAcrossAKillWithNothingPairedOrCountedTwice) {
  constexpr int kEntrants = 7;
  constexpr int kRounds = 4;
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<int> matchmaking_port = testing::PickFreePort();
  ASSERT_TRUE(matchmaking_port.ok());
  char dir_template[] = "/tmp/boneyard-tournament.XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string results_token_file = absl::StrCat(dir_template, "/results_token");
  {
    std::ofstream out(results_token_file);
    out << "results-token-for-the-tournament-test";
  }
  // Execution first, told where matchmaking will listen; its results reach matchmaking once
  // it is up (the outbox retries).
  absl::StatusOr<testing::ServiceOnNewDatabase> execution = testing::StartOnNewDatabase(
      BONEYARD_EXECUTION_BINARY,
      {absl::StrCat("--matchmaking_target=127.0.0.1:", *matchmaking_port),
       "--results_token_file=" + results_token_file});
  ASSERT_TRUE(execution.ok()) << execution.status();
  absl::StatusOr<int> dead_port = testing::PickFreePort();
  ASSERT_TRUE(dead_port.ok());
  auto start_matchmaking = [&](const std::string& execution_target) {
    return testing::ServiceProcess::Start(
        BONEYARD_MATCHMAKING_BINARY,
        {"--database_url=" + (*db)->url(), "--log_level=info",
         "--execution_target=" + execution_target,
         "--execution_token_file=" + execution->service->operator_token_file(),
         "--results_token_file=" + results_token_file, "--pass_interval=100ms"},
        testing::ServiceProcess::kDefaultReadyTimeout, *matchmaking_port);
  };
  // First with execution out of reach: round 1 is paired and its games stored, not created.
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> matchmaking =
      start_matchmaking(absl::StrCat("127.0.0.1:", *dead_port));
  ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
  auto stub = v1::TournamentService::NewStub(
      grpc::CreateChannel((*matchmaking)->target(), grpc::InsecureChannelCredentials()));
  const std::string operator_token = (*matchmaking)->operator_token();

  ASSERT_NO_FATAL_FAILURE(StartSwiss(*stub, operator_token, kEntrants, kRounds));
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect((*db)->url(), 1);
  ASSERT_TRUE(pool.ok()) << pool.status();
  EXPECT_EQ(Count(**pool, "SELECT count(*) FROM matchmaking.tournament_games"), 3);
  absl::SleepFor(absl::Milliseconds(300));  // a few passes try execution and fail
  EXPECT_EQ(Count(**pool,
                  "SELECT count(*) FROM matchmaking.tournament_games WHERE "
                  "match_name IS NOT NULL"),
            0);
  ASSERT_TRUE((*matchmaking)->Kill(SIGKILL).ok());

  // Then with execution: the stored games are created (once), and the event goes on. Kill -9
  // again once round 2 is paired and some of its games are created: mid-round.
  matchmaking = start_matchmaking(execution->service->target());
  ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
  testing::ServiceProcess& mm = **matchmaking;
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 2 AND "
          "match_name IS NOT NULL");
  ASSERT_GT(Count(**pool, "SELECT count(*) FROM matchmaking.tournament_rounds"), 1) << mm.log();
  ASSERT_TRUE(mm.Kill(SIGKILL).ok());
  ASSERT_TRUE(mm.Restart().ok()) << mm.log();
  // And execution, killed -9 once round 3 has games being played: it resumes them from its
  // event log and its outbox still delivers every result, once.
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 3 AND "
          "match_name IS NOT NULL");
  ASSERT_TRUE(execution->service->Kill(SIGKILL).ok());
  ASSERT_TRUE(execution->service->Restart().ok()) << execution->service->log();

  // A watcher after the restart: updates until the event finishes.
  std::vector<v1::TournamentUpdate> updates;
  ASSERT_NO_FATAL_FAILURE(WatchToTheEnd(*stub, mm.log(), updates));
  EXPECT_EQ(updates.front().kind(), v1::TournamentUpdate::SNAPSHOT);
  EXPECT_EQ(updates.back().kind(), v1::TournamentUpdate::FINISHED);
  // Exactly once.
  ASSERT_NO_FATAL_FAILURE(
      ExpectEverythingOnce(updates.back(), **pool, *execution->service, kEntrants, kRounds));

  // Reproducible: each stored round is what the Dutch system pairs from the rounds before it.
  v1::ExportTrfRequest export_request;
  export_request.set_tournament("tournaments/swiss");
  v1::ExportTrfResponse trf;
  ASSERT_TRUE(stub->ExportTrf(Context().get(), export_request, &trf).ok());
  absl::StatusOr<tournament::EventRecord> record = tournament::ParseTrf(trf.trf());
  ASSERT_TRUE(record.ok()) << record.status();
  for (int round = 1; round <= kRounds; ++round) {
    tournament::EventRecord before = *record;
    for (tournament::Entrant& e : before.entrants) e.rounds.resize(round - 1);
    absl::StatusOr<std::vector<tournament::Board>> boards =
        tournament::PairDutchRound(before, round);
    ASSERT_TRUE(boards.ok()) << boards.status();
    for (const tournament::Board& b : *boards) {
      const tournament::RoundEntry& entry = record->ByTpn(b.white).rounds[round - 1];
      EXPECT_EQ(entry.opponent, b.black) << "round " << round << " TPN " << b.white;
      if (b.black != 0) {
        EXPECT_EQ(entry.colour, tournament::Colour::kWhite);
      }
    }
  }
  ASSERT_TRUE(mm.Stop().ok()) << mm.log();
  std::filesystem::remove_all(dir_template);
}

TEST(TournamentProcessTest, TwoMatchmakingProcessesRunASwissOnceAcrossAKill) {
  constexpr int kEntrants = 7;
  constexpr int kRounds = 4;
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<int> port_a = testing::PickFreePort();
  absl::StatusOr<int> port_b = testing::PickFreePort();
  ASSERT_TRUE(port_a.ok() && port_b.ok());
  char dir_template[] = "/tmp/boneyard-mm-replicas.XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  // The replicas share their tokens, as pods share a Secret.
  const std::string results_token_file = dir + "/results_token";
  const std::string operator_token_file = dir + "/operator_token";
  {
    std::ofstream(results_token_file) << "results-token-for-the-replicas-test";
    std::ofstream(operator_token_file) << "operator-token-for-the-replicas-test";
  }
  // Results go to whichever matchmaking answers first (gRPC's pick_first over the list).
  absl::StatusOr<testing::ServiceOnNewDatabase> execution = testing::StartOnNewDatabase(
      BONEYARD_EXECUTION_BINARY,
      {absl::StrCat("--matchmaking_target=ipv4:127.0.0.1:", *port_a, ",127.0.0.1:", *port_b),
       "--results_token_file=" + results_token_file});
  ASSERT_TRUE(execution.ok()) << execution.status();
  auto start_matchmaking = [&](int port) {
    return testing::ServiceProcess::Start(
        BONEYARD_MATCHMAKING_BINARY,
        {"--database_url=" + (*db)->url(), "--log_level=info",
         "--execution_target=" + execution->service->target(),
         "--execution_token_file=" + execution->service->operator_token_file(),
         "--results_token_file=" + results_token_file,
         "--operator_token_file=" + operator_token_file, "--pass_interval=50ms"},
        testing::ServiceProcess::kDefaultReadyTimeout, port);
  };
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> a = start_matchmaking(*port_a);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> b = start_matchmaking(*port_b);
  ASSERT_TRUE(b.ok()) << b.status();
  // Set up through b, watched through b: a is the one that goes.
  auto stub = v1::TournamentService::NewStub(
      grpc::CreateChannel((*b)->target(), grpc::InsecureChannelCredentials()));
  ASSERT_NO_FATAL_FAILURE(StartSwiss(*stub, (*b)->operator_token(), kEntrants, kRounds));
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect((*db)->url(), 1);
  ASSERT_TRUE(pool.ok()) << pool.status();

  // a goes in the middle of round 2 (some of its games created) and comes back in round 3.
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 2 AND match_name IS "
          "NOT NULL");
  ASSERT_TRUE((*a)->Kill(SIGKILL).ok());
  WaitFor(**pool,
          "SELECT count(*) FROM matchmaking.tournament_games WHERE round = 3 AND match_name IS "
          "NOT NULL");
  ASSERT_TRUE((*a)->Restart().ok()) << (*a)->log();

  // Exactly once, with two directors.
  std::vector<v1::TournamentUpdate> updates;
  ASSERT_NO_FATAL_FAILURE(WatchToTheEnd(*stub, (*b)->log(), updates));
  ASSERT_NO_FATAL_FAILURE(
      ExpectEverythingOnce(updates.back(), **pool, *execution->service, kEntrants, kRounds));
  ASSERT_TRUE((*a)->Stop().ok()) << (*a)->log();
  ASSERT_TRUE((*b)->Stop().ok()) << (*b)->log();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace boneyard::matchmaking
