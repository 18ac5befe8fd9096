// The LadderService on loopback over the real store (the test PostgreSQL). The first test plays
// a ladder for real: a boneyard-execution and a boneyard-ratings process, execution's outbox
// delivering each result to this process's matchmaking handlers and to ratings — a person beats
// or loses to a house bot in a rated game at the ladder's weight, a bot account learns of a
// challenge over WatchEvents and accepts it, the rules of people-versus-bots hold (opt-in, the
// bot's limits, the daily cap), a seat token is shown to its own player only, and at Forty-Two
// the two sides are the two teams, the ladder's fill bot their partners, unrated. The second is
// the hostile-input suite: every bad request refused with a status naming the field, nothing
// stored.
#include "services/matchmaking/ladder_service.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "services/matchmaking/execution_creator.h"
#include "services/matchmaking/ladder_feed.h"
#include "services/matchmaking/ladder_logic.h"
#include "services/matchmaking/pg_ladder_store.h"
#include "services/matchmaking/ratings_fetcher.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"
#include "tests/services/play_to_end.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

class LadderServiceTest : public MatchmakingTest {
 protected:
  // The ladder service (and the results path, RecordMatchResult passing ladder matches on) on a
  // server of its own; `creator` and `ratings` may be null.
  void StartLadders(MatchCreator* creator, LadderRatings* ratings,
                    const LadderWatchOptions& watch = {}) {
    ladder_store_ = std::make_unique<PgLadderStore>(store_->pool(), store_->quoted_schema());
    ladder_logic_ = std::make_unique<LadderLogic>(
        *store_, *ladder_store_,
        LadderOptions{.operator_token = kOperatorToken, .creator = creator, .ratings = ratings});
    results_logic_ = std::make_unique<MatchmakingLogic>(
        *store_,
        MatchmakingOptions{.operator_token = kOperatorToken,
                           .results_token = kResultsToken,
                           .elsewhere_results = [this](const std::string& match,
                                                        const std::string& result, absl::Time end) {
                             return ladder_logic_->RecordGameResult(match, result, end);
                           }});
    results_service_ = std::make_unique<MatchmakingServiceImpl>(*results_logic_);
    ladder_service_ = std::make_unique<LadderServiceImpl>(*ladder_logic_, watch);
    absl::StatusOr<std::unique_ptr<GrpcServer>> server =
        GrpcServer::Start({.listen_address = "127.0.0.1:0",
                           .services = {ladder_service_.get(), results_service_.get()}});
    ASSERT_TRUE(server.ok()) << server.status();
    ladder_server_ = *std::move(server);
    l_ = v1::LadderService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", ladder_server_->port()), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (ladder_service_ != nullptr) ladder_service_->Stop();
    if (results_service_ != nullptr) results_service_->Stop();
    if (ladder_server_ != nullptr) ladder_server_->Shutdown(absl::Seconds(5));
    MatchmakingTest::TearDown();
  }

  std::string Player(const std::string& id,
                     v1::PlayerAccount::Kind kind = v1::PlayerAccount::HUMAN) {
    v1::CreatePlayerResponse created;
    grpc::Status status = Create(id, absl::StrCat("Name of ", id), &created, kOperatorToken, kind);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return created.token();
  }
  grpc::Status CreateLadder(const v1::Ladder& ladder, const std::string& id = "mug",
                            std::optional<std::string> token = kOperatorToken) {
    v1::CreateLadderRequest request;
    request.set_ladder_id(id);
    *request.mutable_ladder() = ladder;
    v1::Ladder out;
    return l_->CreateLadder(Context(token).get(), request, &out);
  }
  grpc::Status Join(const std::string& token, const v1::JoinLadderRequest& request) {
    v1::LadderMember out;
    return l_->JoinLadder(Context(token).get(), request, &out);
  }
  grpc::Status Challenge(const std::string& token, const std::string& opponent, bool rated,
                         v1::Challenge* out, const std::string& request_id = "") {
    v1::CreateChallengeRequest request;
    request.set_ladder("ladders/mug");
    request.set_opponent(opponent);
    request.set_rated(rated);
    request.set_request_id(request_id);
    return l_->CreateChallenge(Context(token).get(), request, out);
  }
  v1::Challenge Get(std::optional<std::string> token, const std::string& name,
                    grpc::Status* status = nullptr) {
    v1::GetChallengeRequest request;
    request.set_name(name);
    v1::Challenge out;
    grpc::Status s = l_->GetChallenge(Context(token).get(), request, &out);
    if (status != nullptr) *status = s;
    return out;
  }
  // Every ladder row, as text: what a refused request must leave alone.
  std::string LadderSnapshot() {
    absl::StatusOr<std::string> rows = pool_->Run([&](pqxx::work& tx) {
      std::string out;
      for (const char* table : {"ladders", "ladder_members", "challenges"}) {
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

  // An open WatchEvents stream of the token's player.
  struct Events {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReader<v1::LadderEvent>> reader;
  };
  Events Watch(const std::string& token, int64_t after_sequence = 0) {
    Events e;
    e.context = Context(token);
    v1::WatchEventsRequest request;
    request.set_after_sequence(after_sequence);
    e.reader = l_->WatchEvents(e.context.get(), request);
    return e;
  }
  // bob challenges ann and she declines: two changes for both; their numbers.
  std::vector<int64_t> ChallengeAndDecline(const std::string& from, const std::string& to,
                                           const std::string& to_name) {
    v1::Challenge offered;
    grpc::Status status = Challenge(from, to_name, false, &offered);
    EXPECT_TRUE(status.ok()) << status.error_message();
    v1::DeclineChallengeRequest decline;
    decline.set_name(offered.name());
    v1::Challenge declined;
    status = l_->DeclineChallenge(Context(to).get(), decline, &declined);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return {offered.sequence(), declined.sequence()};
  }

  std::unique_ptr<PgLadderStore> ladder_store_;
  std::unique_ptr<LadderLogic> ladder_logic_;
  std::unique_ptr<MatchmakingLogic> results_logic_;
  std::unique_ptr<MatchmakingServiceImpl> results_service_;
  std::unique_ptr<LadderServiceImpl> ladder_service_;
  std::unique_ptr<GrpcServer> ladder_server_;
  std::unique_ptr<v1::LadderService::Stub> l_;
};

v1::Ladder MugginsLadder() {
  v1::Ladder ladder;
  ladder.set_display_name("Muggins ladder");
  ladder.set_game("muggins");
  (*ladder.mutable_rules())["target"].set_int_value(61);
  v1::HouseBot& bot = *ladder.add_house_bots();
  bot.set_bot_id("rnd");
  bot.set_kind("random");
  ladder.set_human_vs_bot_weight(0.5);
  ladder.set_bot_vs_bot_daily_cap(1);
  return ladder;
}

TEST_F(LadderServiceTest, PeopleAndBotsPlayOnOneScaleByTheRulesPeopleAskFor) {
  const std::string token_file = absl::StrCat("/tmp/boneyard-ladder-", getpid(), ".token");
  {
    std::ofstream out(token_file);
    out << kResultsToken;
  }
  absl::StatusOr<testing::ServiceOnNewDatabase> ratings =
      testing::StartOnNewDatabase(BONEYARD_RATINGS_BINARY, {"--results_token_file=" + token_file});
  ASSERT_TRUE(ratings.ok()) << ratings.status();
  RatingsFetcher fetcher(ratings->service->target());
  // The ladder server first: execution is told where to deliver.
  std::unique_ptr<ExecutionCreator> creator;
  struct LateCreator : MatchCreator {
    MatchCreator* inner = nullptr;
    absl::StatusOr<CreatedMatch> CreateMatch(const v1::CreateMatchRequest& r) override {
      return inner->CreateMatch(r);
    }
    std::string target() const override { return inner->target(); }
  } late;
  StartLadders(&late, &fetcher);
  absl::StatusOr<testing::ServiceOnNewDatabase> execution = testing::StartOnNewDatabase(
      BONEYARD_EXECUTION_BINARY,
      {absl::StrCat("--matchmaking_target=127.0.0.1:", ladder_server_->port()),
       "--ratings_target=" + ratings->service->target(), "--results_token_file=" + token_file});
  ASSERT_TRUE(execution.ok()) << execution.status();
  creator = std::make_unique<ExecutionCreator>(execution->service->target(),
                                               execution->service->operator_token());
  late.inner = creator.get();

  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  const std::string robo = Player("robo", v1::PlayerAccount::BOT);
  ASSERT_TRUE(CreateLadder(MugginsLadder()).ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  join.set_rated_vs_bots(true);
  ASSERT_TRUE(Join(ann, join).ok());
  join.set_rated_vs_bots(false);
  ASSERT_TRUE(Join(bob, join).ok());
  v1::JoinLadderRequest bot_join;
  bot_join.set_ladder("ladders/mug");
  bot_join.mutable_accept()->set_accept_casual(true);
  bot_join.mutable_accept()->set_answer_myself(true);
  ASSERT_TRUE(Join(robo, bot_join).ok());

  // A rated game against the house bot: accepted at once, the match created, ann's seat token
  // hers alone.
  v1::Challenge game;
  grpc::Status status = Challenge(ann, "ladders/mug/bots/rnd", /*rated=*/true, &game);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(game.state(), v1::Challenge::ACCEPTED);
  ASSERT_FALSE(game.match().empty()) << execution->service->log();
  ASSERT_EQ(game.seats_size(), 2);
  std::string ann_token;
  for (const v1::ChallengeSeat& seat : game.seats()) {
    if (seat.player() == "players/ann") ann_token = seat.seat_token();
    if (seat.player() == "ladders/mug/bots/rnd") {
      EXPECT_TRUE(seat.seat_token().empty());
    }
  }
  ASSERT_FALSE(ann_token.empty());
  for (const std::optional<std::string>& other :
       {std::optional<std::string>(kOperatorToken), std::optional<std::string>(ann)}) {
    const v1::Challenge seen = Get(other, game.name());
    for (const v1::ChallengeSeat& seat : seen.seats()) {
      if (other == ann && seat.player() == "players/ann") continue;
      EXPECT_TRUE(seat.seat_token().empty()) << seat.player();
    }
  }
  Get(bob, game.name(), &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);

  testing::PlaySeatToTheEnd(game.execution_target(), game.match(), ann_token);
  // The result comes back through execution's outbox, to the ladder and to ratings.
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  v1::Challenge finished;
  do {
    absl::SleepFor(absl::Milliseconds(50));
    finished = Get(ann, game.name());
  } while (absl::Now() < deadline && finished.state() != v1::Challenge::FINISHED);
  ASSERT_EQ(finished.state(), v1::Challenge::FINISHED) << execution->service->log();
  ASSERT_EQ(finished.result().ranks_size(), 2);
  v1::ListLadderStandingsRequest standings_request;
  standings_request.set_ladder("ladders/mug");
  v1::ListLadderStandingsResponse standings;
  do {
    absl::SleepFor(absl::Milliseconds(50));
    ASSERT_TRUE(l_->ListLadderStandings(Context().get(), standings_request, &standings).ok());
  } while (absl::Now() < deadline &&
           !(standings.standings_size() == 4 && standings.standings(0).games_played() == 1));
  ASSERT_EQ(standings.standings_size(), 4);  // ann, bob, robo, the house bot
  const v1::LadderStanding* ann_line = nullptr;
  const v1::LadderStanding* bot_line = nullptr;
  for (const v1::LadderStanding& line : standings.standings()) {
    if (line.player() == "players/ann") ann_line = &line;
    if (line.player() == "ladders/mug/bots/rnd") bot_line = &line;
    if (line.player() == "players/robo") {
      EXPECT_EQ(line.kind(), v1::PlayerAccount::BOT);
    }
  }
  ASSERT_TRUE(ann_line != nullptr && bot_line != nullptr);
  EXPECT_EQ(ann_line->kind(), v1::PlayerAccount::HUMAN);
  EXPECT_FALSE(ann_line->house_bot());
  EXPECT_EQ(bot_line->kind(), v1::PlayerAccount::BOT);
  EXPECT_TRUE(bot_line->house_bot());
  EXPECT_EQ(bot_line->games_played(), 1);
  EXPECT_EQ(bot_line->display_name(), "random");
  // Equal ratings before: unweighted, the two would move alike; ann moves half as far.
  EXPECT_NE(bot_line->mu(), 25.0);
  EXPECT_NEAR(ann_line->mu() - 25.0, -(bot_line->mu() - 25.0) * 0.5, 1e-9);
  EXPECT_GT(standings.standings(0).ordinal(), standings.standings(3).ordinal());

  // A partnership game: ann and the ladder's fill bot against the house bot and the fill bot.
  // Only the two sides are rated; the fill bot's seats take part at the initial rating.
  v1::Ladder partners;
  partners.set_display_name("Forty-Two ladder");
  partners.set_game("forty_two");
  (*partners.mutable_rules())["scoring"].set_string_value("marks");
  (*partners.mutable_rules())["marks_target"].set_int_value(1);
  for (const char* id : {"rnd", "mate"}) {
    v1::HouseBot& bot = *partners.add_house_bots();
    bot.set_bot_id(id);
    bot.set_kind("random");
  }
  partners.set_fill_bot_id("mate");
  partners.set_human_vs_bot_weight(0.5);
  ASSERT_TRUE(CreateLadder(partners, "ftw").ok());
  join.set_ladder("ladders/ftw");
  join.set_rated_vs_bots(true);
  ASSERT_TRUE(Join(ann, join).ok());
  v1::CreateChallengeRequest team_request;
  team_request.set_ladder("ladders/ftw");
  team_request.set_opponent("ladders/ftw/bots/rnd");
  team_request.set_rated(true);
  v1::Challenge team_game;
  status = l_->CreateChallenge(Context(ann).get(), team_request, &team_game);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(team_game.state(), v1::Challenge::ACCEPTED);
  ASSERT_EQ(team_game.seats_size(), 4) << execution->service->log();
  int ann_seat = -1, rnd_seat = -1;
  std::string team_token;
  for (const v1::ChallengeSeat& seat : team_game.seats()) {
    if (seat.player() == "players/ann") {
      ann_seat = seat.seat();
      team_token = seat.seat_token();
    }
    if (seat.player() == "ladders/ftw/bots/rnd") rnd_seat = seat.seat();
  }
  ASSERT_GE(ann_seat, 0);
  ASSERT_GE(rnd_seat, 0);
  EXPECT_NE(ann_seat % 2, rnd_seat % 2) << "the two sides are the two teams";
  for (const v1::ChallengeSeat& seat : team_game.seats()) {
    if (seat.seat() != ann_seat && seat.seat() != rnd_seat) {
      EXPECT_EQ(seat.player(), "ladders/ftw/bots/mate");
      EXPECT_TRUE(seat.seat_token().empty());
    }
  }
  testing::PlaySeatToTheEnd(team_game.execution_target(), team_game.match(), team_token);
  standings_request.set_ladder("ladders/ftw");
  const absl::Time team_deadline = absl::Now() + absl::Seconds(60);
  do {
    absl::SleepFor(absl::Milliseconds(50));
    ASSERT_TRUE(l_->ListLadderStandings(Context().get(), standings_request, &standings).ok());
  } while (absl::Now() < team_deadline && !(standings.standings_size() == 3 &&
                                       standings.standings(0).games_played() == 1));
  ASSERT_EQ(standings.standings_size(), 3);  // ann and the two house bots
  std::map<std::string, v1::LadderStanding> lines;
  for (const v1::LadderStanding& line : standings.standings()) lines[line.player()] = line;
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines["players/ann"].games_played(), 1);
  EXPECT_EQ(lines["ladders/ftw/bots/rnd"].games_played(), 1);
  EXPECT_EQ(lines["ladders/ftw/bots/mate"].games_played(), 0);
  EXPECT_EQ(lines["ladders/ftw/bots/mate"].mu(), 25.0);
  // Two teams alike before (the partners at the initial rating): ann moves half as far.
  EXPECT_NE(lines["ladders/ftw/bots/rnd"].mu(), 25.0);
  EXPECT_NEAR(lines["players/ann"].mu() - 25.0,
              -(lines["ladders/ftw/bots/rnd"].mu() - 25.0) * 0.5, 1e-9);

  // People who did not opt in play bots only casually.
  const std::string before = LadderSnapshot();
  v1::Challenge refused;
  status = Challenge(bob, "ladders/mug/bots/rnd", /*rated=*/true, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("opted in"));
  EXPECT_EQ(LadderSnapshot(), before);

  // robo answers for itself: it learns of bob's challenge on its event stream and accepts.
  grpc::ClientContext events_context;
  events_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  events_context.AddMetadata("authorization", "Bearer " + robo);
  auto events = l_->WatchEvents(&events_context, v1::WatchEventsRequest());
  v1::Challenge offered;
  ASSERT_TRUE(Challenge(bob, "players/robo", false, &offered).ok());
  EXPECT_EQ(offered.state(), v1::Challenge::OFFERED);
  v1::LadderEvent event;
  ASSERT_TRUE(events->Read(&event));
  EXPECT_EQ(event.challenge().name(), offered.name());
  EXPECT_EQ(event.challenge().state(), v1::Challenge::OFFERED);
  v1::AcceptChallengeRequest accept;
  accept.set_name(offered.name());
  v1::Challenge accepted;
  // Only its opponent accepts it.
  EXPECT_EQ(l_->AcceptChallenge(Context(bob).get(), accept, &accepted).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  status = l_->AcceptChallenge(Context(robo).get(), accept, &accepted);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(accepted.state(), v1::Challenge::ACCEPTED);
  do {
    ASSERT_TRUE(events->Read(&event));
  } while (event.challenge().match().empty());
  EXPECT_EQ(event.challenge().match(), accepted.match());
  for (const v1::ChallengeSeat& seat : event.challenge().seats()) {
    EXPECT_EQ(seat.seat_token().empty(), seat.player() != "players/robo") << seat.player();
  }
  // A second challenge while robo plays its limit of one is declined by its rules, at once.
  v1::Challenge busy;
  ASSERT_TRUE(Challenge(bob, "players/robo", false, &busy).ok());
  EXPECT_EQ(busy.state(), v1::Challenge::DECLINED);
  EXPECT_THAT(busy.decline_reason(), HasSubstr("limit of 1"));
  // A stream resumed from a sequence sees what came after it.
  grpc::ClientContext resumed_context;
  resumed_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  resumed_context.AddMetadata("authorization", "Bearer " + robo);
  v1::WatchEventsRequest resume;
  resume.set_after_sequence(accepted.sequence());
  auto resumed = l_->WatchEvents(&resumed_context, resume);
  ASSERT_TRUE(resumed->Read(&event));
  EXPECT_EQ(event.challenge().name(), busy.name());
  EXPECT_EQ(event.challenge().state(), v1::Challenge::DECLINED);
  resumed_context.TryCancel();
  events_context.TryCancel();

  // Bot against bot: once a day here (the cap is 1).
  v1::Challenge bots;
  ASSERT_TRUE(Challenge(robo, "ladders/mug/bots/rnd", false, &bots).ok());
  EXPECT_EQ(bots.state(), v1::Challenge::ACCEPTED);
  status = Challenge(robo, "ladders/mug/bots/rnd", false, &bots);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("bot_vs_bot_daily_cap"));
  std::remove(token_file.c_str());
}

// The ladder's pool: people waiting for the same kind of game play each other at once; who waits
// past the ladder's pool_wait gets the house bot nearest their rating (FillPools, the pass the
// service runs); a withdrawn entry is left alone; bad entries are refused and change nothing.
TEST_F(LadderServiceTest, ThePoolPairsPeopleAndABotTakesTheSeatOfWhoWaitedLongEnough) {
  absl::StatusOr<testing::ServiceOnNewDatabase> execution =
      testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
  ASSERT_TRUE(execution.ok()) << execution.status();
  ExecutionCreator creator(execution->service->target(), execution->service->operator_token());
  StartLadders(&creator, nullptr);
  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  const std::string cat = Player("cat");
  const std::string robo = Player("robo", v1::PlayerAccount::BOT);
  v1::Ladder ladder = MugginsLadder();
  ladder.mutable_pool_wait()->set_seconds(1);
  ASSERT_TRUE(CreateLadder(ladder).ok());
  ASSERT_TRUE(CreateLadder(MugginsLadder(), "nopool").ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  for (const std::string* person : {&ann, &bob, &cat}) ASSERT_TRUE(Join(*person, join).ok());
  ASSERT_TRUE(Join(robo, join).ok());

  // ann waits for a casual game; bob for a rated one: not the same kind, so no pair.
  v1::Challenge anns;
  ASSERT_TRUE(Challenge(ann, "ladders/mug/pool", false, &anns).ok());
  EXPECT_EQ(anns.state(), v1::Challenge::OFFERED);
  EXPECT_EQ(anns.opponent(), "ladders/mug/pool");
  v1::Challenge bobs;
  ASSERT_TRUE(Challenge(bob, "ladders/mug/pool", true, &bobs).ok());
  EXPECT_EQ(bobs.state(), v1::Challenge::OFFERED);

  // Refused, changing nothing: waiting twice, a bot account, a ladder without a pool.
  const std::string before = LadderSnapshot();
  v1::Challenge refused;
  EXPECT_EQ(Challenge(ann, "ladders/mug/pool", false, &refused).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  grpc::Status status = Challenge(robo, "ladders/mug/pool", false, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("bot account"));
  v1::CreateChallengeRequest no_pool;
  no_pool.set_ladder("ladders/nopool");
  no_pool.set_opponent("ladders/nopool/pool");
  ASSERT_TRUE(Join(ann, [] {
                v1::JoinLadderRequest j;
                j.set_ladder("ladders/nopool");
                return j;
              }()).ok());
  const std::string with_member = LadderSnapshot();
  status = l_->CreateChallenge(Context(ann).get(), no_pool, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("no pool"));
  ExpectRefused(Challenge(ann, "ladders/other/pool", false, &refused), "opponent",
                "another ladder's pool");
  v1::AcceptChallengeRequest accept;
  accept.set_name(anns.name());
  status = l_->AcceptChallenge(Context(kOperatorToken).get(), accept, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("waits in the pool"));
  v1::Ladder bad = ladder;
  bad.mutable_pool_wait()->set_seconds(0);
  bad.mutable_pool_wait()->set_nanos(500'000'000);
  ExpectRefused(CreateLadder(bad, "other"), "ladder.pool_wait", "half a second");
  EXPECT_EQ(LadderSnapshot(), with_member);
  EXPECT_NE(before, with_member);  // only ann's joining nopool

  // cat wants a casual game too: she plays ann, whose challenge it becomes, at once.
  v1::Challenge pair;
  ASSERT_TRUE(Challenge(cat, "ladders/mug/pool", false, &pair).ok());
  EXPECT_EQ(pair.name(), anns.name());
  EXPECT_EQ(pair.challenger(), "players/ann");
  EXPECT_EQ(pair.opponent(), "players/cat");
  EXPECT_EQ(pair.state(), v1::Challenge::ACCEPTED);
  ASSERT_FALSE(pair.match().empty()) << execution->service->log();
  ASSERT_EQ(pair.seats_size(), 2);
  for (const v1::ChallengeSeat& seat : pair.seats()) {
    EXPECT_EQ(seat.seat_token().empty(), seat.player() != "players/cat") << seat.player();
  }

  // Before bob has waited pool_wait, the pass leaves him waiting; after, a house bot plays him,
  // casually: he did not opt in to rated games against bots.
  const absl::Time now = absl::Now();
  ASSERT_TRUE(ladder_logic_->FillPools(now).ok());
  EXPECT_EQ(Get(bob, bobs.name()).state(), v1::Challenge::OFFERED);
  ASSERT_TRUE(ladder_logic_->FillPools(now + absl::Seconds(2)).ok());
  const v1::Challenge filled = Get(bob, bobs.name());
  EXPECT_EQ(filled.state(), v1::Challenge::ACCEPTED);
  EXPECT_EQ(filled.opponent(), "ladders/mug/bots/rnd");
  EXPECT_FALSE(filled.rated());
  EXPECT_FALSE(filled.match().empty());

  // A withdrawn entry stays withdrawn.
  v1::Challenge again;
  ASSERT_TRUE(Challenge(ann, "ladders/mug/pool", false, &again).ok());
  ASSERT_EQ(again.state(), v1::Challenge::OFFERED);
  v1::DeclineChallengeRequest withdraw;
  withdraw.set_name(again.name());
  v1::Challenge withdrawn;
  ASSERT_TRUE(l_->DeclineChallenge(Context(ann).get(), withdraw, &withdrawn).ok());
  EXPECT_EQ(withdrawn.state(), v1::Challenge::CANCELLED);
  ASSERT_TRUE(ladder_logic_->FillPools(now + absl::Seconds(5)).ok());
  EXPECT_EQ(Get(ann, again.name()).state(), v1::Challenge::CANCELLED);
}

TEST_F(LadderServiceTest, HostileInputIsRefusedNamingTheFieldAndChangesNothing) {
  StartLadders(nullptr, nullptr);
  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  const std::string robo = Player("robo", v1::PlayerAccount::BOT);
  ASSERT_TRUE(CreateLadder(MugginsLadder()).ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  ASSERT_TRUE(Join(ann, join).ok());
  ASSERT_TRUE(Join(robo, join).ok());
  v1::Challenge first;
  ASSERT_TRUE(Challenge(ann, "players/robo", false, &first, "req-1").ok());
  const std::string before = LadderSnapshot();

  // Who may do what.
  EXPECT_EQ(CreateLadder(MugginsLadder(), "other", ann).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(CreateLadder(MugginsLadder(), "other", std::nullopt).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(CreateLadder(MugginsLadder(), "other", "not-a-token").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(CreateLadder(MugginsLadder()).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  v1::JoinLadderRequest other = join;
  other.set_player("players/bob");
  EXPECT_EQ(Join(ann, other).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  // CreateLadder.
  v1::Ladder bad = MugginsLadder();
  bad.set_game(kMegabyte);
  ExpectRefused(CreateLadder(bad, "other"), "ladder.game", "a megabyte game");
  ExpectRefused(CreateLadder(MugginsLadder(), "bad id"), "ladder_id", "a bad id");
  bad = MugginsLadder();
  (*bad.mutable_rules())["players"].set_int_value(9);
  ExpectRefused(CreateLadder(bad, "other"), "ladder.rules", "nine players");
  bad = MugginsLadder();
  (*bad.mutable_rules())["players"].set_int_value(3);
  ExpectRefused(CreateLadder(bad, "other"), "ladder.fill_bot_id", "three players, no fill bot");
  bad.set_fill_bot_id(kMegabyte);
  ExpectRefused(CreateLadder(bad, "other"), "ladder.fill_bot_id", "a megabyte fill bot");
  bad = MugginsLadder();
  bad.mutable_house_bots(0)->set_display_name(std::string("a\nb"));
  ExpectRefused(CreateLadder(bad, "other"), "ladder.house_bots[0].display_name", "a newline");

  // JoinLadder.
  v1::JoinLadderRequest bad_join = join;
  bad_join.set_ladder("ladders/");
  ExpectRefused(Join(ann, bad_join), "ladder", "no ladder id");
  bad_join = join;
  bad_join.mutable_accept()->set_accept_casual(true);
  ExpectRefused(Join(ann, bad_join), "accept", "a person with accept rules");
  bad_join = join;
  bad_join.set_rated_vs_bots(true);
  ExpectRefused(Join(robo, bad_join), "rated_vs_bots", "a bot opting in");
  bad_join = join;
  bad_join.mutable_accept()->set_accept_casual(true);
  bad_join.mutable_accept()->set_max_concurrent(1001);
  ExpectRefused(Join(robo, bad_join), "accept.max_concurrent", "too many at once");
  bad_join = join;
  bad_join.set_ladder("ladders/none");
  EXPECT_EQ(Join(ann, bad_join).error_code(), grpc::StatusCode::NOT_FOUND);

  // CreateChallenge.
  v1::Challenge out;
  ExpectRefused(Challenge(ann, "players/ann", false, &out), "opponent", "oneself");
  ExpectRefused(Challenge(ann, "robo", false, &out), "opponent", "not a name");
  ExpectRefused(Challenge(ann, "ladders/elsewhere/bots/rnd", false, &out), "opponent",
                "another ladder's bot");
  ExpectRefused(Challenge(ann, "players/" + kMegabyte, false, &out), "opponent", "a megabyte");
  ExpectRefused(Challenge(ann, "ladders/mug/bots/" + kMegabyte, false, &out), "opponent",
                "a megabyte house bot id");
  ExpectRefused(Challenge(ann, "players/robo", false, &out, std::string(129, 'r')), "request_id",
                "a long request id");
  EXPECT_EQ(Challenge(ann, "ladders/mug/bots/none", false, &out).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Challenge(ann, "players/nobody", false, &out).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Challenge(bob, "players/ann", false, &out).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);  // bob is not a member
  EXPECT_EQ(Challenge(ann, "players/robo", true, &out, "req-1").error_code(),
            grpc::StatusCode::ALREADY_EXISTS);  // the request id, with other parameters
  v1::CreateChallengeRequest house_challenges;
  house_challenges.set_ladder("ladders/mug");
  house_challenges.set_challenger("ladders/mug/bots/rnd");
  house_challenges.set_opponent("players/ann");
  ExpectRefused(l_->CreateChallenge(Context(kOperatorToken).get(), house_challenges, &out),
                "challenger", "a house bot challenging");

  // Get, Accept, Decline.
  grpc::Status status;
  Get(ann, "challenges/", &status);
  ExpectRefused(status, "name", "no id");
  Get(ann, "challenges/ffff", &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  v1::DeclineChallengeRequest decline;
  decline.set_name(first.name());
  decline.set_reason(std::string("no\x01", 3));
  ExpectRefused(l_->DeclineChallenge(Context(robo).get(), decline, &out), "reason",
                "a control character");
  decline.set_reason(kMegabyte);
  ExpectRefused(l_->DeclineChallenge(Context(robo).get(), decline, &out), "reason", "a megabyte");
  // The schema's limit is 200 characters, not bytes: 201 plain letters are one too many, and
  // 200 two-byte letters are fine as far as the length goes.
  decline.set_reason(std::string(201, 'n'));
  ExpectRefused(l_->DeclineChallenge(Context(robo).get(), decline, &out), "reason",
                "201 characters");
  // Checked before the challenge is looked up: a bad reason for no challenge is still the reason.
  decline.set_name("challenges/ffff");
  ExpectRefused(l_->DeclineChallenge(Context(robo).get(), decline, &out), "reason",
                "a bad reason for an unknown challenge");
  decline.set_name(first.name());

  // Lists.
  v1::ListLaddersRequest list;
  list.set_page_size(-1);
  v1::ListLaddersResponse ladders;
  ExpectRefused(l_->ListLadders(Context().get(), list, &ladders), "page_size", "negative");
  list.set_page_size(0);
  list.set_page_token("forged");
  ExpectRefused(l_->ListLadders(Context().get(), list, &ladders), "page_token", "forged");
  v1::ListLadderStandingsRequest standings;
  standings.set_ladder("ladders/mug");
  v1::ListLadderStandingsResponse lines;
  EXPECT_EQ(l_->ListLadderStandings(Context().get(), standings, &lines).error_code(),
            grpc::StatusCode::UNAVAILABLE);  // no ratings service here

  // WatchEvents: a player's stream.
  for (const auto& [token, code] : {std::pair<std::optional<std::string>, grpc::StatusCode>{
                                        kOperatorToken, grpc::StatusCode::PERMISSION_DENIED},
                                    {std::nullopt, grpc::StatusCode::UNAUTHENTICATED}}) {
    auto context = Context(token);
    auto stream = l_->WatchEvents(context.get(), v1::WatchEventsRequest());
    v1::LadderEvent event;
    EXPECT_FALSE(stream->Read(&event));
    EXPECT_EQ(stream->Finish().error_code(), code);
  }
  {
    auto context = Context(ann);
    v1::WatchEventsRequest negative;
    negative.set_after_sequence(-1);
    auto stream = l_->WatchEvents(context.get(), negative);
    v1::LadderEvent event;
    EXPECT_FALSE(stream->Read(&event));
    ExpectRefused(stream->Finish(), "after_sequence", "negative");
  }
  EXPECT_EQ(LadderSnapshot(), before);

  // The same request again is the same challenge, nothing new stored.
  v1::Challenge again;
  ASSERT_TRUE(Challenge(ann, "players/robo", false, &again, "req-1").ok());
  EXPECT_EQ(again.name(), first.name());
}

// A resumed stream misses nothing across its backlog and its subscription to the feed: while
// bob keeps challenging ann (and she declines), streams resumed from various points each see
// every change of ann's after their point, once, in order; and many streams of one player
// cost the feed no more reads.
TEST_F(LadderServiceTest, AResumedStreamMissesNothingBetweenItsBacklogAndTheFeed) {
  StartLadders(nullptr, nullptr, {.feed_interval = absl::Milliseconds(100)});
  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  ASSERT_TRUE(CreateLadder(MugginsLadder()).ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  ASSERT_TRUE(Join(ann, join).ok());
  ASSERT_TRUE(Join(bob, join).ok());
  // A backlog first, then changes made while streams start.
  std::vector<int64_t> changes;
  for (int i = 0; i < 10; ++i) {
    for (int64_t n : ChallengeAndDecline(bob, ann, "players/ann")) changes.push_back(n);
  }
  constexpr int kRounds = 40;
  absl::Mutex mu;
  std::thread writer([&] {
    for (int i = 0; i < kRounds; ++i) {
      std::vector<int64_t> made = ChallengeAndDecline(bob, ann, "players/ann");
      absl::MutexLock lock(&mu);
      changes.insert(changes.end(), made.begin(), made.end());
    }
  });
  // Streams resumed from the backlog's points, opened while the writer runs.
  std::vector<std::pair<int64_t, Events>> streams;
  for (int i = 0; i < 10; ++i) {
    int64_t after = 0;
    {
      absl::MutexLock lock(&mu);
      after = changes[(i * 7) % changes.size()];
    }
    streams.emplace_back(after, Watch(ann, after));
    absl::SleepFor(absl::Milliseconds(30));
  }
  writer.join();
  ASSERT_EQ(changes.size(), 20u + 2 * kRounds);
  const int64_t last = changes.back();
  const int64_t reads_before = ladder_service_->feed().reads();
  const absl::Time began = absl::Now();
  for (auto& [after, stream] : streams) {
    std::vector<int64_t> seen;
    v1::LadderEvent event;
    while ((seen.empty() || seen.back() < last) && stream.reader->Read(&event)) {
      seen.push_back(event.challenge().sequence());
    }
    // An event is a challenge as it stands (its row keeps only its latest sequence): a
    // challenge offered and declined before the stream read it is seen once, declined. So
    // "misses nothing" is: every challenge's last change after the resume point arrives, in
    // order, and nothing arrives that was not a change after that point.
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()) &&
                std::adjacent_find(seen.begin(), seen.end()) == seen.end())
        << "resumed after " << after << ": not strictly increasing";
    const std::set<int64_t> seen_set(seen.begin(), seen.end());
    for (int64_t n : seen) {
      EXPECT_GT(n, after);
      EXPECT_NE(std::find(changes.begin(), changes.end(), n), changes.end()) << n;
    }
    for (size_t k = 1; k < changes.size(); k += 2) {  // (offered, declined) pairs
      if (changes[k] > after) {
        EXPECT_TRUE(seen_set.contains(changes[k]))
            << "resumed after " << after << ": missed the decline numbered " << changes[k];
      }
    }
    stream.context->TryCancel();
  }
  // Reading what was delivered costs the feed nothing per stream.
  const int64_t intervals = (absl::Now() - began) / absl::Milliseconds(100);
  // (A read an interval, one under way, one woken by the writer's last change.)
  EXPECT_LE(ladder_service_->feed().reads() - reads_before, intervals + 3);
}

// Past the per-player cap a new stream ends at once with RESOURCE_EXHAUSTED naming it; the
// streams within it go on, each with the player's own view.
TEST_F(LadderServiceTest, ACapRefusesTheEventStreamPastItAndTheOthersGoOn) {
  StartLadders(nullptr, nullptr, {.max_per_player = 2});
  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  ASSERT_TRUE(CreateLadder(MugginsLadder()).ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  ASSERT_TRUE(Join(ann, join).ok());
  ASSERT_TRUE(Join(bob, join).ok());
  // An open challenge: each stream's first event, so a stream is known counted once read.
  v1::Challenge offered;
  ASSERT_TRUE(Challenge(bob, "players/ann", false, &offered).ok());
  std::vector<Events> streams;
  v1::LadderEvent event;
  for (int i = 0; i < 2; ++i) {
    streams.push_back(Watch(ann));
    ASSERT_TRUE(streams.back().reader->Read(&event));
    EXPECT_EQ(event.challenge().state(), v1::Challenge::OFFERED);
  }
  Events past = Watch(ann);
  EXPECT_FALSE(past.reader->Read(&event));
  grpc::Status status = past.reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("--max_event_streams_per_player"));
  // bob is another player: his stream is within his own cap.
  streams.push_back(Watch(bob));
  ASSERT_TRUE(streams.back().reader->Read(&event));
  EXPECT_EQ(event.challenge().name(), offered.name());
  // ann declines: every stream within the caps sees it.
  v1::DeclineChallengeRequest decline;
  decline.set_name(offered.name());
  v1::Challenge declined;
  ASSERT_TRUE(l_->DeclineChallenge(Context(ann).get(), decline, &declined).ok());
  for (Events& stream : streams) {
    ASSERT_TRUE(stream.reader->Read(&event));
    EXPECT_EQ(event.challenge().name(), offered.name());
    EXPECT_EQ(event.challenge().state(), v1::Challenge::DECLINED);
    EXPECT_EQ(event.challenge().sequence(), declined.sequence());
    stream.context->TryCancel();
  }
}

// A cancelled stream leaves the feed; a stopping service ends the open ones with UNAVAILABLE.
TEST_F(LadderServiceTest, ACancelledEventStreamUnsubscribesAndStoppingEndsTheRest) {
  StartLadders(nullptr, nullptr, {.feed_interval = absl::Milliseconds(50)});
  const std::string ann = Player("ann");
  const std::string bob = Player("bob");
  ASSERT_TRUE(CreateLadder(MugginsLadder()).ok());
  v1::JoinLadderRequest join;
  join.set_ladder("ladders/mug");
  ASSERT_TRUE(Join(ann, join).ok());
  ASSERT_TRUE(Join(bob, join).ok());
  const LadderFeed& feed = ladder_service_->feed();
  Events stream = Watch(ann);
  v1::Challenge offered;
  ASSERT_TRUE(Challenge(bob, "players/ann", false, &offered).ok());
  v1::LadderEvent event;
  ASSERT_TRUE(stream.reader->Read(&event));
  EXPECT_EQ(feed.watched(), 1);
  stream.context->TryCancel();
  EXPECT_EQ(stream.reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (feed.watched() != 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_EQ(feed.watched(), 0);

  Events open = Watch(bob);
  ASSERT_TRUE(open.reader->Read(&event));  // his open challenge to ann
  EXPECT_EQ(event.challenge().name(), offered.name());
  ladder_service_->Stop();
  EXPECT_FALSE(open.reader->Read(&event));
  EXPECT_EQ(open.reader->Finish().error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace boneyard::matchmaking
