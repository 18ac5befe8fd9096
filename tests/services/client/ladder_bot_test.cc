// The remote-bot protocol of docs/bots.md end to end, with both of its documented clients: a
// real boneyard-matchmaking and boneyard-execution (delivering results back), a person who
// challenges a bot account twice and plays her seat over Play, and the bot account played by
// `boneyard bot --ladder` (C++) and then by docs/examples/ladder_bot.py (Python with grpcio,
// its message classes made by protoc from proto/): each joins the ladder, learns of each
// challenge on its event stream, accepts it, plays its seat to the end and exits after two
// matches.
#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif

#include <grpcpp/grpcpp.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/run_cli.h"
#include "tests/services/play_to_end.h"
#include "tests/services/service_process.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::unique_ptr<grpc::ClientContext> Call(const std::string& token, int seconds = 30) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  context->set_wait_for_ready(true);
  if (!token.empty()) context->AddMetadata("authorization", "Bearer " + token);
  return context;
}

class LadderBotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<int> port = PickFreePort();
    ASSERT_TRUE(port.ok());
    dir_ = MakeTempDir();
    const std::string results_token_file = dir_ + "/results_token";
    std::ofstream(results_token_file) << "results-token-for-the-ladder-bot-test";
    absl::StatusOr<ServiceOnNewDatabase> execution = StartOnNewDatabase(
        BONEYARD_EXECUTION_BINARY, {absl::StrCat("--matchmaking_target=127.0.0.1:", *port),
                                    "--results_token_file=" + results_token_file});
    ASSERT_TRUE(execution.ok()) << execution.status();
    execution_ = *std::move(execution);
    absl::StatusOr<ServiceOnNewDatabase> ratings =
        StartOnNewDatabase(BONEYARD_RATINGS_BINARY, {"--results_token_file=" + results_token_file});
    ASSERT_TRUE(ratings.ok()) << ratings.status();
    ratings_ = *std::move(ratings);
    absl::StatusOr<std::unique_ptr<TestDatabase>> db = TestDatabase::Create();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    absl::StatusOr<std::unique_ptr<ServiceProcess>> matchmaking = ServiceProcess::Start(
        BONEYARD_MATCHMAKING_BINARY,
        {"--database_url=" + db_->url(), "--execution_target=" + execution_.service->target(),
         "--execution_token_file=" + execution_.service->operator_token_file(),
         "--ratings_target=" + ratings_.service->target(),
         "--results_token_file=" + results_token_file},
        ServiceProcess::kDefaultReadyTimeout, *port);
    ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
    matchmaking_ = *std::move(matchmaking);
    auto channel = grpc::CreateChannel(matchmaking_->target(), grpc::InsecureChannelCredentials());
    players_ = v1::MatchmakingService::NewStub(channel);
    ladders_ = v1::LadderService::NewStub(channel);
    operator_ = matchmaking_->operator_token();

    v1::CreateLadderRequest create;
    create.set_ladder_id("mug");
    create.mutable_ladder()->set_display_name("Muggins ladder");
    create.mutable_ladder()->set_game("muggins");
    (*create.mutable_ladder()->mutable_rules())["target"].set_int_value(61);
    v1::Ladder ladder;
    grpc::Status status = ladders_->CreateLadder(Call(operator_).get(), create, &ladder);
    ASSERT_TRUE(status.ok()) << status.error_message();
    ann_ = Account("ann", v1::PlayerAccount::HUMAN);
    v1::JoinLadderRequest join;
    join.set_ladder("ladders/mug");
    v1::LadderMember member;
    status = ladders_->JoinLadder(Call(ann_).get(), join, &member);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // The `boneyard` CLI against this matchmaking service, as the operator or (`token_file`) a
  // player.
  CliResult Ladder(std::vector<std::string> args, const std::string& token_file = "") {
    args.push_back("--matchmaking-target=" + matchmaking_->target());
    if (token_file.empty()) {
      args.push_back("--operator-token-file=" + matchmaking_->operator_token_file());
    } else {
      args.push_back("--player-token-file=" + token_file);
    }
    return RunCli(args);
  }

  std::string Account(const std::string& id, v1::PlayerAccount::Kind kind) {
    v1::CreatePlayerRequest request;
    request.set_player_id(id);
    request.set_display_name(id);
    request.set_kind(kind);
    v1::CreatePlayerResponse created;
    grpc::Status status = players_->CreatePlayer(Call(operator_).get(), request, &created);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return created.token();
  }

  // ann challenges `bot` (retrying while it has not joined yet) and plays the match it accepts.
  void ChallengeAndPlay(const std::string& bot) {
    v1::CreateChallengeRequest request;
    request.set_ladder("ladders/mug");
    request.set_opponent("players/" + bot);
    v1::Challenge challenge;
    const absl::Time deadline = absl::Now() + absl::Seconds(60);
    grpc::Status status;
    do {
      status = ladders_->CreateChallenge(Call(ann_).get(), request, &challenge);
      if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        absl::SleepFor(absl::Milliseconds(100));  // not a member yet
      }
    } while (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION &&
             absl::Now() < deadline);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(challenge.state(), v1::Challenge::OFFERED);  // the bot answers itself
    v1::GetChallengeRequest get;
    get.set_name(challenge.name());
    do {
      absl::SleepFor(absl::Milliseconds(50));
      ASSERT_TRUE(ladders_->GetChallenge(Call(ann_).get(), get, &challenge).ok());
    } while (challenge.match().empty() && absl::Now() < deadline);
    ASSERT_FALSE(challenge.match().empty()) << matchmaking_->log();
    std::string token;
    for (const v1::ChallengeSeat& seat : challenge.seats()) {
      if (seat.player() == "players/ann") token = seat.seat_token();
      if (seat.player() == "players/" + bot) {
        EXPECT_TRUE(seat.seat_token().empty());
      }
    }
    ASSERT_FALSE(token.empty());
    PlaySeatToTheEnd(challenge.execution_target(), challenge.match(), token);
    do {
      absl::SleepFor(absl::Milliseconds(50));
      ASSERT_TRUE(ladders_->GetChallenge(Call(ann_).get(), get, &challenge).ok());
    } while (challenge.state() != v1::Challenge::FINISHED && absl::Now() < deadline);
    EXPECT_EQ(challenge.state(), v1::Challenge::FINISHED);
  }

  std::string dir_;
  ServiceOnNewDatabase execution_;
  ServiceOnNewDatabase ratings_;
  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<ServiceProcess> matchmaking_;
  std::unique_ptr<v1::MatchmakingService::Stub> players_;
  std::unique_ptr<v1::LadderService::Stub> ladders_;
  std::string operator_;
  std::string ann_;
};

TEST_F(LadderBotTest, TheCommandLineBotAcceptsAndPlaysItsChallenges) {
  const std::string token_file = dir_ + "/robo.token";
  std::ofstream(token_file) << Account("robo", v1::PlayerAccount::BOT);
  CliResult bot;
  std::thread runner([&] {
    bot = RunCli({"bot", "--ladder", "mug", "--player-token-file", token_file, "--matches", "2",
                  "--kind", "search:2", "--matchmaking-target", matchmaking_->target()},
                 "", std::chrono::seconds(180));
  });
  ChallengeAndPlay("robo");
  ChallengeAndPlay("robo");
  runner.join();
  ASSERT_EQ(bot.exit_code, 0) << Describe(bot) << matchmaking_->log();
  EXPECT_THAT(bot.out, HasSubstr("players/robo joined ladders/mug"));
  EXPECT_THAT(bot.out, HasSubstr("accepted challenges/"));
  EXPECT_THAT(bot.out, HasSubstr("done: 2 matches ended"));
  // Search level 2 played both matches from its rebuilt picture, never at random.
  EXPECT_THAT(bot.out + bot.err, Not(HasSubstr("playing at random")));
}

TEST_F(LadderBotTest, ThePythonExampleAcceptsAndPlaysItsChallenges) {
  const std::string source = BONEYARD_SOURCE_DIR;
  const std::string protos = dir_ + "/py";
  std::filesystem::create_directories(protos);
  std::vector<std::string> protoc = {"-I", source + "/proto", "--python_out=" + protos};
  for (const char* file : {"game", "execution", "matchmaking", "ladder"}) {
    protoc.push_back(absl::StrCat(source, "/proto/boneyard/v1/", file, ".proto"));
  }
  const CliResult generated = RunProgram("/usr/bin/protoc", protoc);
  ASSERT_EQ(generated.exit_code, 0) << Describe(generated);
  const std::string token_file = dir_ + "/pybot.token";
  std::ofstream(token_file) << Account("pybot", v1::PlayerAccount::BOT);
  CliResult bot;
  std::thread runner([&] {
    // Debian's python3, which has Debian's grpcio and protobuf (deploy/setup.sh).
    bot = RunProgram("/usr/bin/python3",
                     {source + "/docs/examples/ladder_bot.py", "--protos", protos, "--matchmaking",
                      matchmaking_->target(), "--token-file", token_file, "--ladder", "ladders/mug",
                      "--matches", "2"},
                     "", std::chrono::seconds(180));
  });
  ChallengeAndPlay("pybot");
  ChallengeAndPlay("pybot");
  runner.join();
  ASSERT_EQ(bot.exit_code, 0) << Describe(bot) << matchmaking_->log();
  EXPECT_THAT(bot.out, HasSubstr("players/pybot joined ladders/mug"));
  EXPECT_THAT(bot.out, HasSubstr("accepted challenges/"));
  EXPECT_THAT(bot.out, HasSubstr("done: 2 matches ended"));
}

// The pool through the running service: `ladder create --pool-wait`, a person entering with
// `ladder challenge ID pool`, and the matchmaking process's own pass seating a house bot once
// she has waited.
TEST_F(LadderBotTest, ThePoolSeatsAHouseBotOppositeWhoWaited) {
  auto run = [&](std::vector<std::string> args, const std::string& token_file = "") {
    return Ladder(std::move(args), token_file);
  };
  CliResult r = run({"ladder", "create", "quick", "--game", "muggins", "--rules", "target=61",
                     "--house-bots", "g=greedy", "--pool-wait", "1s"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  r = run({"ladder", "create", "slow", "--game", "muggins", "--pool-wait", "soon"});
  EXPECT_EQ(r.exit_code, 2) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("--pool-wait"));
  const std::string cy_file = dir_ + "/cy.token";
  std::ofstream(cy_file) << Account("cy", v1::PlayerAccount::HUMAN);
  ASSERT_EQ(run({"ladder", "join", "quick"}, cy_file).exit_code, 0);
  r = run({"ladder", "challenge", "quick", "pool"}, cy_file);
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("players/cy -> ladders/quick/pool  casual  OFFERED"));
  const std::string name = r.out.substr(0, r.out.find(' '));
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  do {
    absl::SleepFor(absl::Milliseconds(200));
    r = run({"ladder", "challenge-show", name}, cy_file);
    // ACCEPTED first, then the match is created.
  } while (absl::Now() < deadline && r.out.find("play it with") == std::string::npos);
  EXPECT_THAT(r.out, HasSubstr("players/cy -> ladders/quick/bots/g  casual  ACCEPTED"))
      << Describe(r) << matchmaking_->log();
  EXPECT_THAT(r.out, HasSubstr("play it with: boneyard connect matches/"));
}

// The `boneyard ladder` commands: the operator creates a ladder with house bots (and one with a
// fill bot for Forty-Two's partners), a person joins and challenges one, is shown their own seat and how to play it, and reads the standings.
TEST_F(LadderBotTest, TheLadderCommandsCreateJoinChallengeAndShow) {
  auto run = [&](std::vector<std::string> args, const std::string& token_file = "") {
    return Ladder(std::move(args), token_file);
  };
  CliResult r =
      run({"ladder", "create", "dom", "--game", "muggins", "--name", "Dominoes", "--rules",
           "target=61", "--house-bots", "s2=search:2,g=greedy", "--weight", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("house bot s2: search level 2, rated as house:dom:s2"));
  r = run({"ladder", "create", "bad", "--game", "muggins", "--house-bots", "x=oracle"});
  EXPECT_EQ(r.exit_code, 4) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("ladder.house_bots[0].kind"));
  r = run({"ladder", "create", "bad", "--game", "muggins", "--house-bots", "x"});
  EXPECT_EQ(r.exit_code, 2) << Describe(r);
  // Partners: the fill bot plays the seats beyond the two sides'.
  r = run({"ladder", "create", "ftw", "--game", "forty_two", "--rules", "scoring=marks",
           "--house-bots", "s1=search:1,h=heuristic", "--fill-bot", "h"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("the other seats: h, unrated"));
  r = run({"ladder", "create", "bad", "--game", "forty_two", "--house-bots", "h=heuristic"});
  EXPECT_EQ(r.exit_code, 4) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("ladder.fill_bot_id"));

  const std::string bea_file = dir_ + "/bea.token";
  std::ofstream(bea_file) << Account("bea", v1::PlayerAccount::HUMAN);
  r = run({"ladder", "join", "dom", "--rated-vs-bots"}, bea_file);
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("players/bea joined ladders/dom (rated games against bots)"));
  r = run({"ladder", "challenge", "dom", "bots/g", "--rated"}, bea_file);
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("players/bea -> ladders/dom/bots/g  rated  ACCEPTED"));
  EXPECT_THAT(r.out, HasSubstr("play it with: boneyard connect matches/"));
  r = run({"ladder", "show", "dom"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("search level 2"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("greedy +BOT"));
  EXPECT_THAT(r.out, HasSubstr("bea"));
  r = run({"ladder", "list"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("ladders/dom  Dominoes  muggins  bots: s2 g"));
  // Bad command lines exit 2 naming what is wrong, before any call.
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"ladder"}, "ladder needs a subcommand"},
           {{"ladder", "fly"}, "unknown ladder subcommand 'fly'"},
           {{"ladder", "create", "l"}, "--game is required"},
           {{"ladder", "challenge", "dom"}, "needs an opponent"},
           {{"ladder", "create", "l", "--game", "muggins", "--weight", "half"}, "--weight"}}) {
    r = run(args);
    EXPECT_EQ(r.exit_code, 2) << Describe(r);
    EXPECT_THAT(r.err, HasSubstr(message)) << Describe(r);
  }
}

}  // namespace
}  // namespace boneyard::testing
