// The matchmaking service's player accounts and queues end to end, over its RPCs
// (matchmaking_test_fixture.h: a real server on loopback, a real PostgreSQL).
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "google/protobuf/empty.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

using PlayersTest = MatchmakingTest;

TEST_F(PlayersTest, CreateGetAndTheTokenIsStoredOnlyAsAHash) {
  v1::CreatePlayerResponse created;
  ASSERT_TRUE(Create("ann", "Ann Smith", &created).ok());
  EXPECT_EQ(created.player().name(), "players/ann");
  EXPECT_EQ(created.player().kind(), v1::PlayerAccount::HUMAN);
  EXPECT_GE(created.token().size(), 40u);
  v1::PlayerAccount got;
  ASSERT_TRUE(Get("players/ann", &got).ok());
  EXPECT_EQ(got.SerializeAsString(), created.player().SerializeAsString());
  // The database holds the token's SHA-256, never the token.
  const std::string rows = Snapshot();
  EXPECT_THAT(rows, ::testing::Not(HasSubstr(created.token())));
  EXPECT_THAT(rows, HasSubstr(absl::BytesToHexString(TokenHash(created.token()))));
}

// "players/me" is whoever's token the call carries: how the web app learns whose a token is.
TEST_F(PlayersTest, PlayersMeIsTheTokensOwnerAndNeedsAPlayersToken) {
  v1::CreatePlayerResponse ann;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  v1::CreatePlayerResponse bob;
  ASSERT_TRUE(Create("bob", "Bob", &bob).ok());
  v1::PlayerAccount got;
  ASSERT_TRUE(Get("players/me", &got, bob.token()).ok());
  EXPECT_EQ(got.name(), "players/bob");
  ASSERT_TRUE(Get("players/me", &got, ann.token()).ok());
  EXPECT_EQ(got.name(), "players/ann");
  for (const std::optional<std::string>& token :
       {std::optional<std::string>(), std::optional<std::string>("not-a-token-of-anyone"),
        std::optional<std::string>(kOperatorToken)}) {
    grpc::Status status = Get("players/me", &got, token);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  // Nobody may take the alias as an id.
  const std::string before = Snapshot();
  v1::CreatePlayerResponse me;
  grpc::Status status = Create("me", "Me", &me);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("player_id"));
  // Nor a house bot's rating id (a ladder's), which would share its rating.
  status = Create("house:mug:search-3", "House", &me);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("house:"));
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(PlayersTest, IdsAndDisplayNamesAreUniqueNamesWithoutRegardToCase) {
  v1::CreatePlayerResponse created;
  ASSERT_TRUE(Create("ann", "Ann", &created).ok());
  const std::string before = Snapshot();
  grpc::Status status = Create("ann", "Another Ann", &created);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("player_id"));
  status = Create("ann2", "aNN", &created);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("display_name"));
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(PlayersTest, OnlyTheOperatorCreatesAccountsUnlessRegistrationIsOpen) {
  v1::CreatePlayerResponse ann;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  v1::CreatePlayerResponse response;
  EXPECT_EQ(Create("bob", "Bob", &response, std::nullopt).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create("bob", "Bob", &response, "not-a-token-of-anyone").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create("bob", "Bob", &response, ann.token()).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  Start(/*open_registration=*/true);
  ASSERT_TRUE(Create("bob", "Bob", &response, std::nullopt).ok());
  EXPECT_EQ(response.player().kind(), v1::PlayerAccount::HUMAN);
  // Bots stay the operator's, labelled as bots.
  EXPECT_EQ(Create("botty", "Botty", &response, std::nullopt, v1::PlayerAccount::BOT)
                .error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Create("botty", "Botty", &response, kOperatorToken, v1::PlayerAccount::BOT).ok());
  EXPECT_EQ(response.player().kind(), v1::PlayerAccount::BOT);
}

TEST_F(PlayersTest, ListPagesByIdAndFiltersByKind) {
  v1::CreatePlayerResponse response;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Create(absl::StrCat("p", i), absl::StrCat("Player ", i), &response).ok());
  }
  ASSERT_TRUE(Create("zbot", "Z Bot", &response, kOperatorToken, v1::PlayerAccount::BOT).ok());
  v1::ListPlayersRequest request;
  request.set_page_size(2);
  std::vector<std::string> ids;
  for (int page = 0; page < 10; ++page) {
    v1::ListPlayersResponse listed;
    ASSERT_TRUE(stub_->ListPlayers(Context().get(), request, &listed).ok());
    for (const v1::PlayerAccount& p : listed.players()) ids.push_back(p.player_id());
    if (listed.next_page_token().empty()) break;
    request.set_page_token(listed.next_page_token());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4", "zbot"}));

  v1::ListPlayersRequest bots;
  bots.set_kind(v1::PlayerAccount::BOT);
  v1::ListPlayersResponse listed;
  ASSERT_TRUE(stub_->ListPlayers(Context().get(), bots, &listed).ok());
  ASSERT_EQ(listed.players_size(), 1);
  EXPECT_EQ(listed.players(0).player_id(), "zbot");

  // A token for another filter, an altered one, a negative size, an unknown kind.
  v1::ListPlayersRequest first;
  first.set_page_size(1);
  ASSERT_TRUE(stub_->ListPlayers(Context().get(), first, &listed).ok());
  const std::string token = listed.next_page_token();
  ASSERT_FALSE(token.empty());
  bots.set_page_token(token);
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bots, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  first.set_page_token(token.substr(0, token.size() - 1) + (token.back() == 'A' ? "B" : "A"));
  EXPECT_EQ(stub_->ListPlayers(Context().get(), first, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::ListPlayersRequest bad;
  bad.set_page_size(-1);
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bad, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  bad = v1::ListPlayersRequest();
  bad.set_kind(static_cast<v1::PlayerAccount::Kind>(7));
  EXPECT_EQ(stub_->ListPlayers(Context().get(), bad, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(PlayersTest, RotatingATokenRetiresTheOldOne) {
  v1::CreatePlayerResponse ann;
  v1::CreatePlayerResponse bob;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  ASSERT_TRUE(Create("bob", "Bob", &bob).ok());
  v1::RotatePlayerTokenResponse rotated;
  // Someone else's token, no token, an unknown one.
  EXPECT_EQ(Rotate("players/ann", bob.token(), &rotated).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Rotate("players/ann", std::nullopt, &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Rotate("players/ann", "nobody-has-this-token", &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // Her own token: a new one, and the old one no longer works.
  ASSERT_TRUE(Rotate("players/ann", ann.token(), &rotated).ok());
  EXPECT_NE(rotated.token(), ann.token());
  EXPECT_EQ(Rotate("players/ann", ann.token(), &rotated).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // The operator may rotate anyone's; an unknown player is NOT_FOUND.
  EXPECT_TRUE(Rotate("players/bob", kOperatorToken, &rotated).ok());
  EXPECT_EQ(Rotate("players/nobody", kOperatorToken, &rotated).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// ----- Hostile input ------------------------------------------------------------------------


TEST_F(PlayersTest, MalformedFieldsAreRefusedAndChangeNothing) {
  v1::CreatePlayerResponse good;
  ASSERT_TRUE(Create("ann", "Ann", &good).ok());
  const std::string before = Snapshot();
  struct Case {
    std::string what;
    std::string id;
    std::string display;
    std::string field;
  };
  const std::vector<Case> cases = {
      {"an empty id", "", "Bob", "player_id"},
      {"a 1 MB id", kMegabyte, "Bob", "player_id"},
      {"a NUL in the id", std::string("b\0b", 3), "Bob", "player_id"},
      {"white space in the id", "b b", "Bob", "player_id"},
      {"an empty display name", "bob", "", "display_name"},
      {"a 41-character display name", "bob", std::string(41, 'b'), "display_name"},
      {"a 1 MB display name", "bob", kMegabyte, "display_name"},
      {"a NUL in the display name", "bob", std::string("B\0b", 3), "display_name"},
      {"a tab in the display name", "bob", "B\tb", "display_name"},
      {"a leading space", "bob", " Bob", "display_name"},
      {"only spaces", "bob", "   ", "display_name"},
  };
  for (const Case& c : cases) {
    v1::CreatePlayerResponse response;
    ExpectRefused(Create(c.id, c.display, &response), c.field, c.what);
  }
  v1::CreatePlayerResponse response;
  ExpectRefused(Create("bob", "Bob", &response, kOperatorToken,
                       static_cast<v1::PlayerAccount::Kind>(9)),
                "kind", "an unknown kind");
  // Forty characters of any script are fine.
  EXPECT_TRUE(Create("zoe", std::string(40, 'z'), &response).ok());
  EXPECT_TRUE(Create("jose", "Jos\xc3\xa9 \xe6\x9d\x8e", &response).ok());

  for (const std::string& name : {std::string(), std::string("ann"), "players/" + kMegabyte,
                                  std::string("players/a\0b", 11), std::string("matches/ann")}) {
    v1::PlayerAccount player;
    ExpectRefused(Get(name, &player), "name", "GetPlayer " + name.substr(0, 20));
    v1::RotatePlayerTokenResponse rotated;
    ExpectRefused(Rotate(name, kOperatorToken, &rotated), "name",
                  "RotatePlayerToken " + name.substr(0, 20));
  }
  v1::PlayerAccount player;
  EXPECT_EQ(Get("players/nobody", &player).error_code(), grpc::StatusCode::NOT_FOUND);
  // The two good creates beside the bad ones.
  const std::string after = Snapshot();
  EXPECT_THAT(after, HasSubstr("zoe|"));
  EXPECT_THAT(after, HasSubstr("jose|"));
  EXPECT_THAT(after, HasSubstr(before));
}

// ----- Queues -------------------------------------------------------------------------------

using QueuesTest = MatchmakingTest;

TEST_F(QueuesTest, CreateGetListUpdateAndDelete) {
  v1::Queue created;
  ASSERT_TRUE(CreateQueue("forty-two-rated", FortyTwoQueue(), &created).ok());
  EXPECT_EQ(created.name(), "queues/forty-two-rated");
  v1::Queue eighty_four = FortyTwoQueue();
  eighty_four.set_game("eighty_four");
  eighty_four.clear_rules();
  eighty_four.mutable_format()->mutable_teams()->set_team_size(4);
  v1::Queue muggins;
  muggins.set_display_name("Muggins, casual");
  muggins.set_game("muggins");
  muggins.mutable_format()->mutable_head_to_head();
  muggins.mutable_window()->set_max(10);
  v1::Queue train;
  train.set_display_name("Mexican Train tables");
  train.set_game("mexican_train");
  train.mutable_format()->mutable_free_for_all()->set_min_players(4);
  train.mutable_format()->mutable_free_for_all()->set_max_players(8);
  train.mutable_window()->set_max(10);
  for (const auto& [id, queue] : std::vector<std::pair<std::string, v1::Queue>>{
           {"eighty-four", eighty_four}, {"muggins", muggins}, {"train", train}}) {
    v1::Queue made;
    grpc::Status status = CreateQueue(id, queue, &made);
    ASSERT_TRUE(status.ok()) << id << ": " << status.error_message();
  }
  v1::Queue got;
  ASSERT_TRUE(GetQueue("queues/forty-two-rated", &got).ok());
  EXPECT_EQ(got.SerializeAsString(), created.SerializeAsString());

  v1::ListQueuesRequest list;
  list.set_page_size(3);
  v1::ListQueuesResponse listed;
  ASSERT_TRUE(stub_->ListQueues(Context().get(), list, &listed).ok());
  ASSERT_EQ(listed.queues_size(), 3);
  list.set_page_token(listed.next_page_token());
  ASSERT_TRUE(stub_->ListQueues(Context().get(), list, &listed).ok());
  ASSERT_EQ(listed.queues_size(), 1);
  EXPECT_EQ(listed.queues(0).name(), "queues/train");
  EXPECT_TRUE(listed.next_page_token().empty());
  v1::ListQueuesRequest by_game;
  by_game.set_game("muggins");
  ASSERT_TRUE(stub_->ListQueues(Context().get(), by_game, &listed).ok());
  ASSERT_EQ(listed.queues_size(), 1);

  v1::UpdateQueueRequest update;
  update.mutable_queue()->set_name("queues/forty-two-rated");
  update.mutable_queue()->set_display_name("Forty-Two, rated");
  update.mutable_queue()->mutable_window()->set_max(30);
  update.mutable_update_mask()->add_paths("display_name");
  v1::Queue updated;
  ASSERT_TRUE(stub_->UpdateQueue(Context(kOperatorToken).get(), update, &updated).ok());
  EXPECT_EQ(updated.display_name(), "Forty-Two, rated");
  EXPECT_EQ(updated.window().max(), 25);  // not in the mask: unchanged
  ASSERT_TRUE(GetQueue("queues/forty-two-rated", &got).ok());
  EXPECT_EQ(got.SerializeAsString(), updated.SerializeAsString());

  v1::DeleteQueueRequest remove;
  remove.set_name("queues/muggins");
  google::protobuf::Empty empty;
  ASSERT_TRUE(stub_->DeleteQueue(Context(kOperatorToken).get(), remove, &empty).ok());
  EXPECT_EQ(GetQueue("queues/muggins", &got).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(stub_->DeleteQueue(Context(kOperatorToken).get(), remove, &empty).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(QueuesTest, OnlyTheOperatorWritesQueues) {
  v1::CreatePlayerResponse ann;
  ASSERT_TRUE(Create("ann", "Ann", &ann).ok());
  v1::Queue created;
  EXPECT_EQ(CreateQueue("q", FortyTwoQueue(), &created, std::nullopt).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(CreateQueue("q", FortyTwoQueue(), &created, ann.token()).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(CreateQueue("q", FortyTwoQueue(), &created).ok());
  EXPECT_EQ(CreateQueue("q", FortyTwoQueue(), &created).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  v1::DeleteQueueRequest remove;
  remove.set_name("queues/q");
  google::protobuf::Empty empty;
  EXPECT_EQ(stub_->DeleteQueue(Context(ann.token()).get(), remove, &empty).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::Queue got;
  EXPECT_TRUE(GetQueue("queues/q", &got).ok());
}

TEST_F(QueuesTest, SettingsTheGameCannotSeatAreRefusedAndChangeNothing) {
  v1::Queue created;
  ASSERT_TRUE(CreateQueue("base", FortyTwoQueue(), &created).ok());
  using Mutation = void (*)(v1::Queue&);
  struct Case {
    const char* what;
    const char* field;
    Mutation mutate;
  };
  const Case cases[] = {
      {"an unknown game", "queue.game", [](v1::Queue& q) { q.set_game("chess"); }},
      {"a 1 MB game", "queue.game", [](v1::Queue& q) { q.set_game(kMegabyte); }},
      {"a rule out of range", "queue.rules",
       [](v1::Queue& q) { (*q.mutable_rules())["target"].set_int_value(5); }},
      {"an unknown rule", "queue.rules",
       [](v1::Queue& q) { (*q.mutable_rules())["house_rule"].set_bool_value(true); }},
      {"head-to-head for a team game", "queue.format",
       [](v1::Queue& q) { q.mutable_format()->mutable_head_to_head(); }},
      {"three to a team in Forty-Two", "queue.format",
       [](v1::Queue& q) { q.mutable_format()->mutable_teams()->set_team_size(3); }},
      {"no format", "queue.format", [](v1::Queue& q) { q.clear_format(); }},
      {"a window narrower at the end", "queue.window",
       [](v1::Queue& q) { q.mutable_window()->set_max(1); }},
      {"a negative bot wait", "queue.bot_fill.after",
       [](v1::Queue& q) { q.mutable_bot_fill()->mutable_after()->set_seconds(-1); }},
      {"a bot the game lacks", "queue.bot_fill.bot_kind",
       [](v1::Queue& q) { q.mutable_bot_fill()->set_bot_kind("grandmaster"); }},
      {"a bot level the game lacks", "queue.bot_fill.levels[0].bot_kind",
       [](v1::Queue& q) { q.mutable_bot_fill()->add_levels()->set_bot_kind("grandmaster"); }},
      {"bot levels out of order", "queue.bot_fill.levels[1].min_skill",
       [](v1::Queue& q) {
         for (double skill : {20.0, 10.0}) {
           v1::BotLevel* level = q.mutable_bot_fill()->add_levels();
           level->set_min_skill(skill);
           level->set_bot_kind("random");
         }
       }},
      {"a timeout policy without a clock", "queue.clock.timeout_policy",
       [](v1::Queue& q) { q.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT); }},
      {"a 1 MB display name", "queue.display_name",
       [](v1::Queue& q) { q.set_display_name(kMegabyte); }},
      {"an empty display name", "queue.display_name",
       [](v1::Queue& q) { q.clear_display_name(); }},
  };
  for (const Case& c : cases) {
    v1::Queue queue = FortyTwoQueue();
    c.mutate(queue);
    v1::Queue made;
    ExpectRefused(CreateQueue("other", queue, &made), c.field, c.what);
  }
  // Mexican Train on the default double-12 set has no deal for two (or three) players.
  v1::Queue train;
  train.set_display_name("Trains");
  train.set_game("mexican_train");
  train.mutable_format()->mutable_free_for_all()->set_min_players(2);
  train.mutable_format()->mutable_free_for_all()->set_max_players(8);
  ExpectRefused(CreateQueue("other", train, &created), "queue.rules", "a table size without deal");

  // An update that would make the queue invalid changes nothing; so do forbidden masks.
  v1::Queue before;
  ASSERT_TRUE(GetQueue("queues/base", &before).ok());
  v1::UpdateQueueRequest update;
  update.mutable_queue()->set_name("queues/base");
  update.mutable_queue()->mutable_format()->mutable_head_to_head();
  update.mutable_update_mask()->add_paths("format");
  v1::Queue updated;
  ExpectRefused(stub_->UpdateQueue(Context(kOperatorToken).get(), update, &updated),
                "queue.format", "an update to a format the game cannot seat");
  for (const char* path : {"game", "name", "create_time", "no_such_field"}) {
    update.mutable_update_mask()->clear_paths();
    update.mutable_update_mask()->add_paths(path);
    ExpectRefused(stub_->UpdateQueue(Context(kOperatorToken).get(), update, &updated),
                  "update_mask", path);
  }
  update.mutable_update_mask()->clear_paths();
  ExpectRefused(stub_->UpdateQueue(Context(kOperatorToken).get(), update, &updated),
                "update_mask", "an empty mask");
  v1::Queue after;
  ASSERT_TRUE(GetQueue("queues/base", &after).ok());
  EXPECT_EQ(after.SerializeAsString(), before.SerializeAsString());
  for (const std::string& name : {std::string("base"), "queues/" + kMegabyte,
                                  std::string("queues/a\0b", 10)}) {
    ExpectRefused(GetQueue(name, &after), "name", "GetQueue " + name.substr(0, 12));
  }
}

}  // namespace
}  // namespace boneyard::matchmaking
