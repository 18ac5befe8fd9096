// Parties over the matchmaking service's RPCs (players_and_queues_test.cc's fixture): one party
// a player, invite codes, leaders who leave, full parties, who may see and change what.
#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using PartiesTest = MatchmakingTest;

TEST_F(PartiesTest, CreateJoinLeaveAndTheLeadPasses) {
  const std::vector<std::string> tokens = Players(3);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  EXPECT_EQ(party.leader(), "players/p0");
  EXPECT_THAT(party.members(), ElementsAre("players/p0"));
  EXPECT_EQ(party.invite_code().size(), 10u);
  const std::string name = party.name();
  ASSERT_TRUE(Join(tokens[1], party.invite_code(), &party).ok());
  ASSERT_TRUE(Join(tokens[2], party.invite_code(), &party).ok());
  EXPECT_THAT(party.members(), ElementsAre("players/p0", "players/p1", "players/p2"));

  // The leader leaves: the longest-standing member leads.
  ASSERT_TRUE(Leave(tokens[0], name, &party).ok());
  EXPECT_EQ(party.leader(), "players/p1");
  EXPECT_THAT(party.members(), ElementsAre("players/p1", "players/p2"));
  // The operator takes p2 out; p1, the last, leaves and the party ends.
  ASSERT_TRUE(Leave(kOperatorToken, name, &party, "players/p2").ok());
  ASSERT_TRUE(Leave(tokens[1], name, &party).ok());
  EXPECT_TRUE(party.members().empty());
  EXPECT_EQ(GetParty(kOperatorToken, name, &party).error_code(), grpc::StatusCode::NOT_FOUND);
  // Free again: p0 may lead a new party.
  EXPECT_TRUE(CreateParty(tokens[0], &party).ok());
}

TEST_F(PartiesTest, OnePartyAPlayerAndAtMostEightMembers) {
  const std::vector<std::string> tokens = Players(10);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  const std::string code = party.invite_code();
  v1::Party other;
  EXPECT_EQ(CreateParty(tokens[0], &other).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  for (int i = 1; i < 8; ++i) ASSERT_TRUE(Join(tokens[i], code, &party).ok()) << i;
  EXPECT_EQ(Join(tokens[1], code, &party).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  const grpc::Status full = Join(tokens[8], code, &party);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(full.error_message(), HasSubstr("full"));
  ASSERT_TRUE(GetParty(tokens[0], party.name(), &party).ok());
  EXPECT_EQ(party.members_size(), 8);
  EXPECT_EQ(Join(tokens[9], "NOSUCHCODE", &other).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(PartiesTest, OnlyMembersAndTheOperatorSeeOrChangeAParty) {
  const std::vector<std::string> tokens = Players(3);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  const std::string name = party.name();
  v1::Party seen;
  EXPECT_EQ(GetParty(tokens[1], name, &seen).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(GetParty("", name, &seen).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(GetParty(kOperatorToken, name, &seen).ok());
  EXPECT_EQ(Leave(tokens[1], name, &seen).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Leave(tokens[1], name, &seen, "players/p0").error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // The operator is no player: it leads no party and must name whom it takes out.
  EXPECT_EQ(CreateParty(kOperatorToken, &seen).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Leave(kOperatorToken, name, &seen).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Leave(kOperatorToken, name, &seen, "players/p1").error_code(),
            grpc::StatusCode::NOT_FOUND);  // p1 is no member
  EXPECT_EQ(Leave(kOperatorToken, "parties/nosuchparty", &seen, "players/p0").error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(CreateParty("nobody-has-this-token", &seen).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // Nothing changed.
  ASSERT_TRUE(GetParty(tokens[0], name, &seen).ok());
  EXPECT_EQ(seen.SerializeAsString(), party.SerializeAsString());
  for (const std::string& bad : {std::string(), std::string("parties"), "parties/" + kMegabyte,
                                 std::string("parties/a\0b", 11)}) {
    ExpectRefused(GetParty(tokens[0], bad, &seen), "name", "GetParty " + bad.substr(0, 12));
  }
  ExpectRefused(Join(tokens[1], kMegabyte, &seen), "invite_code", "a 1 MB invite code");
  ExpectRefused(Join(tokens[1], std::string("A\0B", 3), &seen), "invite_code", "a NUL");
}

}  // namespace
}  // namespace boneyard::matchmaking
