// `boneyard replay`: the state a record ends in, and how bad records are reported (exit 3
// with the referee's message). Fixtures are hand-written Castle Rock records in testdata/:
// their deal puts 6-6 5-5 6-5 in the row, then 4-4 and 6-4 on top of the pile.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;

void ExpectBadInput(const CliResult& r, const std::string& names) {
  EXPECT_EQ(r.exit_code, 3) << Describe(r);
  EXPECT_THAT(r.err, StartsWith("boneyard: ")) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr(names)) << Describe(r);
  EXPECT_EQ(r.out, "");
}

TEST(Replay, PartialRecordJson) {
  // take 2, draw, draw: the row is 6-6 6-5 4-4 6-4 and only "take 3" is legal.
  const CliResult r = RunCli({"replay", "--json", TestData("castle_rock_partial.json")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("game"), "castle_rock");
  EXPECT_EQ(j.at("round"), 0);
  EXPECT_EQ(j.at("terminal"), false);
  EXPECT_EQ(j.at("current_seat"), 0);
  EXPECT_EQ(j.at("scores"), json({27}));
  EXPECT_EQ(j.at("legal_actions"), json({"take 3"}));
  EXPECT_FALSE(j.contains("ranks"));
  EXPECT_FALSE(j.contains("result"));
  const json& view = j.at("view");
  EXPECT_EQ(view.at("seat"), -1);
  EXPECT_EQ(view.at("boneyard_count"), 23);
  EXPECT_EQ(view.at("layout").at("row"), json({"6-6", "6-5", "4-4", "6-4"}));
  EXPECT_EQ(j.at("rules").at("set"), 6);
}

TEST(Replay, PartialRecordText) {
  const CliResult r = RunCli({"replay", TestData("castle_rock_partial.json")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("game: castle_rock"));
  EXPECT_THAT(r.out, HasSubstr("seat 0 to play"));
  EXPECT_THAT(r.out, HasSubstr("1:6-6  2:6-5  3:4-4  4:6-4"));
  EXPECT_THAT(r.out, HasSubstr("legal actions of seat 0: take 3"));
}

TEST(Replay, ReadsStandardInput) {
  const CliResult r = RunCli({"replay", "--json", "-"},
                             ReadWholeFile(TestData("castle_rock_partial.json")));
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(json::parse(r.out).at("legal_actions"), json({"take 3"}));
}

TEST(Replay, IllegalActionNamesRoundIndexSeatActionAndRule) {
  const CliResult r = RunCli({"replay", TestData("castle_rock_illegal_draw.json")});
  ExpectBadInput(r, "round 1, action 4, seat 0, \"draw\": cannot draw: a removal is available");
  EXPECT_THAT(r.err, HasSubstr("castle_rock_illegal_draw.json"));
}

TEST(Replay, WrongSeat) {
  ExpectBadInput(RunCli({"replay", TestData("castle_rock_wrong_seat.json")}),
                 "round 1, action 1, seat 1, \"draw\": not seat 1's turn");
}

TEST(Replay, MalformedAction) {
  ExpectBadInput(RunCli({"replay", "--json", TestData("castle_rock_bad_notation.json")}),
                 "round 1, action 2, seat 0, \"jump\": 'jump' is not a castle_rock action");
}

TEST(Replay, BadDeal) {
  ExpectBadInput(RunCli({"replay", TestData("castle_rock_missing_tile.json")}),
                 "tiles missing: 0-0");
}

TEST(Replay, MalformedJson) {
  ExpectBadInput(RunCli({"replay", TestData("malformed.json")}), "not valid JSON");
  ExpectBadInput(RunCli({"replay", "-"}, "{]"), "standard input: record: not valid JSON");
}

TEST(Replay, JsonThatIsNotARecord) {
  ExpectBadInput(RunCli({"replay", TestData("not_a_record.json")}), "'rounds'");
}

TEST(Replay, UnknownGame) {
  ExpectBadInput(RunCli({"replay", TestData("unknown_game.json")}), "unknown game 'chess'");
}

TEST(Replay, MissingFile) {
  ExpectBadInput(RunCli({"replay", TestData("no_such_file.json")}), "cannot open");
}

}  // namespace
}  // namespace boneyard::testing
