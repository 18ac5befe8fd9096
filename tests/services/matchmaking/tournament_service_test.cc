// The TournamentService's RPCs on loopback over the real store (the test PostgreSQL), without a
// director (tournament_process_test.cc runs events to the end with real processes): who may do
// what, registration, the start, overrides, the TRF export, and the hostile-input suite — every
// bad request refused with a status naming the field, and the event exactly as before.
#include "services/matchmaking/tournament_service.h"

#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "services/common/engine_proto.h"
#include "services/matchmaking/execution_creator.h"
#include "services/matchmaking/tournament/arena.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/trf.h"
#include "services/matchmaking/tournament_director.h"
#include "services/matchmaking/tournament_feed.h"
#include "services/matchmaking/tournament_logic.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

class TournamentServiceTest : public MatchmakingTest {
 protected:
  void SetUp() override {
    MatchmakingTest::SetUp();
    tournament_store_ =
        std::make_unique<PgTournamentStore>(store_->pool(), store_->quoted_schema());
    tournament_logic_ = std::make_unique<TournamentLogic>(
        *store_, *tournament_store_, TournamentOptions{.operator_token = kOperatorToken});
    ASSERT_NO_FATAL_FAILURE(Serve(TournamentWatchOptions()));
  }
  // (Re)starts the service and its server with these watch settings.
  void Serve(const TournamentWatchOptions& watch) {
    if (tournament_server_ != nullptr) {
      tournament_service_->Stop();
      tournament_server_->Shutdown(absl::Seconds(5));
      tournament_server_.reset();
    }
    tournament_service_ = std::make_unique<TournamentServiceImpl>(*tournament_logic_, watch);
    absl::StatusOr<std::unique_ptr<GrpcServer>> server = GrpcServer::Start(
        {.listen_address = "127.0.0.1:0", .services = {tournament_service_.get()}});
    ASSERT_TRUE(server.ok()) << server.status();
    tournament_server_ = *std::move(server);
    t_ = v1::TournamentService::NewStub(Channel(0));
  }
  // A channel of its own (`n` apart), so that many streams are not all on one connection.
  std::shared_ptr<grpc::Channel> Channel(int n) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt("boneyard.test_channel", n);
    return grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", tournament_server_->port()),
                                     grpc::InsecureChannelCredentials(), args);
  }
  // An open WatchTournament stream.
  struct Watcher {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReader<v1::TournamentUpdate>> reader;
  };
  Watcher Watch(v1::TournamentService::Stub& stub, const std::string& tournament,
                std::optional<std::string> token = std::nullopt) {
    Watcher w;
    w.context = Context(token);
    v1::WatchTournamentRequest request;
    request.set_tournament(tournament);
    w.reader = stub.WatchTournament(w.context.get(), request);
    return w;
  }
  void TearDown() override {
    tournament_service_->Stop();
    tournament_server_->Shutdown(absl::Seconds(5));
    MatchmakingTest::TearDown();
  }

  grpc::Status Create(const v1::Tournament& t, v1::Tournament* out, const std::string& id = "cup",
                      std::optional<std::string> token = kOperatorToken) {
    v1::CreateTournamentRequest request;
    request.set_tournament_id(id);
    *request.mutable_tournament() = t;
    return t_->CreateTournament(Context(token).get(), request, out);
  }
  grpc::Status Register(std::optional<std::string> token, const std::string& player,
                        v1::Entrant* out, const std::string& tournament = "tournaments/cup") {
    v1::RegisterPlayerRequest request;
    request.set_tournament(tournament);
    request.set_player_id(player);
    return t_->RegisterPlayer(Context(token).get(), request, out);
  }
  grpc::Status Start(v1::Tournament* out, std::optional<std::string> token = kOperatorToken) {
    v1::StartTournamentRequest request;
    request.set_name("tournaments/cup");
    return t_->StartTournament(Context(token).get(), request, out);
  }
  // Every stored row of the event, as text: what a refused request must leave alone.
  std::string EventSnapshot() {
    absl::StatusOr<std::string> rows = pool_->Run([&](pqxx::work& tx) {
      std::string out;
      for (const char* table : {"tournaments", "tournament_entrants", "tournament_rounds",
                                "tournament_pairings", "tournament_games"}) {
        for (const pqxx::row& row : tx.exec(absl::StrCat("SELECT * FROM ", tx.quote_name(schema_),
                                                         ".", table, " ORDER BY 1, 2"))) {
          for (const pqxx::field& field : row) absl::StrAppend(&out, field.c_str(), "|");
          out += "\n";
        }
      }
      return out;
    });
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : "";
  }

  // Where execution's outbox delivers results: RecordMatchResult, into the tournament.
  std::unique_ptr<MatchmakingLogic> ResultsPath() {
    return std::make_unique<MatchmakingLogic>(
        *store_, MatchmakingOptions{.operator_token = kOperatorToken,
                                    .results_token = kResultsToken,
                                    .elsewhere_results = [this](const std::string& match,
                                                                 const std::string& result,
                                                                 absl::Time end) {
                                      return tournament_logic_->RecordGameResult(match, result,
                                                                                 end);
                                    }});
  }

  // The event's rounds, first first.
  v1::ListRoundsResponse Rounds(const std::string& tournament) {
    v1::ListRoundsRequest request;
    request.set_tournament(tournament);
    v1::ListRoundsResponse response;
    EXPECT_TRUE(t_->ListRounds(Context().get(), request, &response).ok());
    return response;
  }
  // Games played for real: execution on a database of its own, a director creating the events'
  // games there, the results path execution's outbox calls, and the matches delivered so far.
  struct PlayedGames {
    testing::ServiceOnNewDatabase execution;
    std::unique_ptr<ExecutionCreator> creator;
    std::unique_ptr<TournamentDirector> director;
    std::unique_ptr<MatchmakingLogic> results;
    std::unique_ptr<v1::ExecutionService::Stub> stub;
    std::set<std::string> delivered;
    const std::string& token() const { return execution.service->operator_token(); }
    std::string log() const { return execution.service->log(); }
  };
  // Null (the failure reported) when execution does not start.
  std::unique_ptr<PlayedGames> PlayGames() {
    absl::StatusOr<testing::ServiceOnNewDatabase> execution =
        testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
    if (!execution.ok()) {
      ADD_FAILURE() << execution.status();
      return nullptr;
    }
    auto games = std::make_unique<PlayedGames>();
    games->execution = *std::move(execution);
    const std::string target = games->execution.service->target();
    games->creator = std::make_unique<ExecutionCreator>(target, games->token());
    games->director = std::make_unique<TournamentDirector>(*tournament_store_, *games->creator);
    games->results = ResultsPath();
    games->stub = v1::ExecutionService::NewStub(
        grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
    return games;
  }
  // Delivers every finished game of the event not delivered yet, as execution's outbox would.
  void DeliverFinished(const std::string& tournament, PlayedGames& games) {
    const v1::ListRoundsResponse listed = Rounds(tournament);
    for (const v1::Round& round : listed.rounds()) {
      for (const v1::Pairing& p : round.pairings()) {
        for (const v1::PairingGame& g : p.games()) {
          if (g.match().empty() || games.delivered.count(g.match())) continue;
          v1::GetMatchRequest get_match;
          get_match.set_name(g.match());
          v1::RecordMatchResultRequest result;
          ASSERT_TRUE(
              games.stub->GetMatch(Context(games.token()).get(), get_match, result.mutable_match())
                  .ok());
          if (result.match().state() != v1::Match::FINISHED) continue;
          absl::StatusOr<v1::RecordMatchResultResponse> recorded =
              games.results->RecordMatchResult(kResultsToken, result);
          ASSERT_TRUE(recorded.ok()) << recorded.status();
          games.delivered.insert(g.match());
        }
      }
    }
  }

  static v1::Tournament Swiss() {
    v1::Tournament t;
    t.set_display_name("Thursday Swiss");
    t.set_game("muggins");
    t.set_format(v1::Tournament::SWISS);
    t.set_rounds(3);
    t.add_tiebreaks("BH");
    return t;
  }

  std::unique_ptr<PgTournamentStore> tournament_store_;
  std::unique_ptr<TournamentLogic> tournament_logic_;
  std::unique_ptr<TournamentServiceImpl> tournament_service_;
  std::unique_ptr<GrpcServer> tournament_server_;
  std::unique_ptr<v1::TournamentService::Stub> t_;
};

TEST_F(TournamentServiceTest, OnlyTheOperatorCreatesAndBadSettingsAreRefusedByField) {
  const std::vector<std::string> tokens = Players(1);
  v1::Tournament out;
  EXPECT_EQ(Create(Swiss(), &out, "cup", std::nullopt).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create(Swiss(), &out, "cup", "not-a-token").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create(Swiss(), &out, "cup", tokens[0]).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::Tournament bad = Swiss();
  bad.set_rounds(0);
  ExpectRefused(Create(bad, &out), "tournament.rounds", "no rounds");
  bad = Swiss();
  bad.set_display_name(kMegabyte);
  ExpectRefused(Create(bad, &out), "tournament.display_name", "a megabyte of name");
  bad = Swiss();
  bad.set_game("chess");
  ExpectRefused(Create(bad, &out), "tournament.game", "no such game");
  bad = Swiss();
  (*bad.mutable_rules())["no_such_rule"].set_int_value(1);
  ExpectRefused(Create(bad, &out), "tournament.rules", "an unknown rule");
  bad = Swiss();
  bad.add_tiebreaks("coin toss");
  ExpectRefused(Create(bad, &out), "tournament.tiebreaks", "an unknown tie-break");
  bad = Swiss();
  bad.set_format(static_cast<v1::Tournament::Format>(99));
  ExpectRefused(Create(bad, &out), "tournament.format", "an enum value out of range");
  bad = Swiss();
  bad.set_format(v1::Tournament::PARTNER_ROTATION);  // Muggins for two has no partners
  bad.set_rounds(0);
  ExpectRefused(Create(bad, &out), "tournament.game", "partner rotation without teams");
  bad.set_game("forty_two");
  bad.set_table_size(8);
  ExpectRefused(Create(bad, &out), "tournament.table_size", "partner rotation at 8 seats");
  ExpectRefused(Create(Swiss(), &out, "bad id!"), "tournament_id", "a malformed id");
  // Values that were once stored and broke the event later (issue 43): a time no list could
  // print, a negative clock execution refuses, ids the web's routes cannot reach, names and
  // lists past their documented limits, a pair of one player, a team size named as the rules.
  for (const char* id : {"50%", "a/b", "..", "cup\u202e", "c u p"}) {
    ExpectRefused(Create(Swiss(), &out, id), "tournament_id", id);
  }
  for (const auto& [seconds, nanos] : std::vector<std::pair<int64_t, int32_t>>{
           {253'402'300'800, 0}, {-62'135'596'801, 0}, {1'900'000'000, -1}}) {
    bad = Swiss();
    bad.mutable_registration_close_time()->set_seconds(seconds);
    bad.mutable_registration_close_time()->set_nanos(nanos);
    ExpectRefused(Create(bad, &out), "tournament.registration_close_time",
                  absl::StrCat(seconds, "s ", nanos, "ns"));
  }
  bad = Swiss();
  bad.mutable_clock()->mutable_per_move()->set_seconds(-60);
  ExpectRefused(Create(bad, &out), "tournament.clock.per_move", "a negative clock");
  bad.mutable_clock()->mutable_per_move()->set_seconds(8 * 24 * 3600);
  ExpectRefused(Create(bad, &out), "tournament.clock.per_move", "eight days a move");
  bad = Swiss();
  bad.set_display_name(std::string(81, 'x'));
  ExpectRefused(Create(bad, &out), "tournament.display_name", "81 characters");
  bad.set_display_name("   ");
  ExpectRefused(Create(bad, &out), "tournament.display_name", "only spaces");
  bad.set_display_name("");
  ExpectRefused(Create(bad, &out), "tournament.display_name", "empty");
  bad = Swiss();
  for (int i = 0; i < 10000; ++i) bad.add_tiebreaks("BH");
  ExpectRefused(Create(bad, &out), "tournament.tiebreaks", "10,000 tie-breaks");
  bad = Swiss();
  v1::ForbiddenPair* pair = bad.add_forbidden_pairs();
  pair->set_first("ann");
  pair->set_second("ann");
  ExpectRefused(Create(bad, &out), "tournament.forbidden_pairs[0]", "a player with itself");
  bad = Swiss();
  bad.set_team_size(3);
  ExpectRefused(Create(bad, &out), "tournament.team_size", "teams of three at Muggins");
  bad = Swiss();
  (*bad.mutable_rules())["players"].set_int_value(-1);
  ExpectRefused(Create(bad, &out), "tournament.rules.players", "players -1");
  EXPECT_EQ(EventSnapshot(), "");  // nothing stored by any of them

  ASSERT_TRUE(Create(Swiss(), &out).ok());
  EXPECT_EQ(out.name(), "tournaments/cup");
  EXPECT_EQ(out.state(), v1::Tournament::REGISTRATION);
  EXPECT_EQ(out.team_size(), 1);
  EXPECT_EQ(Create(Swiss(), &out).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  v1::Tournament read;
  ASSERT_TRUE(t_->GetTournament(Context().get(), get, &read).ok());
  EXPECT_EQ(read.display_name(), "Thursday Swiss");
  get.set_name("tournaments/none");
  EXPECT_EQ(t_->GetTournament(Context().get(), get, &read).error_code(),
            grpc::StatusCode::NOT_FOUND);
  get.set_name("cups/cup");
  ExpectRefused(t_->GetTournament(Context().get(), get, &read), "name", "a wrong collection");
}

TEST_F(TournamentServiceTest, RegistrationIsThePlayersOwnOnceEachAndClosesAtTheStart) {
  const std::vector<std::string> tokens = Players(4);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  EXPECT_EQ(e.number(), 1);
  EXPECT_EQ(e.display_name(), "Player 0");
  EXPECT_EQ(e.name(), "tournaments/cup/entrants/1");
  EXPECT_EQ(Register(tokens[0], "", &e).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Register(tokens[1], "p2", &e).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Register(std::nullopt, "p2", &e).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Register(tokens[1], "", &e, "tournaments/none").error_code(),
            grpc::StatusCode::NOT_FOUND);
  ExpectRefused(Register(tokens[1], "", &e, "tournaments/"), "tournament", "an empty id");
  v1::RegisterPlayerRequest byes;
  byes.set_tournament("tournaments/cup");
  byes.add_bye_rounds(4);
  ExpectRefused(t_->RegisterPlayer(Context(tokens[1]).get(), byes, &e), "bye_rounds",
                "a bye after the last round");
  v1::RegisterPlayerRequest bot;
  bot.set_tournament("tournaments/cup");
  bot.mutable_bot()->set_kind("random");
  EXPECT_EQ(t_->RegisterPlayer(Context(tokens[1]).get(), bot, &e).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  bot.mutable_bot()->set_kind("no_such_bot");
  ExpectRefused(t_->RegisterPlayer(Context(kOperatorToken).get(), bot, &e), "bot.kind",
                "an unknown bot");
  bot.mutable_bot()->set_kind("greedy");
  bot.mutable_bot()->set_level(2);
  ExpectRefused(t_->RegisterPlayer(Context(kOperatorToken).get(), bot, &e), "bot.level",
                "a level greedy does not offer");
  bot.mutable_bot()->set_kind("search");
  bot.mutable_bot()->set_level(6);
  ExpectRefused(t_->RegisterPlayer(Context(kOperatorToken).get(), bot, &e), "bot.level",
                "a search level above 5");
  bot.mutable_bot()->set_level(0);
  v1::RegisterTeamRequest team;
  team.set_tournament("tournaments/cup");
  team.add_player_ids("p1");
  team.add_player_ids("p2");
  ExpectRefused(t_->RegisterTeam(Context(kOperatorToken).get(), team, &e), "tournament",
                "a team in a single-player event");
  const std::string before = EventSnapshot();
  v1::Tournament started;
  ASSERT_TRUE(Start(&started, tokens[0]).error_code() == grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Start(&started).error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << "one entrant is no event";
  EXPECT_EQ(EventSnapshot(), before);

  ASSERT_TRUE(Register(kOperatorToken, "p1", &e).ok());
  bot.mutable_bot()->set_kind("random");
  ASSERT_TRUE(t_->RegisterPlayer(Context(kOperatorToken).get(), bot, &e).ok());
  EXPECT_EQ(e.display_name(), "random bot #3");
  ASSERT_TRUE(Start(&started).ok());
  EXPECT_EQ(started.state(), v1::Tournament::RUNNING);
  EXPECT_EQ(started.current_round(), 1);
  EXPECT_EQ(Register(tokens[2], "", &e).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Start(&started).error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  v1::GetPairingsRequest pairings;
  pairings.set_round("tournaments/cup/rounds/1");
  v1::Round round;
  ASSERT_TRUE(t_->GetPairings(Context().get(), pairings, &round).ok());
  ASSERT_EQ(round.pairings_size(), 2);  // three entrants: a game and a bye
  EXPECT_EQ(round.pairings(1).outcome(), v1::BYE);
  ASSERT_EQ(round.pairings(0).games_size(), 1);
  EXPECT_EQ(round.pairings(0).games(0).match(), "");  // no director here: not created
  pairings.set_round("tournaments/cup/rounds/2");
  EXPECT_EQ(t_->GetPairings(Context().get(), pairings, &round).error_code(),
            grpc::StatusCode::NOT_FOUND);
  pairings.set_round("tournaments/cup/rounds/x");
  ExpectRefused(t_->GetPairings(Context().get(), pairings, &round), "round", "a bad round");

  // A player withdraws only their own entry.
  v1::WithdrawPlayerRequest withdraw;
  withdraw.set_entrant("tournaments/cup/entrants/2");
  EXPECT_EQ(t_->WithdrawPlayer(Context(tokens[0]).get(), withdraw, &e).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(t_->WithdrawPlayer(Context(tokens[1]).get(), withdraw, &e).ok());
  EXPECT_TRUE(e.withdrawn());
  EXPECT_EQ(e.withdrawn_round(), 2);
}

TEST_F(TournamentServiceTest, OverridesAreTheOperatorsNeedAReasonAndAreAudited) {
  const std::vector<std::string> tokens = Players(2);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  ASSERT_TRUE(Register(tokens[1], "", &e).ok());
  v1::ExportTrfRequest export_request;
  export_request.set_tournament("tournaments/cup");
  v1::ExportTrfResponse trf;
  EXPECT_EQ(t_->ExportTrf(Context().get(), export_request, &trf).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Start(&t).ok());
  const std::string before = EventSnapshot();
  v1::SetResultRequest set;
  set.set_round("tournaments/cup/rounds/1");
  set.set_board(1);
  set.set_outcome(v1::BLACK_FORFEITED);
  v1::Pairing pairing;
  EXPECT_EQ(t_->SetResult(Context(tokens[0]).get(), set, &pairing).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ExpectRefused(t_->SetResult(Context(kOperatorToken).get(), set, &pairing), "reason", "no reason");
  set.set_reason("black did not come");
  set.set_board(0);
  ExpectRefused(t_->SetResult(Context(kOperatorToken).get(), set, &pairing), "board", "board 0");
  set.set_board(1);
  set.set_outcome(v1::BYE);
  ExpectRefused(t_->SetResult(Context(kOperatorToken).get(), set, &pairing), "outcome", "a bye");
  set.set_outcome(v1::BLACK_FORFEITED);
  set.set_round("tournaments/cup/rounds/2");
  EXPECT_EQ(t_->SetResult(Context(kOperatorToken).get(), set, &pairing).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(EventSnapshot(), before);

  set.set_round("tournaments/cup/rounds/1");
  ASSERT_TRUE(t_->SetResult(Context(kOperatorToken).get(), set, &pairing).ok());
  EXPECT_EQ(pairing.outcome(), v1::BLACK_FORFEITED);
  EXPECT_TRUE(pairing.overridden());
  absl::StatusOr<std::string> audit = pool_->Run([&](pqxx::work& tx) {
    return tx
        .exec1("SELECT string_agg(actor || ':' || action || ':' || detail, ';') FROM " +
               tx.quote_name(schema_) + ".tournament_audit WHERE action = 'set_result'")[0]
        .as<std::string>();
  });
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_THAT(*audit, HasSubstr("operator:set_result:round 1 board 1: BLACK_FORFEITED"));
  EXPECT_THAT(*audit, HasSubstr("black did not come"));

  v1::GetStandingsRequest standings_request;
  standings_request.set_tournament("tournaments/cup");
  v1::Standings standings;
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &standings).ok());
  ASSERT_EQ(standings.rows_size(), 2);
  EXPECT_EQ(standings.columns(0), "PTS");
  EXPECT_EQ(standings.columns(1), "BH");
  EXPECT_EQ(standings.rows(0).points(), 1);
  ASSERT_TRUE(t_->ExportTrf(Context().get(), export_request, &trf).ok());
  absl::StatusOr<tournament::EventRecord> record = tournament::ParseTrf(trf.trf());
  ASSERT_TRUE(record.ok()) << record.status() << "\n" << trf.trf();
  EXPECT_EQ(record->total_rounds, 3);
  ASSERT_EQ(record->entrants.size(), 2u);
  EXPECT_EQ(record->entrants[0].rounds[0].code == tournament::RoundCode::kForfeitWin ||
                record->entrants[1].rounds[0].code == tournament::RoundCode::kForfeitWin,
            true);
}

TEST_F(TournamentServiceTest, ASwissOpenUntilItsCloseTimeTakesLateEntriesAKnockoutDoesNot) {
  const std::vector<std::string> tokens = Players(4);
  v1::Tournament swiss = Swiss();
  *swiss.mutable_registration_close_time() = ToTimestamp(absl::Now() + absl::Hours(1));
  v1::Tournament t;
  ASSERT_TRUE(Create(swiss, &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  ASSERT_TRUE(Register(tokens[1], "", &e).ok());
  ASSERT_TRUE(Start(&t).ok());
  ASSERT_TRUE(Register(tokens[2], "", &e).ok()) << "a late entry";
  EXPECT_EQ(e.number(), 3);

  v1::Tournament cup = Swiss();
  cup.set_format(v1::Tournament::KNOCKOUT);
  cup.set_rounds(0);
  *cup.mutable_registration_close_time() = ToTimestamp(absl::Now() + absl::Hours(1));
  ASSERT_TRUE(Create(cup, &t, "ko").ok());
  ASSERT_TRUE(Register(tokens[0], "", &e, "tournaments/ko").ok());
  ASSERT_TRUE(Register(tokens[1], "", &e, "tournaments/ko").ok());
  v1::StartTournamentRequest start;
  start.set_name("tournaments/ko");
  ASSERT_TRUE(t_->StartTournament(Context(kOperatorToken).get(), start, &t).ok());
  EXPECT_EQ(Register(tokens[3], "", &e, "tournaments/ko").error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  v1::Tournament closed = Swiss();
  *closed.mutable_registration_close_time() = ToTimestamp(absl::Now() - absl::Seconds(1));
  ASSERT_TRUE(Create(closed, &t, "closed").ok());
  EXPECT_EQ(Register(tokens[3], "", &e, "tournaments/closed").error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(TournamentServiceTest, ATeamHasTheEventsTeamSizeAndIsRegisteredByItsPartysLeader) {
  const std::vector<std::string> tokens = Players(4);
  v1::Tournament teams = Swiss();
  teams.set_game("forty_two");
  teams.set_team_size(2);
  v1::Tournament t;
  ASSERT_TRUE(Create(teams, &t).ok());
  const std::string before = EventSnapshot();
  v1::RegisterTeamRequest request;
  request.set_tournament("tournaments/cup");
  for (const char* p : {"p0", "p1", "p2"}) request.add_player_ids(p);
  v1::Entrant e;
  ExpectRefused(t_->RegisterTeam(Context(kOperatorToken).get(), request, &e), "player_ids",
                "three players in a team of two");
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  v1::RegisterTeamRequest by_party;
  by_party.set_tournament("tournaments/cup");
  by_party.set_party(party.name());
  ExpectRefused(t_->RegisterTeam(Context(tokens[0]).get(), by_party, &e), "party",
                "a party of one in a team of two");
  EXPECT_EQ(Register(tokens[2], "", &e).error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << "a single player in a team event";
  EXPECT_EQ(EventSnapshot(), before);
  ASSERT_TRUE(Join(tokens[1], party.invite_code(), &party).ok());
  EXPECT_EQ(t_->RegisterTeam(Context(tokens[1]).get(), by_party, &e).error_code(),
            grpc::StatusCode::PERMISSION_DENIED)
      << "only the leader";
  ASSERT_TRUE(t_->RegisterTeam(Context(tokens[0]).get(), by_party, &e).ok());
  EXPECT_EQ(e.display_name(), "Player 0 & Player 1");
  EXPECT_EQ(e.player_ids_size(), 2);
}

TEST_F(TournamentServiceTest, ListsPageAndRefuseForeignPageTokens) {
  v1::Tournament t;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(Create(Swiss(), &t, absl::StrCat("cup", i)).ok());
  v1::ListTournamentsRequest request;
  request.set_page_size(2);
  v1::ListTournamentsResponse page;
  ASSERT_TRUE(t_->ListTournaments(Context().get(), request, &page).ok());
  ASSERT_EQ(page.tournaments_size(), 2);
  ASSERT_FALSE(page.next_page_token().empty());
  request.set_page_token(page.next_page_token());
  ASSERT_TRUE(t_->ListTournaments(Context().get(), request, &page).ok());
  ASSERT_EQ(page.tournaments_size(), 1);
  EXPECT_EQ(page.tournaments(0).name(), "tournaments/cup2");
  EXPECT_TRUE(page.next_page_token().empty());
  request.set_page_token("forged");
  ExpectRefused(t_->ListTournaments(Context().get(), request, &page), "page_token",
                "a forged page token");
  request.set_page_token("");
  request.set_page_size(-1);
  ExpectRefused(t_->ListTournaments(Context().get(), request, &page), "page_size",
                "a negative page size");
  v1::ListEntrantsRequest entrants;
  entrants.set_tournament("tournaments/cup0");
  entrants.set_page_token(page.next_page_token() + "x");
  v1::ListEntrantsResponse none;
  ExpectRefused(t_->ListEntrants(Context().get(), entrants, &none), "page_token",
                "a page token that is no token");
}

// Execution creates the match but its answer never arrives (a lost response, a crash before
// the record): the next pass sends the same stored request again and gets the same match.
class LostAnswerCreator : public MatchCreator {
 public:
  explicit LostAnswerCreator(MatchCreator& real) : real_(real) {}
  absl::StatusOr<CreatedMatch> CreateMatch(const v1::CreateMatchRequest& request) override {
    absl::StatusOr<CreatedMatch> created = real_.CreateMatch(request);
    if (created.ok() && answered_.insert(request.request_id()).second) {
      return absl::UnavailableError("the answer was lost");
    }
    return created;
  }
  std::string target() const override { return real_.target(); }

 private:
  MatchCreator& real_;
  std::set<std::string> answered_;
};

TEST_F(TournamentServiceTest, AGameIsCreatedOnceAndItsResultCountedOnce) {
  absl::StatusOr<testing::ServiceOnNewDatabase> execution =
      testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
  ASSERT_TRUE(execution.ok()) << execution.status();
  ExecutionCreator real(execution->service->target(), execution->service->operator_token());
  LostAnswerCreator lossy(real);
  TournamentDirector director(*tournament_store_, lossy);

  const std::vector<std::string> tokens = Players(2);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  ASSERT_TRUE(Register(tokens[1], "", &e).ok());
  ASSERT_TRUE(Start(&t).ok());
  absl::StatusOr<DirectorReport> first = director.RunPass(absl::Now());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->created, 0);
  EXPECT_EQ(first->retry, 1);
  absl::StatusOr<DirectorReport> second = director.RunPass(absl::Now());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->created, 1);
  // Recording the creation changed the event, so the next pass reads it; then, with nothing
  // new, the pass after does not.
  absl::StatusOr<DirectorReport> idle = director.RunPass(absl::Now());
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_EQ(idle->unchanged, 0);
  idle = director.RunPass(absl::Now());
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_EQ(idle->unchanged, 1);
  auto execution_stub = v1::ExecutionService::NewStub(
      grpc::CreateChannel(execution->service->target(), grpc::InsecureChannelCredentials()));
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(execution_stub
                  ->ListMatches(Context(execution->service->operator_token()).get(),
                                v1::ListMatchesRequest(), &matches)
                  .ok());
  ASSERT_EQ(matches.matches_size(), 1) << "the resend created a second match";

  // Each player sees their own seat token, nobody else's.
  v1::GetPairingsRequest pairings;
  pairings.set_round("tournaments/cup/rounds/1");
  v1::Round round;
  ASSERT_TRUE(t_->GetPairings(Context(tokens[0]).get(), pairings, &round).ok());
  ASSERT_EQ(round.pairings(0).games(0).seat_tokens_size(), 1);
  const std::string token0 = round.pairings(0).games(0).seat_tokens(0).token();
  ASSERT_TRUE(t_->GetPairings(Context(tokens[1]).get(), pairings, &round).ok());
  ASSERT_EQ(round.pairings(0).games(0).seat_tokens_size(), 1);
  EXPECT_NE(round.pairings(0).games(0).seat_tokens(0).token(), token0);
  ASSERT_TRUE(t_->GetPairings(Context().get(), pairings, &round).ok());
  EXPECT_EQ(round.pairings(0).games(0).seat_tokens_size(), 0);
  ASSERT_TRUE(t_->GetPairings(Context(kOperatorToken).get(), pairings, &round).ok());
  EXPECT_EQ(round.pairings(0).games(0).seat_tokens_size(), 0);

  // The result, as execution's outbox delivers it: twice (at least once), then a forgery.
  std::unique_ptr<MatchmakingLogic> results_logic = ResultsPath();
  MatchmakingLogic& results = *results_logic;
  v1::RecordMatchResultRequest delivered;
  v1::Match& match = *delivered.mutable_match();
  match.set_name(round.pairings(0).games(0).match());
  match.set_state(v1::Match::FINISHED);
  *match.mutable_end_time() = ToTimestamp(absl::Now());
  v1::MatchResult& result = *match.mutable_result();
  result.add_scores(61);
  result.add_scores(20);
  result.add_ranks(1);
  result.add_ranks(2);
  result.add_winners(0);
  absl::StatusOr<v1::RecordMatchResultResponse> once =
      results.RecordMatchResult(kResultsToken, delivered);
  ASSERT_TRUE(once.ok()) << once.status();
  EXPECT_FALSE(once->already_recorded());
  const std::string after_once = EventSnapshot();
  absl::StatusOr<v1::RecordMatchResultResponse> twice =
      results.RecordMatchResult(kResultsToken, delivered);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_TRUE(twice->already_recorded());
  result.set_ranks(0, 2);
  result.set_ranks(1, 1);
  EXPECT_EQ(results.RecordMatchResult(kResultsToken, delivered).status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(results.RecordMatchResult(tokens[0], delivered).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(EventSnapshot(), after_once);
  match.set_name("matches/not-a-tournament-game");
  EXPECT_EQ(results.RecordMatchResult(kResultsToken, delivered).status().code(),
            absl::StatusCode::kNotFound);

  // The director decides what comes next, once however often it runs: the two have met, so
  // no round 2 exists and the event ends, with the reason in the audit log.
  ASSERT_TRUE(director.RunPass(absl::Now()).ok());
  ASSERT_TRUE(director.RunPass(absl::Now()).ok());
  v1::GetStandingsRequest standings_request;
  standings_request.set_tournament("tournaments/cup");
  v1::Standings standings;
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &standings).ok());
  EXPECT_EQ(standings.rows(0).points(), 1);
  EXPECT_EQ(standings.rows(1).points(), 0);
  v1::ListRoundsRequest rounds_request;
  rounds_request.set_tournament("tournaments/cup");
  v1::ListRoundsResponse rounds;
  ASSERT_TRUE(t_->ListRounds(Context().get(), rounds_request, &rounds).ok());
  ASSERT_EQ(rounds.rounds_size(), 1);
  EXPECT_EQ(rounds.rounds(0).state(), v1::Round::FINISHED);
  EXPECT_EQ(rounds.rounds(0).pairings(0).outcome(), v1::WHITE_WON);
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  ASSERT_TRUE(t_->GetTournament(Context().get(), get, &t).ok());
  EXPECT_EQ(t.state(), v1::Tournament::FINISHED);
  EXPECT_EQ(t.current_round(), 1);
  absl::StatusOr<int64_t> early = pool_->Run([&](pqxx::work& tx) {
    return tx
        .exec1("SELECT count(*) FROM " + tx.quote_name(schema_) +
               ".tournament_audit WHERE action = 'finish_early'")[0]
        .as<int64_t>();
  });
  ASSERT_TRUE(early.ok()) << early.status();
  EXPECT_EQ(*early, 1);
}

TEST_F(TournamentServiceTest, AnArenaRepairsFinishersUntilItClosesAndCountsEveryGameOnce) {
  std::unique_ptr<PlayedGames> played = PlayGames();
  ASSERT_NE(played, nullptr);
  TournamentDirector& director = *played->director;
  const std::set<std::string>& delivered = played->delivered;

  v1::Tournament arena;
  arena.set_display_name("Friday arena");
  arena.set_game("muggins");
  (*arena.mutable_rules())["target"].set_int_value(50);
  arena.set_format(v1::Tournament::ARENA);
  arena.mutable_duration()->set_seconds(600);
  v1::Tournament t;
  v1::Tournament bad = arena;
  bad.clear_duration();
  ExpectRefused(Create(bad, &t), "tournament.duration", "an arena without its window");
  bad.mutable_duration()->set_seconds(25 * 3600);
  ExpectRefused(Create(bad, &t), "tournament.duration", "a window over a day");
  bad = arena;
  bad.set_table_size(2);
  ExpectRefused(Create(bad, &t), "tournament.table_size", "an arena at tables");
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  EXPECT_EQ(t_->GetTournament(Context().get(), get, &t).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(Create(arena, &t).ok());
  auto add_bot = [&](int i) {
    v1::RegisterPlayerRequest request;
    request.set_tournament("tournaments/cup");
    request.mutable_bot()->set_kind(i % 2 == 0 ? "random" : "greedy");
    v1::Entrant e;
    return t_->RegisterPlayer(Context(kOperatorToken).get(), request, &e);
  };
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(add_bot(i).ok());
  ASSERT_TRUE(Start(&t).ok());
  ASSERT_EQ(t.state(), v1::Tournament::RUNNING);
  const absl::Time start = FromTimestamp(t.start_time());

  auto rounds = [&]() { return Rounds("tournaments/cup"); };
  auto deliver = [&]() { DeliverFinished("tournaments/cup", *played); };
  // While the window is open (the director's clock a minute in), finishers are re-paired; a
  // late entrant joins after the first results.
  bool late = false;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (delivered.size() < 12 && absl::Now() < deadline) {
    ASSERT_TRUE(director.RunPass(start + absl::Minutes(1)).ok());
    deliver();
    if (!late && delivered.size() >= 2) {
      ASSERT_TRUE(add_bot(5).ok());
      late = true;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_GE(delivered.size(), 12u) << played->log();
  // At the close (the director's clock past it) nobody is paired; the games under way finish
  // and count, and the event ends with the last of them.
  ASSERT_TRUE(director.RunPass(start + absl::Minutes(11)).ok());
  const int paired = rounds().rounds_size();
  while (absl::Now() < deadline + absl::Seconds(30)) {
    deliver();
    ASSERT_TRUE(director.RunPass(start + absl::Minutes(11)).ok());
    ASSERT_TRUE(t_->GetTournament(Context().get(), get, &t).ok());
    if (t.state() == v1::Tournament::FINISHED) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_EQ(t.state(), v1::Tournament::FINISHED);
  const v1::ListRoundsResponse history = rounds();
  EXPECT_EQ(history.rounds_size(), paired);
  EXPECT_EQ(t.rounds(), paired);
  EXPECT_EQ(add_bot(6).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  // The latest rounds first, page by page (an arena's page shows its last ones); a token is for
  // the order it was given in.
  v1::ListRoundsRequest newest;
  newest.set_tournament("tournaments/cup");
  newest.set_newest_first(true);
  newest.set_page_size(2);
  v1::ListRoundsResponse page;
  ASSERT_TRUE(t_->ListRounds(Context().get(), newest, &page).ok());
  ASSERT_EQ(page.rounds_size(), 2);
  EXPECT_EQ(page.rounds(0).number(), paired);
  EXPECT_EQ(page.rounds(1).number(), paired - 1);
  newest.set_page_token(page.next_page_token());
  ASSERT_TRUE(t_->ListRounds(Context().get(), newest, &page).ok());
  ASSERT_GE(page.rounds_size(), 1);
  EXPECT_EQ(page.rounds(0).number(), paired - 2);
  newest.set_newest_first(false);
  ExpectRefused(t_->ListRounds(Context().get(), newest, &page), "page_token",
                "a newest-first token read oldest first");

  // Every game created once on execution and counted once; nobody met the same opponent twice
  // running, and the late entrant played; the leaderboard is the games' scoring.
  std::map<int, std::vector<tournament::ArenaOutcome>> sheets;
  std::map<int, int> last_opponent;
  int games = 0;
  for (const v1::Round& round : history.rounds()) {
    EXPECT_EQ(round.state(), v1::Round::FINISHED);
    for (const v1::Pairing& p : round.pairings()) {
      ++games;
      ASSERT_EQ(p.games_size(), 1);
      EXPECT_NE(last_opponent[p.white()], p.black()) << "round " << round.number();
      EXPECT_NE(last_opponent[p.black()], p.white()) << "round " << round.number();
      last_opponent[p.white()] = p.black();
      last_opponent[p.black()] = p.white();
      using tournament::ArenaOutcome;
      const bool white_won = p.outcome() == v1::WHITE_WON;
      const bool black_won = p.outcome() == v1::BLACK_WON;
      ASSERT_TRUE(white_won || black_won || p.outcome() == v1::DRAWN) << p.DebugString();
      sheets[p.white()].push_back(white_won   ? ArenaOutcome::kWin
                                  : black_won ? ArenaOutcome::kLoss
                                              : ArenaOutcome::kDraw);
      sheets[p.black()].push_back(black_won   ? ArenaOutcome::kWin
                                  : white_won ? ArenaOutcome::kLoss
                                              : ArenaOutcome::kDraw);
    }
  }
  EXPECT_EQ(static_cast<size_t>(games), delivered.size());
  EXPECT_GT(sheets[6].size(), 0u) << "the late entrant never played";
  v1::ListMatchesRequest list;
  list.set_page_size(100);
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(
      played->stub->ListMatches(Context(played->token()).get(), list, &matches).ok());
  EXPECT_EQ(matches.matches_size(), games) << "a game created twice";
  v1::GetStandingsRequest standings_request;
  standings_request.set_tournament("tournaments/cup");
  v1::Standings standings;
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &standings).ok());
  ASSERT_EQ(standings.rows_size(), 6);
  for (const v1::StandingRow& row : standings.rows()) {
    const tournament::ArenaScore expected = tournament::ScoreArena(sheets[row.entrant()]);
    EXPECT_EQ(row.points(), expected.points) << row.entrant();
    EXPECT_EQ(std::vector<int>(row.sheet().begin(), row.sheet().end()), expected.sheet);
  }
  for (int i = 1; i < standings.rows_size(); ++i) {
    EXPECT_GE(standings.rows(i - 1).points(), standings.rows(i).points());
  }
}

TEST_F(TournamentServiceTest, TheDirectorLooksAtAnArenaAgainAtItsCloseThoughNothingChanged) {
  std::unique_ptr<PlayedGames> played = PlayGames();
  ASSERT_NE(played, nullptr);
  TournamentDirector& director = *played->director;
  v1::Tournament arena;
  arena.set_display_name("Two bots");
  arena.set_game("muggins");
  (*arena.mutable_rules())["target"].set_int_value(50);
  arena.set_format(v1::Tournament::ARENA);
  arena.mutable_duration()->set_seconds(60);
  v1::Tournament t;
  ASSERT_TRUE(Create(arena, &t).ok());
  for (int i = 0; i < 2; ++i) {
    v1::RegisterPlayerRequest request;
    request.set_tournament("tournaments/cup");
    request.mutable_bot()->set_kind("greedy");
    v1::Entrant e;
    ASSERT_TRUE(t_->RegisterPlayer(Context(kOperatorToken).get(), request, &e).ok());
  }
  ASSERT_TRUE(Start(&t).ok());
  const absl::Time start = FromTimestamp(t.start_time());
  ASSERT_TRUE(director.RunPass(start).ok());  // creates the one game
  // Its result, by the operator's word: the two have met and wait for others who never come.
  v1::SetResultRequest set;
  set.set_round("tournaments/cup/rounds/1");
  set.set_board(1);
  set.set_outcome(v1::WHITE_WON);
  set.set_reason("called by the arbiter");
  v1::Pairing pairing;
  ASSERT_TRUE(t_->SetResult(Context(kOperatorToken).get(), set, &pairing).ok());
  for (int pass = 0; pass < 2; ++pass) ASSERT_TRUE(director.RunPass(start).ok());
  absl::StatusOr<DirectorReport> idle = director.RunPass(start + absl::Seconds(59));
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_EQ(idle->unchanged, 1) << "an arena with nothing new is not read before its close";
  absl::StatusOr<DirectorReport> closing = director.RunPass(start + absl::Seconds(60));
  ASSERT_TRUE(closing.ok()) << closing.status();
  EXPECT_EQ(closing->changed, 1);
  v1::GetTournamentRequest get;
  get.set_name("tournaments/cup");
  ASSERT_TRUE(t_->GetTournament(Context().get(), get, &t).ok());
  EXPECT_EQ(t.state(), v1::Tournament::FINISHED);
  EXPECT_EQ(t.rounds(), 1);
}

TEST_F(TournamentServiceTest, ALeagueSeasonRunsOnItsCalendarAndTheNextPromotesAndRelegates) {
  std::unique_ptr<PlayedGames> played = PlayGames();
  ASSERT_NE(played, nullptr);

  // Four bots in two divisions of two: one round, a minute long; one promoted each way.
  v1::Tournament league;
  league.set_display_name("Winter league");
  league.set_game("muggins");
  (*league.mutable_rules())["target"].set_int_value(50);
  league.set_format(v1::Tournament::LEAGUE);
  league.mutable_league()->mutable_round_interval()->set_seconds(60);
  league.mutable_league()->set_division_size(2);
  league.mutable_league()->set_promotion(1);
  v1::Tournament t;
  v1::Tournament bad = league;
  bad.mutable_league()->clear_round_interval();
  ExpectRefused(Create(bad, &t, "s1"), "tournament.league.round_interval", "no calendar");
  ASSERT_TRUE(Create(league, &t, "s1").ok());
  auto add_bot = [&](const std::string& event) {
    v1::RegisterPlayerRequest request;
    request.set_tournament(event);
    request.mutable_bot()->set_kind("greedy");
    v1::Entrant e;
    return t_->RegisterPlayer(Context(kOperatorToken).get(), request, &e);
  };
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(add_bot("tournaments/s1").ok());
  v1::StartTournamentRequest start;
  start.set_name("tournaments/s1");
  ASSERT_TRUE(t_->StartTournament(Context(kOperatorToken).get(), start, &t).ok());
  EXPECT_EQ(t.rounds(), 1);
  const v1::ListRoundsResponse calendar = Rounds("tournaments/s1");
  ASSERT_EQ(calendar.rounds_size(), 1);
  EXPECT_EQ(FromTimestamp(calendar.rounds(0).deadline()) - FromTimestamp(t.start_time()),
            absl::Seconds(60));

  // The next season cannot follow one still being played, nor one that does not exist, nor a
  // season of another game; nothing is created.
  v1::Tournament next = league;
  next.set_display_name("Spring league");
  next.mutable_league()->set_previous_season("tournaments/s1");
  EXPECT_EQ(Create(next, &t, "s2").error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  next.mutable_league()->set_previous_season("tournaments/none");
  EXPECT_EQ(Create(next, &t, "s2").error_code(), grpc::StatusCode::NOT_FOUND);
  next.mutable_league()->set_previous_season("tournaments/");
  ExpectRefused(Create(next, &t, "s2"), "tournament.league.previous_season", "no id");
  v1::GetTournamentRequest get;
  get.set_name("tournaments/s2");
  EXPECT_EQ(t_->GetTournament(Context().get(), get, &t).error_code(), grpc::StatusCode::NOT_FOUND);

  // The round's games are played and counted; the season ends with them.
  get.set_name("tournaments/s1");
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::Now() < deadline) {
    ASSERT_TRUE(played->director->RunPass(absl::Now()).ok());
    DeliverFinished("tournaments/s1", *played);
    ASSERT_TRUE(t_->GetTournament(Context().get(), get, &t).ok());
    if (t.state() == v1::Tournament::FINISHED) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_EQ(t.state(), v1::Tournament::FINISHED) << played->log();
  v1::GetStandingsRequest standings_request;
  standings_request.set_tournament("tournaments/s1");
  v1::Standings first;
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &first).ok());
  ASSERT_EQ(first.rows_size(), 4);
  std::vector<int> divisions;
  for (const v1::StandingRow& row : first.rows()) divisions.push_back(row.division());
  EXPECT_THAT(divisions, ::testing::ElementsAre(1, 1, 2, 2));

  // The next season: division 2's winner goes up, division 1's last goes down.
  next.mutable_league()->set_previous_season("tournaments/s1");
  v1::Tournament other_game = next;
  other_game.set_game("chickenfoot");
  other_game.clear_rules();
  ExpectRefused(Create(other_game, &t, "s2"), "previous_season", "a season of another game");
  ASSERT_TRUE(Create(next, &t, "s2").ok());
  EXPECT_EQ(t.entrant_count(), 4);
  EXPECT_EQ(t.league().carried_entrants(), 4);
  v1::ListEntrantsRequest list;
  list.set_tournament("tournaments/s2");
  v1::ListEntrantsResponse carried;
  ASSERT_TRUE(t_->ListEntrants(Context().get(), list, &carried).ok());
  ASSERT_EQ(carried.entrants_size(), 4);
  const std::vector<int> order = {0, 2, 1, 3};  // s1's standings rows, in s2's order
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(carried.entrants(i).display_name(), first.rows(order[i]).display_name()) << i;
  }
  // A newcomer joins at the bottom; the season starts with the carried order.
  ASSERT_TRUE(add_bot("tournaments/s2").ok());
  start.set_name("tournaments/s2");
  ASSERT_TRUE(t_->StartTournament(Context(kOperatorToken).get(), start, &t).ok());
  v1::Standings second;
  standings_request.set_tournament("tournaments/s2");
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &second).ok());
  ASSERT_EQ(second.rows_size(), 5);
  for (const v1::StandingRow& row : second.rows()) {
    EXPECT_EQ(row.division(), row.pairing_number() <= 3 ? 1 : 2) << row.DebugString();
    if (row.entrant() == 5) {
      EXPECT_EQ(row.pairing_number(), 5) << "the newcomer below the carried entrants";
    }
  }
}

// A round of four players written as a pairing program would: 1 (w) beat 3, 2 (w) drew 4.
std::string FourPlayerFile(const std::string& name) {
  tournament::EventRecord e;
  e.name = name;
  e.total_rounds = 3;
  for (int tpn = 1; tpn <= 4; ++tpn) {
    tournament::Entrant x;
    x.tpn = tpn;
    x.name = absl::StrCat("Player ", tpn - 1);
    x.rating = 1800 - 10 * tpn;
    x.rounds.resize(1);
    e.entrants.push_back(x);
  }
  using tournament::Colour;
  using tournament::RoundCode;
  e.ByTpn(1).rounds[0] = {.opponent = 3, .colour = Colour::kWhite, .code = RoundCode::kWin};
  e.ByTpn(3).rounds[0] = {.opponent = 1, .colour = Colour::kBlack, .code = RoundCode::kLoss};
  e.ByTpn(2).rounds[0] = {.opponent = 4, .colour = Colour::kWhite, .code = RoundCode::kDraw};
  e.ByTpn(4).rounds[0] = {.opponent = 2, .colour = Colour::kBlack, .code = RoundCode::kDraw};
  return tournament::WriteTrf(e);
}

// A league writes its whole season at the start: ListRounds lists the rounds to come, and
// GetPairings shows each of them too, SCHEDULED with its date (docs/cli.md), not NOT_FOUND.
TEST_F(TournamentServiceTest, ALeaguesRoundsToComeAreShownScheduledWithTheirDates) {
  v1::Tournament league;
  league.set_display_name("Long league");
  league.set_game("muggins");
  league.set_format(v1::Tournament::LEAGUE);
  league.mutable_league()->mutable_round_interval()->set_seconds(7 * 24 * 3600);
  v1::Tournament t;
  ASSERT_TRUE(Create(league, &t, "long").ok());
  for (int i = 0; i < 4; ++i) {
    v1::RegisterPlayerRequest request;
    request.set_tournament("tournaments/long");
    request.mutable_bot()->set_kind("random");
    v1::Entrant e;
    ASSERT_TRUE(t_->RegisterPlayer(Context(kOperatorToken).get(), request, &e).ok());
  }
  v1::StartTournamentRequest start;
  start.set_name("tournaments/long");
  ASSERT_TRUE(t_->StartTournament(Context(kOperatorToken).get(), start, &t).ok());
  ASSERT_EQ(t.rounds(), 3);
  ASSERT_EQ(Rounds("tournaments/long").rounds_size(), 3);
  v1::GetPairingsRequest get;
  get.set_round("tournaments/long/rounds/3");
  v1::Round round;
  const grpc::Status status = t_->GetPairings(Context().get(), get, &round);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(round.state(), v1::Round::SCHEDULED);
  EXPECT_EQ(round.pairings_size(), 2);
  EXPECT_EQ(FromTimestamp(round.start_time()) - FromTimestamp(t.start_time()),
            absl::Hours(2 * 7 * 24));
  get.set_round("tournaments/long/rounds/4");
  EXPECT_EQ(t_->GetPairings(Context().get(), get, &round).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(TournamentServiceTest, AnImportedFileContinuesAndBadImportsChangeNothing) {
  const std::vector<std::string> tokens = Players(4);
  v1::ImportTournamentRequest request;
  request.set_tournament_id("cup");
  *request.mutable_tournament() = Swiss();
  request.mutable_tournament()->set_rounds(0);         // the file's XXR
  request.mutable_tournament()->clear_display_name();  // the file's name
  request.mutable_tournament()->set_manual_rounds(true);
  const std::string trf = FourPlayerFile(Swiss().display_name());
  request.set_trf(trf);
  for (int i = 0; i < 4; ++i) request.add_entrants()->add_player_ids(absl::StrCat("p", i));
  auto import = [&](const v1::ImportTournamentRequest& r,
                    std::optional<std::string> token = kOperatorToken) {
    v1::Tournament out;
    return t_->ImportTournament(Context(token).get(), r, &out);
  };

  EXPECT_EQ(import(request, std::nullopt).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(import(request, tokens[0]).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::ImportTournamentRequest bad = request;
  bad.set_trf("001 abcd Only a name");
  ExpectRefused(import(bad), "trf", "a file that does not parse");
  bad.set_trf(kMegabyte + kMegabyte + "x");
  ExpectRefused(import(bad), "trf", "a file over 2 MiB");
  bad = request;
  bad.mutable_entrants()->RemoveLast();
  ExpectRefused(import(bad), "entrants", "an entrant missing");
  bad = request;
  bad.mutable_entrants(1)->set_player_ids(0, "p0");
  ExpectRefused(import(bad), "entrants[1].player_ids[0]", "a player twice");
  bad = request;
  bad.mutable_entrants(2)->set_player_ids(0, "bad id!");
  ExpectRefused(import(bad), "entrants[2].player_ids[0]", "a malformed player id");
  bad = request;
  bad.mutable_entrants(2)->clear_player_ids();
  bad.mutable_entrants(2)->mutable_bot()->set_kind("grandmaster");
  ExpectRefused(import(bad), "entrants[2].bot.kind", "a bot the game does not have");
  bad = request;
  bad.mutable_tournament()->set_format(v1::Tournament::KNOCKOUT);
  ExpectRefused(import(bad), "tournament.", "a knockout");
  bad = request;
  bad.mutable_tournament()->set_rounds(0);
  bad.set_trf(trf.substr(0, trf.find("XXR")));
  ExpectRefused(import(bad), "tournament.rounds", "no rounds anywhere");
  bad = request;
  bad.mutable_entrants(3)->set_player_ids(0, "nobody");
  EXPECT_EQ(import(bad).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(EventSnapshot(), "");  // nothing stored by any of them

  v1::Tournament imported;
  grpc::Status ok = t_->ImportTournament(Context(kOperatorToken).get(), request, &imported);
  ASSERT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_EQ(imported.state(), v1::Tournament::RUNNING);
  EXPECT_EQ(imported.current_round(), 1);
  EXPECT_EQ(imported.rounds(), 3);
  EXPECT_EQ(imported.entrant_count(), 4);
  EXPECT_EQ(imported.display_name(), Swiss().display_name());
  const std::string before = EventSnapshot();
  EXPECT_EQ(import(request).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(EventSnapshot(), before);

  // The event is the file: exported unchanged, its standings the file's results.
  v1::ExportTrfRequest export_request;
  export_request.set_tournament("tournaments/cup");
  v1::ExportTrfResponse exported;
  ASSERT_TRUE(t_->ExportTrf(Context().get(), export_request, &exported).ok());
  EXPECT_EQ(exported.trf(), trf);
  v1::GetStandingsRequest standings_request;
  standings_request.set_tournament("tournaments/cup");
  v1::Standings standings;
  ASSERT_TRUE(t_->GetStandings(Context().get(), standings_request, &standings).ok());
  ASSERT_EQ(standings.rows_size(), 4);
  EXPECT_EQ(standings.rows(0).entrant(), 1);
  EXPECT_EQ(standings.rows(0).points(), 1);

  // Round 2 is paired by the service, as pair-next pairs the file, with games to play.
  v1::AdvanceTournamentRequest advance;
  advance.set_name("tournaments/cup");
  ASSERT_TRUE(t_->AdvanceTournament(Context(kOperatorToken).get(), advance, &imported).ok());
  EXPECT_EQ(imported.current_round(), 2);
  absl::StatusOr<tournament::EventRecord> record = tournament::ParseTrf(trf);
  ASSERT_TRUE(record.ok());
  absl::StatusOr<std::vector<tournament::Board>> expected = tournament::PairDutchRound(*record, 2);
  ASSERT_TRUE(expected.ok()) << expected.status();
  v1::GetPairingsRequest pairings;
  pairings.set_round("tournaments/cup/rounds/2");
  v1::Round round;
  ASSERT_TRUE(t_->GetPairings(Context().get(), pairings, &round).ok());
  ASSERT_EQ(round.pairings_size(), static_cast<int>(expected->size()));
  for (int i = 0; i < round.pairings_size(); ++i) {
    EXPECT_EQ(round.pairings(i).white(), (*expected)[i].white);
    EXPECT_EQ(round.pairings(i).black(), (*expected)[i].black);
    EXPECT_EQ(round.pairings(i).games_size(), 1);
  }
}

// WatchTournament at scale: 200 streams on one event share one feed. Each sees every change
// once and in order (a change sent twice would show where the next one should be), while the
// feed reads the versions once an interval and builds each change once for the one viewer
// (the public): its reads follow the time and the changes, not the streams.
TEST_F(TournamentServiceTest, ManyWatchersShareOneFeedAndSeeEveryChangeOnceInOrder) {
  const std::vector<std::string> tokens = Players(4);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  constexpr int kWatchers = 200;
  std::vector<std::unique_ptr<v1::TournamentService::Stub>> stubs;
  for (int i = 0; i < 10; ++i) stubs.push_back(v1::TournamentService::NewStub(Channel(i + 1)));
  std::vector<Watcher> watchers;
  for (int i = 0; i < kWatchers; ++i) {
    watchers.push_back(Watch(*stubs[i % stubs.size()], "tournaments/cup"));
  }
  for (Watcher& w : watchers) {
    v1::TournamentUpdate update;
    ASSERT_TRUE(w.reader->Read(&update));
    EXPECT_EQ(update.kind(), v1::TournamentUpdate::SNAPSHOT);
    EXPECT_EQ(update.tournament().entrant_count(), 1);
  }
  const TournamentFeed& feed = tournament_service_->feed();
  EXPECT_EQ(feed.watched(), 1);
  const int64_t reads_before = feed.reads();
  const absl::Time began = absl::Now();
  // Each change is read by every watcher before the next is made, so none is coalesced.
  for (int entrants = 2; entrants <= 4; ++entrants) {
    ASSERT_TRUE(Register(tokens[entrants - 1], "", &e).ok());
    for (Watcher& w : watchers) {
      v1::TournamentUpdate update;
      ASSERT_TRUE(w.reader->Read(&update));
      EXPECT_EQ(update.kind(), v1::TournamentUpdate::CHANGED);
      EXPECT_EQ(update.tournament().entrant_count(), entrants);
    }
  }
  ASSERT_TRUE(Start(&t).ok());
  for (Watcher& w : watchers) {
    v1::TournamentUpdate update;
    ASSERT_TRUE(w.reader->Read(&update));
    EXPECT_EQ(update.kind(), v1::TournamentUpdate::ROUND_STARTED);
    EXPECT_EQ(update.tournament().current_round(), 1);
  }
  const int64_t intervals = (absl::Now() - began) / absl::Milliseconds(250);
  const int64_t reads = feed.reads() - reads_before;
  // A version read an interval (and one under way), a build for each of the 4 changes, and
  // slack for the first read of the newly watched event (a build) falling in the window.
  EXPECT_LE(reads, intervals + 2 + 4 + 4) << "over " << intervals << " intervals";
  EXPECT_LT(reads, kWatchers);
  for (Watcher& w : watchers) w.context->TryCancel();
}

// The feed builds a change once per viewer: a player's stream shows their own seat token,
// nobody else's; the public's and the operator's streams show none.
TEST_F(TournamentServiceTest, AWatchersSeatTokenReachesOnlyThatWatcher) {
  absl::StatusOr<testing::ServiceOnNewDatabase> execution =
      testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
  ASSERT_TRUE(execution.ok()) << execution.status();
  ExecutionCreator creator(execution->service->target(), execution->service->operator_token());
  TournamentDirector director(*tournament_store_, creator);
  const std::vector<std::string> tokens = Players(2);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  ASSERT_TRUE(Register(tokens[1], "", &e).ok());
  ASSERT_TRUE(Start(&t).ok());
  std::vector<Watcher> watchers;
  watchers.push_back(Watch(*t_, "tournaments/cup", tokens[0]));
  watchers.push_back(Watch(*t_, "tournaments/cup", tokens[1]));
  watchers.push_back(Watch(*t_, "tournaments/cup"));
  watchers.push_back(Watch(*t_, "tournaments/cup", kOperatorToken));
  for (Watcher& w : watchers) {
    v1::TournamentUpdate update;
    ASSERT_TRUE(w.reader->Read(&update));
    EXPECT_EQ(update.kind(), v1::TournamentUpdate::SNAPSHOT);
  }
  // The director creates the game: a change the feed hands to each viewer as they see it.
  for (int pass = 0; pass < 3; ++pass) ASSERT_TRUE(director.RunPass(absl::Now()).ok());
  std::vector<v1::Round> seen;
  for (Watcher& w : watchers) {
    v1::TournamentUpdate update;
    do {
      ASSERT_TRUE(w.reader->Read(&update)) << execution->service->log();
    } while (update.round().pairings_size() == 0 ||
             update.round().pairings(0).games_size() == 0 ||
             update.round().pairings(0).games(0).match().empty());
    seen.push_back(update.round());
  }
  ASSERT_EQ(seen[0].pairings(0).games(0).seat_tokens_size(), 1);
  ASSERT_EQ(seen[1].pairings(0).games(0).seat_tokens_size(), 1);
  EXPECT_NE(seen[0].pairings(0).games(0).seat_tokens(0).token(),
            seen[1].pairings(0).games(0).seat_tokens(0).token());
  EXPECT_EQ(seen[2].pairings(0).games(0).seat_tokens_size(), 0);
  EXPECT_EQ(seen[3].pairings(0).games(0).seat_tokens_size(), 0);
  for (Watcher& w : watchers) w.context->TryCancel();
}

// Past a cap a new stream ends at once with RESOURCE_EXHAUSTED naming it; the streams within
// the caps go on, and a stream that ends gives its place back.
TEST_F(TournamentServiceTest, ACapRefusesTheStreamPastItAndTheOthersGoOn) {
  ASSERT_NO_FATAL_FAILURE(Serve({.max_per_tournament = 3, .max_per_client = 5}));
  const std::vector<std::string> tokens = Players(1);
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  ASSERT_TRUE(Create(Swiss(), &t, "cup2").ok());
  auto open = [&](const std::string& tournament, std::vector<Watcher>& into) {
    into.push_back(Watch(*t_, tournament));
    v1::TournamentUpdate update;
    ASSERT_TRUE(into.back().reader->Read(&update));
    EXPECT_EQ(update.kind(), v1::TournamentUpdate::SNAPSHOT);
  };
  auto refused = [&](const std::string& tournament, const std::string& cap) {
    Watcher w = Watch(*t_, tournament);
    v1::TournamentUpdate update;
    EXPECT_FALSE(w.reader->Read(&update));
    grpc::Status status = w.reader->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr(cap));
  };
  std::vector<Watcher> cup, cup2;
  for (int i = 0; i < 3; ++i) ASSERT_NO_FATAL_FAILURE(open("tournaments/cup", cup));
  refused("tournaments/cup", "--max_watchers_per_tournament");
  // All from 127.0.0.1: one client, 3 + 2 streams.
  for (int i = 0; i < 2; ++i) ASSERT_NO_FATAL_FAILURE(open("tournaments/cup2", cup2));
  refused("tournaments/cup2", "--max_watchers_per_client");
  v1::Entrant e;
  ASSERT_TRUE(Register(tokens[0], "", &e).ok());
  for (Watcher& w : cup) {
    v1::TournamentUpdate update;
    ASSERT_TRUE(w.reader->Read(&update));
    EXPECT_EQ(update.kind(), v1::TournamentUpdate::CHANGED);
  }
  cup.back().context->TryCancel();
  EXPECT_EQ(cup.back().reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  cup.pop_back();
  // Its place comes back once the server has seen it end.
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  bool reopened = false;
  while (!reopened && absl::Now() < deadline) {
    Watcher w = Watch(*t_, "tournaments/cup");
    v1::TournamentUpdate update;
    if (w.reader->Read(&update)) {
      reopened = true;
      w.context->TryCancel();
    } else {
      EXPECT_EQ(w.reader->Finish().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
      absl::SleepFor(absl::Milliseconds(50));
    }
  }
  EXPECT_TRUE(reopened);
  for (Watcher& w : cup) w.context->TryCancel();
  for (Watcher& w : cup2) w.context->TryCancel();
}

// A cancelled stream leaves the feed, which then reads nothing for an event nobody watches;
// and a stopping service ends the open streams with UNAVAILABLE.
TEST_F(TournamentServiceTest, ACancelledWatchUnsubscribesAndStoppingEndsTheRest) {
  ASSERT_NO_FATAL_FAILURE(Serve({.feed_interval = absl::Milliseconds(50)}));
  v1::Tournament t;
  ASSERT_TRUE(Create(Swiss(), &t).ok());
  const TournamentFeed& feed = tournament_service_->feed();
  Watcher w = Watch(*t_, "tournaments/cup");
  v1::TournamentUpdate update;
  ASSERT_TRUE(w.reader->Read(&update));
  EXPECT_EQ(feed.watched(), 1);
  w.context->TryCancel();
  EXPECT_EQ(w.reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (feed.watched() != 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
  ASSERT_EQ(feed.watched(), 0);
  absl::SleepFor(absl::Milliseconds(200));  // a read under way ends
  const int64_t reads = feed.reads();
  absl::SleepFor(absl::Milliseconds(500));  // ten intervals
  EXPECT_EQ(feed.reads(), reads);

  Watcher open = Watch(*t_, "tournaments/cup");
  ASSERT_TRUE(open.reader->Read(&update));
  tournament_service_->Stop();
  EXPECT_FALSE(open.reader->Read(&update));
  EXPECT_EQ(open.reader->Finish().error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace boneyard::matchmaking
