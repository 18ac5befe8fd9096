// The `boneyard` matchmaking commands end to end: the real build/bin/boneyard (BONEYARD_CLI) as
// a child process against a real boneyard-matchmaking and boneyard-execution (child processes
// on fresh databases): an operator makes a queue, players register, queue and are matched
// (`queue join --no-play` in two processes at once), a player joins a bot-filled queue and plays
// the match at the terminal to its end, parties and tickets are shown and cancelled, and bad
// command lines exit 2 naming the problem.
// run_cli.h's TestData() needs this; these tests have no test data of their own.
#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/common/pg_pool.h"
#include "tests/cli/run_cli.h"
#include "tests/services/service_process.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

class MatchmakingCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<ServiceOnNewDatabase> execution = StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
    ASSERT_TRUE(execution.ok()) << execution.status();
    execution_ = *std::move(execution);
    absl::StatusOr<ServiceOnNewDatabase> matchmaking = StartOnNewDatabase(
        BONEYARD_MATCHMAKING_BINARY,
        {"--open_registration", "--execution_target=" + execution_.service->target(),
         "--execution_token_file=" + execution_.service->operator_token_file(),
         "--pass_interval=50ms"});
    ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
    matchmaking_ = *std::move(matchmaking);
    dir_ = MakeTempDir();
  }

  void TearDown() override {
    if (HasFailure() && matchmaking_.service != nullptr) {
      std::cerr << "---- matchmaking log ----\n" << matchmaking_.service->log() << "----\n";
    }
  }

  CliResult Run(std::vector<std::string> args, const std::string& input = "") {
    args.push_back("--matchmaking-target=" + matchmaking_.service->target());
    return RunCli(args, input);
  }
  CliResult RunAsOperator(std::vector<std::string> args) {
    args.push_back("--operator-token-file=" + matchmaking_.service->operator_token_file());
    return Run(std::move(args));
  }
  CliResult RunAs(const std::string& token_file, std::vector<std::string> args,
                  const std::string& input = "") {
    args.push_back("--player-token-file=" + token_file);
    return Run(std::move(args), input);
  }

  // Registers a player; returns the file holding their token.
  std::string Register(const std::string& id) {
    const CliResult result = Run({"player", "create", id, "--name", id + " Smith", "--json"});
    EXPECT_EQ(result.exit_code, 0) << Describe(result);
    if (result.exit_code != 0) return "";
    const json out = json::parse(result.out);
    const std::string path = dir_ + "/" + id + ".token";
    WriteWholeFile(path, out["token"].get<std::string>() + "\n");
    return path;
  }

  ServiceOnNewDatabase execution_;
  ServiceOnNewDatabase matchmaking_;
  std::string dir_;
};

TEST_F(MatchmakingCommandsTest, TwoPlayersJoinADuelQueueAndAreMatched) {
  const CliResult made = RunAsOperator({"queue", "create", "duel", "--game", "muggins",
                                        "--name", "Muggins duel", "--format", "duel"});
  ASSERT_EQ(made.exit_code, 0) << Describe(made);
  EXPECT_THAT(made.out, HasSubstr("queues/duel  muggins  duel  rated"));
  const CliResult list = Run({"queue", "list"});
  EXPECT_THAT(list.out, HasSubstr("queues/duel"));

  const std::string ann = Register("ann");
  const std::string bob = Register("bob");
  // Two searches at once, each its own process.
  std::future<CliResult> ann_join = std::async(std::launch::async, [&] {
    return RunAs(ann, {"queue", "join", "duel", "--no-play"});
  });
  const CliResult bob_join = RunAs(bob, {"queue", "join", "duel", "--no-play"});
  const CliResult ann_joined = ann_join.get();
  for (const CliResult* joined : {&ann_joined, &bob_join}) {
    ASSERT_EQ(joined->exit_code, 0) << Describe(*joined);
    EXPECT_THAT(joined->out, HasSubstr("queued: tickets/"));
    EXPECT_THAT(joined->out, HasSubstr("matched:"));
    EXPECT_THAT(joined->out, HasSubstr("predicted win chance 50%"));
    EXPECT_THAT(joined->out, HasSubstr("seat token: "));
  }
  // Each sees only their own token.
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(ann_joined.out, "seat token: ")).size(), 2u);

  const CliResult history = Run({"player", "matches", "ann"});
  ASSERT_EQ(history.exit_code, 0) << Describe(history);
  EXPECT_THAT(history.out, HasSubstr("queues/duel  muggins  seat "));
  EXPECT_THAT(history.out, HasSubstr("being played"));
}

TEST_F(MatchmakingCommandsTest, APlayerJoinsABotFilledQueueAndPlaysToTheEnd) {
  const CliResult made = RunAsOperator({"queue", "create", "practice", "--game", "muggins",
                                        "--rules", "target=50", "--casual", "--bot-fill", "0s",
                                        "--bot", "greedy"});
  ASSERT_EQ(made.exit_code, 0) << Describe(made);
  EXPECT_THAT(made.out, HasSubstr("casual  bots fill"));
  const std::string cat = Register("cat");
  std::string answers;
  for (int i = 0; i < 400; ++i) answers += "1\n";
  const CliResult played = RunAs(cat, {"queue", "join", "practice"}, answers);
  ASSERT_EQ(played.exit_code, 0) << Describe(played);
  EXPECT_THAT(played.out, HasSubstr("1 bot"));
  EXPECT_THAT(played.out, HasSubstr("connected to matches/"));
  EXPECT_THAT(played.out, HasSubstr("match over"));
}

TEST_F(MatchmakingCommandsTest, PartiesAndTicketsAreShownAndCancelled) {
  ASSERT_EQ(RunAsOperator({"queue", "create", "pairs", "--game", "forty_two", "--format",
                           "teams:2x2"})
                .exit_code,
            0);
  const std::string dan = Register("dan");
  const std::string eve = Register("eve");
  const CliResult party = RunAs(dan, {"party", "create", "--json"});
  ASSERT_EQ(party.exit_code, 0) << Describe(party);
  const json made = json::parse(party.out);
  const CliResult joined =
      RunAs(eve, {"party", "join", made["invite_code"].get<std::string>()});
  ASSERT_EQ(joined.exit_code, 0) << Describe(joined);
  EXPECT_THAT(joined.out, HasSubstr("members: players/dan, players/eve"));

  // The pair searches (two of a table of four: it waits) until a member leaves the party,
  // which cancels its ticket and ends the search.
  std::future<CliResult> search = std::async(std::launch::async, [&] {
    return RunAs(dan, {"queue", "join", "pairs", "--party", made["name"].get<std::string>()});
  });
  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect(matchmaking_.database->url(), 1);
  ASSERT_TRUE(pool.ok()) << pool.status();
  int64_t searching = 0;
  for (int i = 0; i < 600 && searching == 0; ++i) {
    absl::SleepFor(absl::Milliseconds(50));
    absl::StatusOr<int64_t> n = (*pool)->Run([](pqxx::work& tx) {
      return tx.exec1("SELECT count(*) FROM matchmaking.tickets WHERE state = 1")[0].as<int64_t>();
    });
    ASSERT_TRUE(n.ok()) << n.status();
    searching = *n;
  }
  ASSERT_EQ(searching, 1);
  const CliResult left = RunAs(eve, {"party", "leave", made["name"].get<std::string>()});
  ASSERT_EQ(left.exit_code, 0) << Describe(left);
  const CliResult ended = search.get();
  EXPECT_EQ(ended.exit_code, 4) << Describe(ended);
  EXPECT_THAT(ended.err, HasSubstr("ended CANCELLED"));
  EXPECT_THAT(ended.out, HasSubstr("searching: waited"));
  // "queued: tickets/ID in queues/pairs"
  const size_t at = ended.out.find("tickets/");
  ASSERT_NE(at, std::string::npos) << ended.out;
  const std::string ticket = ended.out.substr(at, ended.out.find(' ', at) - at);
  const CliResult shown = RunAs(dan, {"ticket", "show", ticket});
  ASSERT_EQ(shown.exit_code, 0) << Describe(shown);
  EXPECT_THAT(shown.out, HasSubstr("CANCELLED  players/dan, players/eve"));
  // Eve is no longer in the party but was on the ticket: she may still see it, and cancelling
  // a cancelled ticket changes nothing.
  const CliResult again = RunAs(eve, {"ticket", "cancel", ticket});
  EXPECT_EQ(again.exit_code, 0) << Describe(again);
}

TEST_F(MatchmakingCommandsTest, BadCommandLinesExitTwoAndServiceErrorsFour) {
  EXPECT_EQ(Run({"queue", "join"}).exit_code, 2);
  EXPECT_EQ(Run({"queue", "create", "q", "--game", "muggins"}).exit_code, 2);  // no token
  CliResult bad = RunAsOperator({"queue", "create", "q", "--game", "muggins", "--format", "x"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--format"));
  bad = RunAsOperator({"queue", "create", "q", "--game", "muggins", "--window", "1,2"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--window"));
  bad = RunAsOperator({"queue", "create", "q", "--game", "muggins", "--bot-levels", "0-random"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--bot-levels"));
  // Parsed, then refused by the service: levels out of order.
  bad = RunAsOperator({"queue", "create", "q", "--game", "muggins", "--bot-fill", "5s",
                       "--bot-levels", "20:greedy,10:random"});
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_THAT(bad.err, HasSubstr("queue.bot_fill.levels[1].min_skill"));
  const std::string fay = Register("fay");
  bad = RunAs(fay, {"queue", "join", "nope"});
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_THAT(bad.err, HasSubstr("NOT_FOUND"));
  EXPECT_EQ(Run({"queue", "join", "nope"}).exit_code, 2);  // no player token
  EXPECT_EQ(Run({"player", "frob", "x"}).exit_code, 2);
}

}  // namespace
}  // namespace boneyard::testing
